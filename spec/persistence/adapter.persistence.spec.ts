import { EventType, type BaseEvent, type Interrupt, type RunAgentInput } from "@ag-ui/core";
import { Observable } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../../src/adapter";
import type { CarbonItem } from "../../src/carbon";
import { AgUiSnapshotError, AgUiStoreError, type CarbonAgUiError } from "../../src/errors";
import { memoryStore } from "../../src/persistence/memoryStore";
import type { CarbonHistoryItem, CarbonHistoryResponse } from "../../src/persistence/restore";
import type { ConversationSnapshot } from "../../src/persistence/snapshot";
import type { ConversationStore } from "../../src/persistence/store";
import { waitUntil } from "../support/runs";
import { ev } from "../support/builders";

const request = (text: string, id = `u-${text}`) => ({ id, input: { text }, history: {} });
const sendOptions = () => ({ signal: new AbortController().signal, silent: false });
const approval: Interrupt = { id: "int-1", reason: "tool_approval", message: "Send it?", toolCallId: "call-1" };

/** A Carbon instance with the history calls a thread switch makes. */
function threadRecorder() {
  const carbon = new CarbonRecorder();
  const calls = { inserted: [] as CarbonHistoryItem[][], cleared: 0 };
  const messaging = Object.assign(carbon.messaging, {
    clearConversation: async () => void calls.cleared++,
    insertHistory: async (items: CarbonHistoryItem[]) => void calls.inserted.push(items),
  });
  return Object.assign(carbon, { messaging, calls });
}

interface Setup {
  store?: ConversationStore;
  /** What each run sends, by the run's position. */
  runs: ((input: RunAgentInput) => BaseEvent[])[];
  extra?: Partial<CarbonAgUiAdapterOptions>;
}

function adapterWith({ store = memoryStore(), runs, extra = {} }: Setup) {
  const inputs: RunAgentInput[] = [];
  const errors: CarbonAgUiError[] = [];
  const adapter = new CarbonAgUiAdapter({
    threadId: "thread-1",
    coalesce: false,
    run: (input) => {
      inputs.push(input);
      return runs[inputs.length - 1]?.(input) ?? [ev.runStarted(), ev.runFinished()];
    },
    persistence: { store, channel: false },
    onError: (error) => errors.push(error),
    ...extra,
  });
  return { adapter, store, inputs, errors };
}

const answer = (text: string) => () => ev.run(ev.reasoningMessageStart("r1"), ev.reasoning("r1", "Think <b>first</b>."), ev.reasoningMessageEnd("r1"), ev.toolCall("call-1", "weather", { city: "Oslo" }), ev.toolResult("call-1", "9 °C"), ev.message("a1", text));
const card = () => ev.run(ev.toolCall("call-1", "send", { to: "team" }), ev.interrupt(approval));
const responses = (history: CarbonHistoryItem[]) => history.filter((item) => "output" in item.message).map((item) => item.message as CarbonHistoryResponse);

describe("the adapter with a store", () => {
  it("saves the turn when it ends, and a new adapter on the same thread shows it as it was and sends the same next run", async () => {
    const first = adapterWith({ runs: [answer("Mild, <i>9</i> °C.")] });
    await first.adapter.sendMessage(request("Weather?"), sendOptions(), new CarbonRecorder());

    const second = adapterWith({ store: first.store, runs: [] });
    const history = await second.adapter.loadHistory(new CarbonRecorder());
    expect(history[0]!.message).toEqual({ id: "u-Weather?", input: { text: "Weather?", message_type: "text" }, history: { timestamp: expect.any(Number) } });
    const [shown] = responses(history);
    expect(shown!.output.generic.map((item: CarbonItem) => item.text)).toEqual(["Mild, &lt;i>9&lt;/i> °C."]);
    expect(shown!.message_options?.chain_of_thought?.map((step) => [step.tool_name, step.status])).toEqual([["weather", expect.any(String)]]);
    expect(shown!.message_options?.reasoning?.steps?.[0]?.content).toBe("Think &lt;b>first&lt;/b>.");
    expect(second.adapter.messages).toEqual(first.adapter.messages);

    await first.adapter.sendMessage(request("And tomorrow?"), sendOptions(), new CarbonRecorder());
    await second.adapter.sendMessage(request("And tomorrow?"), sendOptions(), new CarbonRecorder());
    const { runId: _a, ...firstNext } = first.inputs[1]!;
    const { runId: _b, ...secondNext } = second.inputs[0]!;
    expect(secondNext).toEqual(firstNext);
    expect(first.errors).toEqual([]);
  });

  it("saves at the changes of the thread's log, never per delta: the message and its run begun, the run ended", async () => {
    const store = memoryStore();
    const saves: ConversationSnapshot[] = [];
    const counting: ConversationStore = { ...store, save: async (snapshot) => void saves.push(snapshot) };
    const deltas = Array.from({ length: 200 }, (_, index) => `w${index} `);
    const { adapter } = adapterWith({ store: counting, runs: [() => ev.run(ev.message("a1", ...deltas))] });
    await adapter.sendMessage(request("Long"), sendOptions(), new CarbonRecorder());
    await adapter.saveNow();
    expect(saves.length).toBeLessThanOrEqual(3);
    const run = saves.at(-1)!.entries.find((entry) => entry.kind === "run");
    // Its 200 deltas are one event in the log: memory follows the text.
    expect(run?.kind === "run" && run.events.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)).toEqual([expect.objectContaining({ delta: deltas.join("") })]);
  });

  it("keeps a card answerable after a reload: the resume carries its interrupt on the same thread", async () => {
    const first = adapterWith({ runs: [card] });
    await first.adapter.sendMessage(request("Send the forecast"), sendOptions(), new CarbonRecorder());
    expect(first.adapter.pendingInterrupts).toHaveLength(1);

    const second = adapterWith({ store: first.store, runs: [() => ev.run(ev.message("a2", "Sent."))] });
    const carbon = new CarbonRecorder();
    const history = await second.adapter.loadHistory(carbon);
    expect(responses(history).at(-1)!.output.generic.at(-1)).toMatchObject({ response_type: "user_defined", user_defined: { kind: "interrupt", interruptId: "int-1" } });
    expect(second.adapter.interruptAnswer("int-1")).toBeUndefined();
    await second.adapter.respondToInterrupt({ type: "approve" }, carbon);
    expect(second.inputs[0]).toMatchObject({ threadId: "thread-1", resume: [{ interruptId: "int-1", status: "resolved", payload: { approved: true } }] });

    // Answered, then reloaded again: the card can say how it was answered.
    expect(second.adapter.interruptAnswer("int-1")).toBe("approve");
    const third = adapterWith({ store: first.store, runs: [] });
    await third.adapter.loadHistory();
    expect(third.adapter.pendingInterrupts).toEqual([]);
    expect(third.adapter.interruptAnswer("int-1")).toBe("approve");
  });

  it("keeps the answer of a resume that failed after its first event (the agent took the decision), and not of one that failed before", async () => {
    const first = adapterWith({ runs: [card, () => [ev.runStarted(), ev.runError("the tool crashed")]] });
    const carbon = new CarbonRecorder();
    await first.adapter.sendMessage(request("Send the forecast"), sendOptions(), carbon);
    await expect(first.adapter.respondToInterrupt({ type: "approve" }, carbon)).rejects.toThrow("the tool crashed");
    expect(first.adapter.interruptAnswer("int-1")).toBe("approve");
    const reloaded = adapterWith({ store: first.store, runs: [] });
    await reloaded.adapter.loadHistory();
    expect(reloaded.adapter.interruptAnswer("int-1")).toBe("approve");

    const refused = (): BaseEvent[] => {
      throw new Error("connection refused");
    };
    const failing = adapterWith({ runs: [card, refused] });
    await failing.adapter.sendMessage(request("Send the forecast"), sendOptions(), carbon);
    await expect(failing.adapter.respondToInterrupt({ type: "approve" }, carbon)).rejects.toThrow();
    expect(failing.adapter.interruptAnswer("int-1")).toBeUndefined();
    expect(failing.adapter.pendingInterrupts.map((entry) => entry.decision?.type)).toEqual(["approve"]);
  });

  it("keeps a decision taken before the reload, and a message sent instead answers the interrupts as cancelled", async () => {
    const other: Interrupt = { id: "int-2", reason: "input", message: "Which team?" };
    const first = adapterWith({ runs: [() => ev.run(ev.toolCall("call-1", "send", { to: "team" }), ev.interrupt(approval, other))] });
    await first.adapter.sendMessage(request("Send"), sendOptions(), new CarbonRecorder());
    await first.adapter.respondToInterrupt({ type: "reject" }, undefined, {}, "int-1");
    const second = adapterWith({ store: first.store, runs: [] });
    await second.adapter.loadHistory();
    expect(second.adapter.pendingInterrupts).toEqual([{ interrupt: approval, decision: { type: "reject" } }, { interrupt: other }]);
    await second.adapter.sendMessage(request("Never mind"), sendOptions(), new CarbonRecorder());
    expect(second.inputs[0]!.resume).toEqual([
      { interruptId: "int-1", status: "cancelled" },
      { interruptId: "int-2", status: "cancelled" },
    ]);
    expect(second.adapter.interruptAnswer("int-2")).toBe("cancelled");
  });

  it("gives a card the fate 'cancelled' only once the agent took the cancellation: one the agent never took is pending again, with no fate (one answer per fact)", async () => {
    const empty = (): BaseEvent[] => [];
    const { adapter } = adapterWith({ runs: [card, empty, () => ev.run(ev.message("a2", "Something else, then."))] });
    await adapter.sendMessage(request("Send the forecast"), sendOptions(), new CarbonRecorder());
    // The run that cancels int-1 ends with no event: the agent never had it, and the card can be answered again.
    await adapter.sendMessage(request("Never mind"), sendOptions(), new CarbonRecorder());
    expect(adapter.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(["int-1"]);
    expect(adapter.interruptAnswer("int-1")).toBeUndefined();
  });

  it("keeps what streamed when the page goes away, stopped, its tool calls' steps closed and the calls as the agent left them", async () => {
    let emit: ((event: BaseEvent) => void) | undefined;
    const { adapter, store } = adapterWith({
      runs: [
        () =>
          new Observable<BaseEvent>((subscriber) => {
            emit = (event) => subscriber.next(event);
          }) as never,
      ],
    });
    const carbon = new CarbonRecorder();
    const sent = adapter.sendMessage(request("Weather?"), sendOptions(), carbon);
    await waitUntil(() => emit !== undefined);
    for (const event of [ev.runStarted(), ev.toolStart("call-1", "weather"), ev.textStart("a1"), ev.text("a1", "Partly")]) emit!(event);
    await adapter.saveNow();
    await sent;
    const restored = adapterWith({ store, runs: [] });
    const [shown] = responses(await restored.adapter.loadHistory());
    expect(shown!.output.generic).toEqual([expect.objectContaining({ text: "Partly", streaming_metadata: expect.objectContaining({ stream_stopped: true }) })]);
    expect(shown!.message_options?.chain_of_thought?.[0]?.status).toBe("failure");
    expect(restored.adapter.messages.filter((message) => message.role === "tool")).toEqual([]);
  });

  it("on pagehide, stops what streams and saves it synchronously where the store can; with nothing new, writes nothing", async () => {
    const page = new EventTarget();
    const saved: ConversationSnapshot[] = [];
    const store: ConversationStore = { ...memoryStore(), saveNow: (snapshot) => void saved.push(structuredClone(snapshot)) };
    Object.assign(globalThis, { addEventListener: page.addEventListener.bind(page) });
    let emit: ((event: BaseEvent) => void) | undefined;
    try {
      const { adapter } = adapterWith({ store, runs: [() => new Observable<BaseEvent>((subscriber) => void (emit = (event) => subscriber.next(event))) as never] });
      const sent = adapter.sendMessage(request("Weather?"), sendOptions(), new CarbonRecorder());
      await waitUntil(() => emit !== undefined);
      for (const event of [ev.runStarted(), ev.toolStart("call-1", "weather"), ev.textStart("a1"), ev.text("a1", "Partly")]) emit!(event);
      page.dispatchEvent(new Event("pagehide"));
      expect(saved).toHaveLength(1);
      // The run as far as it went, open: restored, it shows stopped (see "keeps what streamed when the page goes away").
      expect(saved[0]!.entries.at(-1)).toMatchObject({ kind: "run", ended: "open", events: [ev.runStarted(), ev.toolStart("call-1", "weather"), ev.textStart("a1"), ev.text("a1", "Partly")] });
      await sent;
      await adapter.listThreads();
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Nothing new since the last save: nothing written (another tab's save may be newer).
      page.dispatchEvent(new Event("pagehide"));
      expect(saved).toHaveLength(1);
    } finally {
      delete (globalThis as { addEventListener?: unknown }).addEventListener;
    }
  });

  it("lets go of the page once disposed: no pagehide listener left, its Carbon instances unfollowed, no more messages", async () => {
    const listening = new Set<unknown>();
    Object.assign(globalThis, {
      addEventListener: (type: string, listener: () => void) => void (type === "pagehide" && listening.add(listener)),
      removeEventListener: (type: string, listener: () => void) => void (type === "pagehide" && listening.delete(listener)),
    });
    try {
      const adapters = Array.from({ length: 3 }, () => adapterWith({ runs: [answer("One")] }).adapter);
      expect(listening.size).toBe(3);
      const carbon = new CarbonRecorder();
      await adapters[0]!.sendMessage(request("First"), sendOptions(), carbon);
      expect(carbon.listeners.length).toBeGreaterThan(0);
      for (const adapter of adapters) adapter.dispose();
      expect(listening.size).toBe(0);
      expect(carbon.listeners).toEqual([]);
      await expect(adapters[0]!.sendMessage(request("Second"), sendOptions(), carbon)).rejects.toThrow("disposed");
    } finally {
      delete (globalThis as { addEventListener?: unknown }).addEventListener;
      delete (globalThis as { removeEventListener?: unknown }).removeEventListener;
    }
  });

  it("reports a store that fails to save, and the chat goes on", async () => {
    const failing: ConversationStore = { ...memoryStore(), save: () => Promise.reject(new DOMException("The quota has been exceeded.", "QuotaExceededError")) };
    const { adapter, errors } = adapterWith({ store: failing, runs: [answer("One"), answer("Two")] });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("First"), sendOptions(), carbon);
    await adapter.sendMessage(request("Second"), sendOptions(), carbon);
    await adapter.saveNow();
    expect(errors[0]).toBeInstanceOf(AgUiStoreError);
    expect(errors[0]!.message).toBe("The conversation store failed to save thread 'thread-1': QuotaExceededError: The quota has been exceeded.");
    expect(carbon.chunks.filter((chunk) => "final_response" in chunk)).toHaveLength(2);
  });

  it("refuses a snapshot that does not fit: reported, a new thread, and the chat says so", async () => {
    const store: ConversationStore = { ...memoryStore(), load: async () => ({ version: 0, threadId: "thread-1" }) };
    const { adapter, errors } = adapterWith({ store, runs: [] });
    const history = await adapter.loadHistory();
    expect(errors).toEqual([expect.any(AgUiSnapshotError)]);
    expect(adapter.threadId).not.toBe("thread-1");
    expect(responses(history)[0]!.output.generic).toEqual([expect.objectContaining({ response_type: "inline_error", text: "The saved conversation could not be restored, so a new one has started." })]);
  });

  it("shows nothing, and keeps the thread, when nothing is stored", async () => {
    const { adapter, errors } = adapterWith({ runs: [] });
    expect(await adapter.loadHistory()).toEqual([]);
    expect(adapter.threadId).toBe("thread-1");
    expect(errors).toEqual([]);
  });

  it("keeps feedback submitted on an answer", async () => {
    const withFeedback = () => ev.run(ev.custom("carbon.item", { response_type: "text", text: "Rate me", message_item_options: { feedback: { is_on: true, id: "fb-1" } }, streaming_metadata: { id: "rated" } }));
    const first = adapterWith({ runs: [withFeedback] });
    const carbon = new CarbonRecorder();
    await first.adapter.sendMessage(request("Rate"), sendOptions(), carbon);
    const final = carbon.chunks.find((chunk) => "final_response" in chunk) as { final_response: { id: string; output: { generic: CarbonItem[] } } };
    for (const { type, handler } of carbon.listeners) {
      if (type === "feedback") await handler({ type, interactionType: "submitted", message: final.final_response, messageItem: final.final_response.output.generic[0], isPositive: false, text: "Too vague" } as never, carbon);
    }
    await first.adapter.saveNow();
    const [shown] = responses(await adapterWith({ store: first.store, runs: [] }).adapter.loadHistory());
    expect(shown!.history.feedback).toEqual({ "fb-1": { is_positive: false, text: "Too vague" } });
  });
});

describe("the adapter in several tabs", () => {
  it("tells a tab showing a thread that another tab saved it (the last save wins), and leaves tabs on other threads alone", async () => {
    const store = memoryStore();
    const warnings: { tab: string; warning: CarbonAgUiError }[] = [];
    const tab = (name: string, threadId: string) =>
      adapterWith({ store, runs: [answer("Hi")], extra: { threadId, persistence: { store, channel: "spec-tabs" }, onWarning: (warning) => warnings.push({ tab: name, warning }) } });
    const writer = tab("writer", "thread-1");
    tab("reader", "thread-1");
    tab("elsewhere", "thread-2");
    await writer.adapter.sendMessage(request("Hello"), sendOptions(), new CarbonRecorder());
    await writer.adapter.saveNow();
    await waitUntil(() => warnings.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // One notice per save of the writer's, to the reader alone.
    expect(new Set(warnings.map(({ tab: name, warning }) => JSON.stringify([name, warning.name, warning.message])))).toEqual(
      new Set([JSON.stringify(["reader", "AgUiThreadSavedElsewhereError", "Thread 'thread-1' was saved in another tab; the next save here replaces it (reload to see that tab's conversation)"])]),
    );
  });
});

describe("the adapter's threads", () => {
  it("starts, lists, switches to and deletes threads, replacing Carbon's chat", async () => {
    const { adapter, store } = adapterWith({ runs: [answer("First thread"), answer("Second thread")] });
    const carbon = threadRecorder();
    const seen: string[] = [];
    adapter.threadId$.subscribe((threadId) => seen.push(threadId));
    await adapter.sendMessage(request("One"), sendOptions(), carbon);
    await adapter.newThread(carbon);
    const second = adapter.threadId;
    await adapter.sendMessage(request("Two"), sendOptions(), carbon);
    expect(carbon.calls.cleared).toBe(1);
    expect((await adapter.listThreads()).map((thread) => [thread.threadId, thread.title])).toEqual(
      expect.arrayContaining([
        ["thread-1", "One"],
        [second, "Two"],
      ]),
    );

    await adapter.switchThread("thread-1", carbon);
    expect(adapter.threadId).toBe("thread-1");
    expect(carbon.calls.cleared).toBe(2);
    expect(responses(carbon.calls.inserted[0]!)[0]!.output.generic[0]!.text).toBe("First thread");
    expect(adapter.messages.find((message) => message.role === "user")?.content).toBe("One");

    await adapter.deleteThread("thread-1", carbon);
    expect(adapter.threadId).not.toBe("thread-1");
    expect(await store.load("thread-1")).toBeUndefined();
    expect(seen).toEqual(["thread-1", second, "thread-1", adapter.threadId]);
  });

  it("starts a new thread when the host clears Carbon's chat itself (clearConversation fires no restart event), and not twice for its own clears", async () => {
    const { adapter } = adapterWith({ runs: [answer("First thread"), answer("Second thread")] });
    const carbon = threadRecorder();
    const seen: string[] = [];
    adapter.threadId$.subscribe((threadId) => seen.push(threadId));
    await adapter.sendMessage(request("One"), sendOptions(), carbon);
    await carbon.messaging.clearConversation();
    expect(seen).toHaveLength(2);
    expect(adapter.messages).toEqual([]);
    await adapter.sendMessage(request("Two"), sendOptions(), carbon);
    expect(adapter.messages.filter((message) => message.role === "user").map((message) => message.content)).toEqual(["Two"]);
    await adapter.newThread(carbon);
    expect(seen).toHaveLength(3);
    expect(carbon.calls.cleared).toBe(2);
  });

  it("shows the latest turns of a restored thread, and puts earlier ones before them on demand", async () => {
    const runs = Array.from({ length: 5 }, (_, index) => answer(`Answer ${index + 1}`));
    const store = memoryStore();
    const first = adapterWith({ store, runs, extra: { persistence: { store, shownTurns: 2 } } });
    for (let turn = 1; turn <= 5; turn++) await first.adapter.sendMessage(request(`Question ${turn}`), sendOptions(), new CarbonRecorder());
    const second = adapterWith({ store, runs: [], extra: { persistence: { store, shownTurns: 2 } } });
    const texts = (history: CarbonHistoryItem[]) => history.map((item) => ("input" in item.message ? item.message.input.text : item.message.output.generic[0]!.text));
    expect(texts(await second.adapter.loadHistory())).toEqual(["Question 4", "Answer 4", "Question 5", "Answer 5"]);
    expect(second.adapter.earlierTurns).toBe(3);
    expect(second.adapter.messages.filter((message) => message.role === "user")).toHaveLength(5);
    const carbon = threadRecorder();
    await second.adapter.showEarlierHistory(carbon);
    await second.adapter.showEarlierHistory(carbon);
    expect(carbon.calls.inserted.map(texts)).toEqual([
      ["Question 2", "Answer 2", "Question 3", "Answer 3"],
      ["Question 1", "Answer 1"],
    ]);
    expect(second.adapter.earlierTurns).toBe(0);
  });

  it("starts a thread the store does not hold empty, under that id", async () => {
    const { adapter } = adapterWith({ runs: [] });
    const carbon = threadRecorder();
    await adapter.switchThread("elsewhere", carbon);
    expect(adapter.threadId).toBe("elsewhere");
    expect(adapter.messages).toEqual([]);
    expect(carbon.calls.inserted).toEqual([]);
  });
});
