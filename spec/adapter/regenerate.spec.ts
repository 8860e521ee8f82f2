/**
 * Asking the latest question again (`regenerate`), its versions, and feedback on answers: the history sent after
 * regenerate ends with the question (the replaced answer's text, calls and results left out), `parentRunId` names the
 * run before the question, the chat shows the new answer in the old one's place, versions switch in the chat and the
 * history, survive a reload and go with the next question; the refusals; Carbon's thumbs, `onFeedback`, and the
 * feedback kept in the transcript.
 */
import type { BaseEvent, Interrupt, RunAgentInput } from "@ag-ui/core";
import { firstValueFrom, NEVER, Subject } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../../src/adapter";
import type { AnswerFeedback } from "../../src/adapter/options";
import { AgUiRegenerateError } from "../../src/errors";
import { memoryStore } from "../../src/persistence/memoryStore";
import type { ConversationStore } from "../../src/persistence/store";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";

const sendOptions = () => ({ signal: new AbortController().signal, silent: false });
const request = (text: string) => ({ id: `u-${text}`, input: { text }, history: {} });
/** A run of the scripted agent, under the run id the adapter gave it. */
const answering =
  (...body: (BaseEvent | BaseEvent[])[]) =>
  (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId, input.threadId), ...body.flat(), ev.runFinished({ runId: input.runId, threadId: input.threadId })];
const withWeather = answering(ev.toolCall("c1", "weather", { city: "Oslo" }), ev.toolResult("c1", "9 °C"), ev.message("a1", "Mild, 9 °C."));
const approval: Interrupt = { id: "int-1", reason: "tool_approval", message: "Send it?" };

function setUp(runs: ((input: RunAgentInput) => BaseEvent[])[], extra: Partial<CarbonAgUiAdapterOptions> = {}, store: ConversationStore = memoryStore()) {
  const inputs: RunAgentInput[] = [];
  const feedback: AnswerFeedback[] = [];
  const adapter = new CarbonAgUiAdapter({
    threadId: "thread-1",
    coalesce: false,
    run: (input) => {
      inputs.push(input);
      return runs[inputs.length - 1]?.(input) ?? answering()(input);
    },
    persistence: { store, channel: false },
    answerVersions: true,
    feedback: true,
    onFeedback: (given) => feedback.push(given),
    ...extra,
  });
  const carbon = new CarbonRecorder();
  const say = async (text: string) => {
    carbon.userSays(text);
    await adapter.sendMessage(request(text), sendOptions(), carbon);
  };
  return { adapter, inputs, feedback, carbon, say, store };
}
const versionsOf = (adapter: CarbonAgUiAdapter) => firstValueFrom(adapter.answerVersions$);

describe("regenerate", () => {
  it("asks the latest question again on a history that ends with it, and shows the new answer in the old one's place", async () => {
    const { adapter, inputs, carbon, say } = setUp([withWeather, answering(ev.message("a2", "Cold, 2 °C."))]);
    await say("Weather?");
    await adapter.regenerate(carbon);
    expect(inputs[1]!.messages.map((message) => message.id)).toEqual(["u-Weather?"]);
    expect(inputs[1]!.threadId).toBe(inputs[0]!.threadId);
    expect(inputs[1]!.parentRunId).toBeUndefined();
    expect(carbon.transcript()).toBe("You: Weather?\nAssistant: Cold, 2 °C.");
    expect(adapter.messages.map((message) => message.id)).toEqual(["u-Weather?", "a2"]);
    expect(await versionsOf(adapter)).toMatchObject({ requestId: "u-Weather?", index: 1, count: 2, canRegenerate: true });
  });

  it("names the run before the question as the new run's parentRunId", async () => {
    const { adapter, inputs, carbon, say } = setUp([withWeather, answering(ev.message("a2", "Sunny tomorrow.")), answering(ev.message("a3", "Rain tomorrow."))]);
    await say("Weather?");
    await say("And tomorrow?");
    await adapter.regenerate(carbon);
    expect(inputs[2]!.parentRunId).toBe(inputs[0]!.runId);
    expect(inputs[2]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(inputs[2]!.messages.at(-1)!.id).toBe("u-And tomorrow?");
  });

  it("switches versions in the chat and in the history the next run is sent", async () => {
    const { adapter, inputs, carbon, say } = setUp([withWeather, answering(ev.message("a2", "Cold, 2 °C.")), answering(ev.message("a3", "You're welcome."))]);
    await say("Weather?");
    await adapter.regenerate(carbon);
    await adapter.switchVersion(0, carbon);
    expect(carbon.transcript()).toBe("You: Weather?\nAssistant: Mild, 9 °C.\n  How did I get this answer? weather (success)");
    expect(await versionsOf(adapter)).toMatchObject({ index: 0, count: 2 });
    await say("Thanks");
    expect(inputs[2]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(inputs[2]!.messages.some((message) => message.id === "a2")).toBe(false);
    // A new question: the versions were the last answer's.
    expect(await versionsOf(adapter)).toMatchObject({ requestId: "u-Thanks", index: 0, count: 1 });
  });

  it("keeps the versions over a reload, and switches there too", async () => {
    const first = setUp([withWeather, answering(ev.message("a2", "Cold, 2 °C."))]);
    await first.say("Weather?");
    await first.adapter.regenerate(first.carbon);
    await first.adapter.saveNow();
    first.adapter.dispose();

    const again = setUp([], {}, first.store);
    const history = await again.adapter.loadHistory(again.carbon);
    const shown = history.flatMap((item) => ("output" in item.message ? item.message.output.generic : []));
    expect(shown.filter((item) => item.response_type === "text").map((item) => item.text)).toEqual(["Cold, 2 °C."]);
    expect(await versionsOf(again.adapter)).toMatchObject({ index: 1, count: 2 });
    await again.adapter.switchVersion(0, again.carbon);
    expect(again.adapter.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(again.adapter.messages.at(-1)!.id).toBe("a1");
  });

  it("puts the old answer back when the new one is stopped before it shows anything", async () => {
    const { adapter, inputs, carbon, say } = setUp([withWeather, () => NEVER as never]);
    await say("Weather?");
    const before = adapter.messages;
    const asked = adapter.regenerate(carbon);
    await waitUntil(() => inputs.length === 2);
    await carbon.pressStop();
    await asked.catch(() => undefined);
    expect(adapter.messages).toEqual(before);
    expect(carbon.transcript()).toBe("You: Weather?\nAssistant: Mild, 9 °C.\n  How did I get this answer? weather (success)");
    expect(await versionsOf(adapter)).toMatchObject({ index: 0, count: 1 });
  });

  it("refuses, sending nothing: no answer yet, a card waiting, no such version", async () => {
    const { adapter, inputs, carbon, say } = setUp([() => ev.run(ev.toolCall("c9", "send", { to: "team" }), ev.interrupt(approval))]);
    await expect(adapter.regenerate(carbon)).rejects.toThrow(AgUiRegenerateError);
    await say("Send the forecast");
    expect(await versionsOf(adapter)).toMatchObject({ canRegenerate: false });
    await expect(adapter.regenerate(carbon)).rejects.toThrow("A card waits for an answer");
    await expect(adapter.switchVersion(3, carbon)).rejects.toThrow("There is no version 4");
    expect(inputs).toHaveLength(1);
  });

  it("refuses the same way whether asked while a turn plays or while nothing does: a rejection, and nothing for onError", async () => {
    const errors: unknown[] = [];
    const asks = new Subject<BaseEvent>();
    const { adapter, carbon, say } = setUp([withWeather, () => asks as never], { onError: (error) => errors.push(error) });
    await say("Weather?");
    const playing = adapter.sendMessage(request("Send it"), sendOptions(), carbon);
    // Asked while the turn plays: it waits for it, and the card the turn ends on refuses it.
    const asked = adapter.regenerate(carbon);
    for (const event of ev.run(ev.toolCall("c9", "send", { to: "team" }), ev.interrupt(approval))) asks.next(event);
    asks.complete();
    await playing;
    await expect(asked).rejects.toThrow("A card waits for an answer");
    await expect(adapter.regenerate(carbon)).rejects.toThrow("A card waits for an answer");
    expect(errors).toEqual([]);
  });

  it("keeps the versions in memory, with no persistence and no threads: regenerate and switch work all the same", async () => {
    const inputs: RunAgentInput[] = [];
    const runs = [withWeather, answering(ev.message("a2", "Cold, 2 °C."))];
    const adapter = new CarbonAgUiAdapter({ coalesce: false, answerVersions: true, run: (input) => (inputs.push(input), runs[inputs.length - 1]!(input)) });
    const carbon = new CarbonRecorder();
    carbon.userSays("Weather?");
    await adapter.sendMessage(request("Weather?"), sendOptions(), carbon);
    await adapter.regenerate(carbon);
    expect(await versionsOf(adapter)).toMatchObject({ index: 1, count: 2 });
    expect(carbon.transcript()).toBe("You: Weather?\nAssistant: Cold, 2 °C.");
    await adapter.switchVersion(0, carbon);
    expect(carbon.transcript()).toBe("You: Weather?\nAssistant: Mild, 9 °C.\n  How did I get this answer? weather (success)");
    expect(adapter.messages.map((message) => message.id)).toEqual(["u-Weather?", "c1", "result-c1", "a1"]);
    expect(await versionsOf(adapter)).toMatchObject({ index: 0, count: 2 });
  });
});

describe("feedback", () => {
  it("puts Carbon's thumbs on each answer's last text, tells onFeedback whose answer it was, and keeps it for a reload", async () => {
    const first = setUp([withWeather]);
    await first.say("Weather?");
    const final = first.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : []))[0]!;
    const text = final.output.generic.find((item) => item.response_type === "text")!;
    expect(text.message_item_options).toEqual({ feedback: { is_on: true, id: final.id } });
    expect(final.output.generic.at(-1)).toMatchObject({ response_type: "user_defined", user_defined: { kind: "versions", responseId: final.id } });

    // Carbon's feedback event carries its fields at the top level.
    const event = { type: "feedback", interactionType: "submitted", message: final, messageItem: text, isPositive: false, text: "Too warm", categories: ["Inaccurate"] };
    for (const { type, handler } of first.carbon.listeners) if (type === "feedback") await handler(event, first.carbon);
    expect(first.feedback).toEqual([{ threadId: "thread-1", responseId: final.id, runId: first.inputs[0]!.runId, messageId: "a1", isPositive: false, text: "Too warm", categories: ["Inaccurate"] }]);
    await first.adapter.saveNow();
    first.adapter.dispose();

    const again = setUp([], {}, first.store);
    const history = await again.adapter.loadHistory(again.carbon);
    const restored = history.find((item) => "output" in item.message)!.message as { history: { feedback?: unknown } };
    expect(restored.history.feedback).toEqual({ [final.id]: { is_positive: false, text: "Too warm", categories: ["Inaccurate"] } });
  });
});
