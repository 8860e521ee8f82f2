import type { Message } from "@ag-ui/core";
import { withWorkers } from "../../../src/threads/langGraph/workers";
import { replayServerThread } from "../../support/threads";

const call = (id: string, name: string) => ({ id, type: "function" as const, function: { name, arguments: "{}" } });
/** A supervisor's turn as the server holds it (AG-UI messages; the LangChain ones say who spoke). */
const messages: Message[] = [
  { id: "u1", role: "user", content: "Why tides?" },
  { id: "a1", role: "assistant", content: "", toolCalls: [call("h1", "transfer_to_writer")] },
  { id: "t1", role: "tool", toolCallId: "h1", content: "Successfully transferred to writer" },
  { id: "w1", role: "assistant", content: "Draft: the moon." },
  { id: "w2", role: "assistant", content: "Transferring back to supervisor", toolCalls: [call("b1", "transfer_back_to_supervisor")] },
  { id: "t2", role: "tool", toolCallId: "b1", content: "Successfully transferred back to supervisor" },
  { id: "a2", role: "assistant", content: "The moon's pull." },
];
const named = (names: Record<string, string>) => messages.map((message) => ({ id: message.id, name: names[message.id], ...(message.role === "assistant" && message.toolCalls && { tool_calls: message.toolCalls.map((c) => ({ id: c.id, name: c.function.name })) }) }));

describe("withWorkers (a LangGraph supervisor's thread read back)", () => {
  it("attributes each worker's messages as live, and the restored answer shows the handoff and the worker's step, not its handoff back", () => {
    const thread = withWorkers({ threadId: "t", messages, state: {}, interrupts: [] }, named({ a1: "supervisor", w1: "writer", w2: "writer", a2: "supervisor" }), "supervisor");
    expect(thread.messages.map((message) => message.subagentRunId)).toEqual([undefined, undefined, undefined, "writer:h1", "writer:h1", "writer:h1", undefined]);
    expect(thread.subagents).toEqual([{ subagentRunId: "writer:h1", name: "writer", parentToolCallId: "h1", unshown: ["w2", "t2"] }]);
    const [answer] = replayServerThread(thread).responses;
    expect(answer!.output.generic.map((item) => item.text).filter(Boolean)).toEqual(["The moon's pull."]);
    expect(answer!.message_options?.chain_of_thought?.map((step) => [step.title, step.status, step.response?.content])).toEqual([
      ["Handing off to writer", "success", "Successfully transferred to writer"],
      ["writer", "success", "Draft: the moon."],
    ]);
  });

  it("hidden, shows the worker's step without its words, as a live run does", () => {
    const thread = withWorkers({ threadId: "t", messages, state: {}, interrupts: [] }, named({ a1: "supervisor", w1: "writer", w2: "writer", a2: "supervisor" }), "supervisor", true);
    const [answer] = replayServerThread(thread).responses;
    expect(answer!.output.generic.map((item) => item.text).filter(Boolean)).toEqual(["The moon's pull."]);
    expect(answer!.message_options?.chain_of_thought?.map((step) => [step.title, step.response?.content])).toEqual([
      ["Handing off to writer", "Successfully transferred to writer"],
      ["writer", undefined],
    ]);
  });

  it("names the worker a restored card waits on: the thread waits inside the invocation its last handoff started", () => {
    const waiting: Message[] = [
      { id: "u1", role: "user", content: "Tidy up" },
      { id: "a1", role: "assistant", content: "", toolCalls: [call("h1", "transfer_to_cleaner")] },
      { id: "t1", role: "tool", toolCallId: "h1", content: "Successfully transferred to cleaner" },
    ];
    const lc = waiting.map((message) => ({ id: message.id, name: message.id === "a1" ? "supervisor" : undefined, ...(message.role === "assistant" && { tool_calls: [{ id: "h1", name: "transfer_to_cleaner" }] }) }));
    const thread = withWorkers({ threadId: "t", messages: waiting, state: {}, interrupts: [{ id: "i1", reason: "langgraph:interrupt", message: "Delete *.tmp?" }] }, lc, "supervisor");
    expect(thread.interrupts).toEqual([expect.objectContaining({ id: "i1", subagentRunId: "cleaner:h1" })]);
    const [answer] = replayServerThread(thread).responses;
    const cards = answer!.output.generic.flatMap((item) => (item.response_type === "user_defined" ? [item.user_defined] : []));
    expect(cards).toEqual([expect.objectContaining({ kind: "interrupt", subagent: "cleaner" })]);
  });

  it("leaves a thread whose handoffs are no supervisor's as it is (a swarm hands the conversation itself along)", () => {
    const thread = { threadId: "t", messages, state: {}, interrupts: [] };
    expect(withWorkers(thread, named({ a1: "alice", w1: "bob" }), "supervisor")).toBe(thread);
  });
});
