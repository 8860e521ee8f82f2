/**
 * Editing a question as a branch of the thread's log (`editQuestion`, `startEdit`, `switchQuestion`): the history sent
 * after an edit keeps what came before the question and ends with the edited one; the chat drops the question and what
 * followed and shows the new answer; the branch left is kept, switched back to and built on; a reload keeps both; the
 * refusals, typed, sending nothing.
 */
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { firstValueFrom, Subject } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../../src/adapter";
import { AgUiEditError } from "../../src/errors";
import { memoryStore } from "../../src/persistence/memoryStore";
import type { ConversationStore } from "../../src/persistence/store";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";

/** A run of the scripted agent that answers `text`, under the run id the adapter gave it. */
const answering =
  (id: string, text: string) =>
  (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId, input.threadId), ...ev.message(id, text), ev.runFinished({ runId: input.runId, threadId: input.threadId })];

function setUp(runs: ((input: RunAgentInput) => BaseEvent[] | Subject<BaseEvent>)[], extra: Partial<CarbonAgUiAdapterOptions> = {}, store: ConversationStore = memoryStore()) {
  const inputs: RunAgentInput[] = [];
  const adapter = new CarbonAgUiAdapter({
    threadId: "thread-1",
    coalesce: false,
    run: (input) => {
      inputs.push(input);
      const next = runs[inputs.length - 1];
      if (!next) throw new Error(`no run scripted for run ${inputs.length}`);
      return next(input) as never;
    },
    persistence: { store, channel: false },
    editQuestions: true,
    ...extra,
  });
  const carbon = new CarbonRecorder(adapter.sendMessage);
  const say = (text: string) => carbon.send({ id: `u-${text}`, input: { text } });
  /** The ids and roles of the history the latest run was sent. */
  const sent = () => inputs.at(-1)!.messages.map((message) => `${message.role}: ${String(message.content)}`);
  return { adapter, inputs, carbon, say, sent, store };
}
const questionsOf = (adapter: CarbonAgUiAdapter) => firstValueFrom(adapter.questionVersions$);

describe("editing a question", () => {
  it("edits the latest question: the history keeps what came before and ends with the edited one; its answer shows where the old one was", async () => {
    const { adapter, inputs, carbon, say, sent } = setUp([answering("a1", "Hello."), answering("a2", "Mild, 9 °C."), answering("a3", "Sleet, 4 °C.")]);
    await say("Hi");
    await say("Weather in Bergen?");
    await adapter.editQuestion("u-Weather in Bergen?", "Weather in Oslo?", carbon);
    expect(sent()).toEqual(["user: Hi", "assistant: Hello.", "user: Weather in Oslo?"]);
    expect(inputs[2]!.parentRunId).toBe(inputs[0]!.runId);
    expect(inputs[2]!.messages.at(-1)!.id).not.toBe("u-Weather in Bergen?");
    expect(carbon.transcript()).toBe("You: Hi\nAssistant: Hello.\nYou: Weather in Oslo?\nAssistant: Sleet, 4 °C.");
    expect(adapter.messages.map((message) => message.content)).toEqual(["Hi", "Hello.", "Weather in Oslo?", "Sleet, 4 °C."]);
    const [first, edited] = await questionsOf(adapter);
    expect(first).toMatchObject({ requestId: "u-Hi", index: 0, count: 1, canEdit: true });
    expect(edited).toMatchObject({ text: "Weather in Oslo?", index: 1, count: 2, canEdit: true, editing: false });
  });

  it("edits an earlier question: it and everything after it leave the chat and the history; the branch left is kept", async () => {
    const { adapter, carbon, say, sent } = setUp([answering("a1", "Hello."), answering("a2", "Mild."), answering("a3", "Yes, take one."), answering("a4", "Bonjour.")]);
    await say("Hi");
    await say("Weather?");
    await say("An umbrella?");
    await adapter.editQuestion("u-Hi", "Say hi in French", carbon);
    expect(sent()).toEqual(["user: Say hi in French"]);
    expect(carbon.transcript()).toBe("You: Say hi in French\nAssistant: Bonjour.");
    expect(await questionsOf(adapter)).toMatchObject([{ text: "Say hi in French", index: 1, count: 2 }]);
  });

  it("switches back to the branch left, with all that followed the question there, and builds the next run on it", async () => {
    const { adapter, carbon, say, sent } = setUp([answering("a1", "Hello."), answering("a2", "Mild."), answering("a3", "Bonjour."), answering("a4", "Take an umbrella.")]);
    await say("Hi");
    await say("Weather?");
    await adapter.editQuestion("u-Hi", "Say hi in French", carbon);
    const [edited] = await questionsOf(adapter);
    await adapter.switchQuestion(0, edited!.requestId, carbon);
    expect(carbon.transcript()).toBe("You: Hi\nAssistant: Hello.\nYou: Weather?\nAssistant: Mild.");
    expect(await questionsOf(adapter)).toMatchObject([{ requestId: "u-Hi", index: 0, count: 2 }, { requestId: "u-Weather?", index: 0, count: 1 }]);
    await say("An umbrella?");
    expect(sent()).toEqual(["user: Hi", "assistant: Hello.", "user: Weather?", "assistant: Mild.", "user: An umbrella?"]);
    // And forth again: the edited branch, as it was.
    await adapter.switchQuestion(1, "u-Hi", carbon);
    expect(carbon.transcript()).toBe("You: Say hi in French\nAssistant: Bonjour.");
    expect(adapter.messages.map((message) => message.content)).toEqual(["Say hi in French", "Bonjour."]);
  });

  it("begins an edit from Carbon's input: the question's text put there, the next message sent takes its place; a cancelled edit sends a message like any other", async () => {
    const { adapter, carbon, say, sent } = setUp([answering("a1", "Hello."), answering("a2", "Bonjour."), answering("a3", "Hallo.")]);
    await say("Hi");
    adapter.startEdit("u-Hi", carbon);
    expect(carbon.inputValue).toBe("Hi");
    expect(await questionsOf(adapter)).toMatchObject([{ requestId: "u-Hi", editing: true }]);
    await say("Hi, in French");
    expect(sent()).toEqual(["user: Hi, in French"]);
    expect(carbon.transcript()).toBe("You: Hi, in French\nAssistant: Bonjour.");
    adapter.startEdit("u-Hi, in French", carbon);
    adapter.cancelEdit();
    expect(await questionsOf(adapter)).toMatchObject([{ editing: false }]);
    await say("And in German?");
    expect(sent()).toEqual(["user: Hi, in French", "assistant: Bonjour.", "user: And in German?"]);
  });

  it("keeps both branches over a reload: the chosen one shown, the other switched to there", async () => {
    const first = setUp([answering("a1", "Hello."), answering("a2", "Bonjour.")]);
    await first.say("Hi");
    await first.adapter.editQuestion("u-Hi", "Hi in French", first.carbon);
    await first.adapter.saveNow();
    first.adapter.dispose();

    const again = setUp([answering("a3", "Salut.")], {}, first.store);
    const history = await again.adapter.loadHistory(again.carbon);
    await again.carbon.messaging.insertHistory(history);
    expect(again.carbon.transcript()).toBe("You: Hi in French\nAssistant: Bonjour.");
    const [edited] = await questionsOf(again.adapter);
    expect(edited).toMatchObject({ index: 1, count: 2 });
    await again.adapter.switchQuestion(0, edited!.requestId, again.carbon);
    expect(again.carbon.transcript()).toBe("You: Hi\nAssistant: Hello.");
    await again.say("Again?");
    expect(again.sent()).toEqual(["user: Hi", "assistant: Hello.", "user: Again?"]);
  });

  it("refuses, typed, sending nothing: a question the branch does not hold, a card waiting, a turn playing", async () => {
    const asks = new Subject<BaseEvent>();
    const errors: unknown[] = [];
    const { adapter, inputs, carbon, say } = setUp([answering("a1", "Hello."), () => asks, (input) => ev.run(ev.interrupt({ id: "i1", reason: "approval", message: "Send it?" })).map((event) => ({ ...event, ...(event.type === "RUN_STARTED" && { runId: input.runId }) }))], { onError: (error) => errors.push(error) });
    await expect(adapter.editQuestion("u-nothing", "?", carbon)).rejects.toThrow(AgUiEditError);
    await say("Hi");
    const playing = say("Weather?");
    await waitUntil(() => inputs.length === 2);
    expect(() => adapter.startEdit("u-Hi", carbon)).toThrow("A turn plays");
    expect(await questionsOf(adapter)).toMatchObject([{ canEdit: false }, { canEdit: false }]);
    for (const event of ev.run(ev.message("a2", "Mild."))) asks.next(event);
    asks.complete();
    await playing;
    await say("Send the forecast");
    await expect(adapter.editQuestion("u-Hi", "Hello", carbon)).rejects.toThrow("A card waits for an answer");
    await expect(adapter.switchQuestion(5, "u-Hi", carbon)).rejects.toThrow(AgUiEditError);
    expect(carbon.inputValue).toBe("");
    expect(inputs).toHaveLength(3);
    expect(errors).toEqual([]);
  });

  it("refuses a switch to a version that is not there", async () => {
    const { adapter, carbon, say } = setUp([answering("a1", "Hello.")]);
    await say("Hi");
    await expect(adapter.switchQuestion(1, "u-Hi", carbon)).rejects.toThrow("There is no version 2 of question 'u-Hi'");
  });

  it("puts the question control first in each answer's final response, for the renderer to draw under the question", async () => {
    const { carbon, say } = setUp([answering("a1", "Hello.")]);
    await say("Hi");
    const final = carbon.chunks.find((chunk) => "final_response" in chunk) as { final_response: { id: string; output: { generic: { user_defined?: unknown }[] } } };
    expect(final.final_response.output.generic[0]!.user_defined).toEqual({ kind: "question", responseId: final.final_response.id });
  });
});
