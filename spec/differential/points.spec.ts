import type { BaseEvent } from "@ag-ui/core";
import { ev } from "carbon-agui-rx/testing";
import { AgUiProtocolError } from "../../src/errors";
import { carbonTexts, runOurs, runReference, withoutEmptyMessages } from "./reference";
import { USER_MESSAGE } from "./streams";

/** The fourteen disagreements with the reference client that issue 14 names, one spec each. */
describe("what the conversation keeps, point by point (issue 14)", () => {
  async function both(events: BaseEvent[]) {
    const [reference, ours] = await Promise.all([runReference(events), runOurs(events)]);
    return { reference, ours };
  }
  const finalResponses = (ours: Awaited<ReturnType<typeof runOurs>>) =>
    ours.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : []));

  it("1. a chunked message split by another event keeps its first part, in Carbon and in the history", async () => {
    const { reference, ours } = await both(
      ev.run(ev.textChunk({ messageId: "m1", delta: "Hello" }), ev.stateDelta({ op: "add", path: "/x", value: 1 }), ev.textChunk({ messageId: "m1", delta: " world" })),
    );
    expect(ours.end.messages).toEqual([USER_MESSAGE, { id: "m1", role: "assistant", content: "Hello world" }]);
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
    expect(carbonTexts(ours.carbon)).toEqual([["Hello world"]]);
  });

  it("1. a message reopened by a second TEXT_MESSAGE_START with its id goes on where it stopped", async () => {
    const { reference, ours } = await both(ev.run(ev.message("m1", "Hello"), ev.message("m1", " world")));
    expect(ours.end.messages).toEqual([USER_MESSAGE, { id: "m1", role: "assistant", content: "Hello world" }]);
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
    expect(carbonTexts(ours.carbon)).toEqual([["Hello world"]]);
  });

  it("2. a chunked answer cut off mid-message is marked not completed, like the explicit form", async () => {
    const { ours } = await both([ev.runStarted(), ev.textChunk({ messageId: "m1", delta: "Hel" })]);
    expect(ours.error).toBeInstanceOf(AgUiProtocolError);
    expect(finalResponses(ours).at(-1)?.output.generic?.at(-1)).toMatchObject({ response_type: "inline_error", text: expect.stringMatching(/^This answer is incomplete\./) });
    expect(ours.end.messages).toEqual([USER_MESSAGE, { id: "m1", role: "assistant", content: "Hel" }]);
  });

  it("2. cut TOOL_CALL_CHUNK arguments are kept as they came, and the turn is not reported as completed", async () => {
    const events = [ev.runStarted(), ev.toolChunk({ toolCallId: "c1", toolCallName: "search", delta: '{"q":' })];
    const completedCalls: unknown[] = [];
    const [reference, ours] = await Promise.all([runReference(events), runOurs(events, { onToolCall: (call) => void completedCalls.push(call) })]);
    expect(ours.error).toMatchObject({ message: "The stream ended while tool call 'c1' was still open" });
    // Its arguments never completed: no onToolCall, no card made of half the arguments.
    expect(completedCalls).toEqual([]);
    expect(ours.end.messages).toEqual([USER_MESSAGE, { id: "c1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{"q":' } }] }]);
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
  });

  it("3. a second run in the same stream is shown, kept, and sent with the next run", async () => {
    const { reference, ours } = await both([...ev.run(ev.message("m1", "first")), ...ev.run(ev.message("m2", "second"))]);
    expect(ours.completed).toBe(true);
    expect(carbonTexts(ours.carbon)).toEqual([["first"], ["second"]]);
    expect(ours.end.messages.map((message) => message.id)).toEqual(["user-1", "m1", "m2"]);
    expect(ours.runs).toEqual(reference.runs.map(withoutEmptyMessages));
  });

  it("4. a stream that ends without a terminal event is not a success, and keeps what it delivered", async () => {
    const { ours } = await both([ev.runStarted(), ...ev.message("m1", "complete; ", "the run is not")]);
    expect(ours.completed).toBe(false);
    expect(ours.error).toBeInstanceOf(AgUiProtocolError);
    expect(finalResponses(ours).at(-1)?.output.generic?.at(-1)).toMatchObject({ response_type: "inline_error", text: expect.stringMatching(/^This answer is incomplete\./) });
    expect(ours.end.messages).toEqual([USER_MESSAGE, { id: "m1", role: "assistant", content: "complete; the run is not" }]);
  });

  it("5. a MESSAGES_SNAPSHOT without reasoning messages keeps the streamed ones and their encrypted values", async () => {
    const { reference, ours } = await both(
      ev.run(
        ev.reasoningMessageStart("r1"),
        ev.reasoning("r1", "thinking"),
        ev.reasoningMessageEnd("r1"),
        ev.reasoningEncryptedValue("message", "r1", "secret"),
        ev.messagesSnapshot(USER_MESSAGE, { id: "m1", role: "assistant", content: "Hi" }),
      ),
    );
    expect(ours.end.messages).toEqual([USER_MESSAGE, { id: "r1", role: "reasoning", content: "thinking", encryptedValue: "secret" }, { id: "m1", role: "assistant", content: "Hi" }]);
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
  });

  it("6. an encrypted-only reasoning message reaches the history, so its value is sent back", async () => {
    const { reference, ours } = await both(ev.run(ev.reasoningMessageStart("r1"), ev.reasoningMessageEnd("r1"), ev.reasoningEncryptedValue("message", "r1", "secret")));
    expect(ours.end.messages).toEqual([USER_MESSAGE, { id: "r1", role: "reasoning", content: "", encryptedValue: "secret" }]);
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
  });

  it("7. a tool result follows its call, whatever was open meanwhile", async () => {
    const { reference, ours } = await both(ev.run(ev.textStart("m1"), ev.text("m1", "Let me look"), ...ev.toolCall("c1", "search"), ev.toolResult("c1", "found"), ev.textEnd("m1")));
    expect(ours.end.messages.map((message) => `${message.role}:${message.id}`)).toEqual(["user:user-1", "assistant:m1", "assistant:c1", "tool:result-c1"]);
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
  });

  it("7. a result that comes before its call's END still follows the call", async () => {
    const { reference, ours } = await both(ev.run(ev.toolStart("c1", "search"), ev.toolArgs("c1", "{}"), ev.toolResult("c1", "found"), ev.toolEnd("c1"), ...ev.message("m2", "Done")));
    expect(ours.end.messages.map((message) => `${message.role}:${message.id}`)).toEqual(["user:user-1", "assistant:c1", "tool:result-c1", "assistant:m2"]);
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
  });

  it("8. a tool call whose parentMessageId names the user's message leaves the user's words alone", async () => {
    const { reference, ours } = await both(ev.run(...ev.toolCall("c1", "search", {}, USER_MESSAGE.id)));
    expect(ours.end.messages[0]).toEqual(USER_MESSAGE);
    expect(ours.end.messages[1]).toMatchObject({ id: "c1", role: "assistant", toolCalls: [{ id: "c1" }] });
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
  });

  it("9. activity messages from a snapshot are activities, not history sent back to the agent", async () => {
    const activity = { id: "a1", role: "activity" as const, activityType: "plan", content: { step: 1 } };
    const { reference, ours } = await both(ev.run(ev.messagesSnapshot(USER_MESSAGE, activity)));
    expect(ours.end.messages).toEqual([USER_MESSAGE]);
    expect(ours.end.activities).toEqual({ a1: { activityType: "plan", content: { step: 1 } } });
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
  });

  it("10. ACTIVITY_SNAPSHOT with replace: false leaves an existing activity alone", async () => {
    const { reference, ours } = await both(ev.run(ev.activitySnapshot("a1", "plan", { step: 1 }), ev.activitySnapshot("a1", "progress", { done: true }, false)));
    expect(ours.end.activities).toEqual({ a1: { activityType: "plan", content: { step: 1 } } });
    expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
  });

  it("11. a STATE_DELTA moving a value into its own child changes nothing", async () => {
    const { ours } = await both(ev.run(ev.stateSnapshot({ a: { b: 1 } }), ev.stateDelta({ op: "move", from: "/a", path: "/a/c" })));
    expect(ours.end.state).toEqual({ a: { b: 1 } });
  });

  it("11. a root move followed by a failing operation restores the state it started from", async () => {
    const { ours } = await both(
      ev.run(ev.stateSnapshot(["first", "second"]), ev.stateDelta({ op: "move", from: "/0", path: "" }, { op: "test", path: "/x", value: 2 })),
    );
    expect(ours.end.state).toEqual(["first", "second"]);
  });

  it("12. an item shown before the turn's first text stays before it", async () => {
    const events = ev.run(...ev.toolCall("c1", "search"), ...ev.message("m1", "Answer"));
    const ours = await runOurs(events, { onToolCall: () => ({ response_type: "user_defined", user_defined: { card: "search" } }) });
    expect(finalResponses(ours)[0]!.output.generic.map((item) => item.response_type)).toEqual(["user_defined", "text"]);
  });

  it("14. a RUN_FINISHED whose outcome type this version does not know keeps the run's end, without the outcome", async () => {
    const { ours } = await both(ev.run(ev.message("m1", "Hi"), { ...ev.runFinished(), outcome: { type: "handoff" } } as unknown as BaseEvent as never));
    expect(ours.completed).toBe(true);
    expect(ours.runs).toHaveLength(1);
    expect(ours.carbon.chunks.filter((chunk) => "final_response" in chunk)).toHaveLength(1);
  });
});

describe("a failed patch, from the outside (issue 26)", () => {
  it("leaves the state exactly as @ag-ui/client has it, key order included, and warns without the state", async () => {
    const state: Record<string, unknown> = { plan: { a: 1 }, keep: [1, 2] };
    for (let key = 0; key < 10_000; key++) state[`key${key}`] = `private value ${key}`;
    const events = ev.run(ev.stateSnapshot(state), ev.stateDelta({ op: "move", from: "/plan", path: "/plan/old" }), ev.message("m1", "done"));
    const warnings: Error[] = [];
    const [reference, ours] = await Promise.all([runReference(events), runOurs(events, { onWarning: (warning) => void warnings.push(warning) })]);
    expect(JSON.stringify(ours.end.state)).toBe(JSON.stringify(state));
    expect(JSON.stringify(ours.end.state)).toBe(JSON.stringify(reference.end.state));
    expect(warnings.map((warning) => warning.message)).toEqual([
      'A STATE_DELTA for the state was not applied and nothing changed: operation 0 (move from "/plan" to "/plan/old") failed: a value cannot move into its own child',
    ]);
    expect(JSON.stringify(warnings)).not.toContain("private value");
  });
});
