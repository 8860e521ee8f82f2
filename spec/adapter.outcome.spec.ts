import type { BaseEvent, Interrupt, Message, RunAgentInput } from "@ag-ui/core";
import { Observable } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../src/adapter";
import type { CarbonItem } from "../src/carbon";
import { AgUiConnectionError, type CarbonAgUiError } from "../src/errors";
import { memoryStore } from "../src/persistence/memoryStore";
import type { CarbonHistoryResponse } from "../src/persistence/restore";
import type { ConversationStore } from "../src/persistence/store";
import { ev } from "./support/builders";

const request = (text: string) => ({ id: `u-${text}`, input: { text }, history: {} });
const sendOptions = () => ({ signal: new AbortController().signal });
const approval: Interrupt = { id: "int-1", reason: "tool_approval", message: "Send it?", toolCallId: "call-1" };

type Script = (input: RunAgentInput) => BaseEvent[] | Observable<BaseEvent>;

/** An adapter whose runs follow `scripts` in turn (then answer "ok"), recording inputs and what onError saw. */
function adapterWith(scripts: Script[], extra: Partial<CarbonAgUiAdapterOptions> = {}, store: ConversationStore = memoryStore()) {
  const inputs: RunAgentInput[] = [];
  const errors: CarbonAgUiError[] = [];
  const adapter = new CarbonAgUiAdapter({
    threadId: "thread-1",
    coalesce: false,
    run: (input) => {
      inputs.push(input);
      return scripts[inputs.length - 1]?.(input) ?? ev.run(ev.message(`ok-${inputs.length}`, "ok"));
    },
    persistence: { store, channel: false },
    onError: (error) => errors.push(error),
    ...extra,
  });
  return { adapter, inputs, errors, store };
}

/** Events, then the connection drops. */
const thenDrop = (events: BaseEvent[], error: Error) =>
  new Observable<BaseEvent>((subscriber) => {
    for (const event of events) subscriber.next(event);
    subscriber.error(error);
  });

const itemsOf = (response: CarbonHistoryResponse) => response.output.generic.map((item: CarbonItem) => [item.response_type, item.text]);

/** Every assistant tool call in `messages` has a tool result after it. */
function danglingCalls(messages: readonly Message[]): string[] {
  const dangling: string[] = [];
  messages.forEach((message, at) => {
    if (message.role !== "assistant") return;
    for (const call of message.toolCalls ?? []) {
      if (!messages.slice(at + 1).some((later) => later.role === "tool" && later.toolCallId === call.id)) dangling.push(call.id);
    }
  });
  return dangling;
}

describe("one outcome per turn", () => {
  it("restores an answer whose connection dropped as it showed live: its text, then the inline error", async () => {
    const drop = new AgUiConnectionError("The connection broke off mid-stream: network down");
    const first = adapterWith([() => thenDrop([ev.runStarted(), ev.textStart("a1"), ev.text("a1", "half an ans")], drop)]);
    const carbon = new CarbonRecorder();
    await first.adapter.sendMessage(request("Hi"), sendOptions(), carbon);
    const live = carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : []));
    expect(live).toHaveLength(1);
    const liveItems = live[0]!.output.generic.map((item: CarbonItem) => [item.response_type, item.text]);
    expect(liveItems).toEqual([
      ["text", "half an ans"],
      ["inline_error", "This answer is incomplete. The connection to the agent broke off."],
    ]);
    expect(first.errors).toEqual([drop]);

    const second = adapterWith([], {}, first.store);
    const history = await second.adapter.loadHistory(new CarbonRecorder());
    const restored = history.map((item) => item.message).filter((message): message is CarbonHistoryResponse => "output" in message);
    expect(restored.map(itemsOf)).toEqual([liveItems]);
  });

  it("tells onError of a resume that fails, once, as it does of a message", async () => {
    const { adapter, errors } = adapterWith([() => ev.run(ev.toolCall("call-1", "send", { to: "team" }), ev.interrupt(approval)), () => [ev.runStarted(), ev.runError("resume exploded")]]);
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Send it"), sendOptions(), carbon);
    await expect(adapter.respondToInterrupt({ type: "approve" }, carbon)).rejects.toThrow("resume exploded");
    expect(carbon.transcript()).toContain("[error: resume exploded.]");
    expect(errors.map((error) => error.message)).toEqual(["resume exploded"]);
  });

  it("does not tell onError of a stopped turn", async () => {
    const controller = new AbortController();
    const { adapter, errors } = adapterWith([() => new Observable<BaseEvent>((subscriber) => void subscriber.next(ev.runStarted()))]);
    const carbon = new CarbonRecorder();
    const sent = adapter.sendMessage(request("Hi"), { signal: controller.signal }, carbon);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await sent;
    expect(errors).toEqual([]);
  });
});

describe("a declared tool without a handler", () => {
  const pickColor = { name: "pick_color", description: "Ask the person for a colour", parameters: { type: "object", properties: { options: { type: "array", items: { type: "string" } } }, required: ["options"] } };
  const asks = () => ev.run(ev.toolCall("call-1", "pick_color", { options: ["red", "blue"] }, "a1"));

  it("is the person's to answer: its step waits, a card asks, and no next run carries the call without its result", async () => {
    const { adapter, inputs } = adapterWith([asks], { tools: [pickColor] });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Pick one"), sendOptions(), carbon);
    expect(carbon.transcript()).toContain("pick_color (success)");
    expect(carbon.transcript()).toContain("[decision card:");
    expect(adapter.pendingInterrupts.map((entry) => entry.interrupt.toolCallId)).toEqual(["call-1"]);

    await adapter.sendMessage(request("Never mind"), sendOptions(), carbon);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]!.resume).toBeUndefined();
    expect(danglingCalls(inputs[1]!.messages)).toEqual([]);
  });

  it("answered through respondToToolCall, continues the run with the answer as the call's result", async () => {
    const { adapter, inputs, errors } = adapterWith([asks, () => ev.run(ev.message("a2", "Blue it is."))], { tools: [pickColor] });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Pick one"), sendOptions(), carbon);
    await adapter.respondToToolCall("call-1", { color: "blue" }, carbon);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]!.resume).toBeUndefined();
    expect(inputs[1]!.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "call-1", content: JSON.stringify({ color: "blue" }) });
    expect(danglingCalls(inputs[1]!.messages)).toEqual([]);
    expect(carbon.transcript()).toContain("Blue it is.");
    expect(adapter.pendingInterrupts).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("answered through its card (respondToInterrupt), continues with the decision as the result", async () => {
    const { adapter, inputs } = adapterWith([asks, () => ev.run(ev.message("a2", "Red, then."))], { tools: [pickColor] });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Pick one"), sendOptions(), carbon);
    await adapter.respondToInterrupt({ type: "edit", args: { options: ["red"] } }, carbon);
    expect(inputs[1]!.resume).toBeUndefined();
    expect(inputs[1]!.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "call-1", content: JSON.stringify({ approved: true, args: { options: ["red"] } }) });
    expect(carbon.transcript()).toContain("Red, then.");
  });

  it("closes a pending call nobody can answer with a failure result, and its step shows it", async () => {
    const { adapter, inputs } = adapterWith([() => ev.run(ev.toolCall("call-9", "unknown_tool", {}, "a1"), ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["call-9"] } }))], { tools: [pickColor] });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Do it"), sendOptions(), carbon);
    expect(carbon.transcript()).toContain("unknown_tool (failure)");
    await adapter.sendMessage(request("And?"), sendOptions(), carbon);
    expect(danglingCalls(inputs[1]!.messages)).toEqual([]);
  });
});
