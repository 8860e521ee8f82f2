import { EventType, type BaseEvent } from "@ag-ui/core";
import { HttpAgent } from "@ag-ui/client";
import type { Interrupt, RunAgentInput } from "@ag-ui/core";
import { EMPTY, NEVER, Observable, of, throwError, type ObservableInput, type SchedulerLike } from "rxjs";
import { type AgentScript, type AgentServer, type SseResponse } from "carbon-agui-rx/testing";
import { startEncodedAgentServer } from "./support/agentServer";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, createAgUiSendMessage } from "../src/adapter";
import { CancellationReason, type CarbonStreamChunk } from "../src/carbon";
import { ERROR_ITEM_ID } from "../src/operators/render/toStreamChunks";
import { AgUiEmptyRunError, AgUiFrontendToolError, AgUiInterruptError, AgUiRunError, CarbonAgUiError } from "../src/errors";
import { createSseRunner } from "../src/runners/createSseRunner";
import { fromAgent } from "../src/runners/fromAgent";
import { ev } from "./support/builders";
import { DrivenClock } from "./support/drivenClock";
import { waitUntil } from "./support/runs";

const say = (sse: SseResponse, text: string, messageId = "a1") => {
  sse.send(ev.runStarted());
  sse.send(ev.textStart(messageId));
  for (const word of text.split(/(?<= )/)) sse.send(ev.text(messageId, word));
  sse.send(ev.textEnd(messageId));
  sse.send(ev.runFinished());
  sse.end();
};

const request = (text: string, id = `u-${text}`) => ({ id, input: { text }, history: {} });
const options = (signal = new AbortController().signal) => ({ signal, silent: false });
const finals = (carbon: CarbonRecorder) => carbon.chunks.filter((chunk): chunk is Extract<CarbonStreamChunk, { final_response: unknown }> => "final_response" in chunk);

describe("CarbonAgUiAdapter", () => {
  let server: AgentServer | undefined;
  afterEach(() => server?.close());

  async function adapterFor(script: AgentScript, extra: Partial<ConstructorParameters<typeof CarbonAgUiAdapter>[0]> = {}) {
    server = await startEncodedAgentServer(script);
    return new CarbonAgUiAdapter({ run: createSseRunner({ url: server.url }), ...extra });
  }

  const partlyThenRunError: AgentScript = (_input, sse) => {
    sse.send(ev.runStarted());
    sse.send(ev.textStart("a1"));
    sse.send(ev.text("a1", "Partly"));
    sse.send(ev.runError("model overloaded", "overloaded"));
    sse.end();
  };

  it("streams an answer into Carbon, ending with the final response under the same response id", async () => {
    const adapter = await adapterFor((_input, sse) => say(sse, "Hello there"));
    const carbon = new CarbonRecorder();
    carbon.userSays("Hi");
    await adapter.sendMessage(request("Hi"), options(), carbon);
    expect(carbon.transcript()).toBe("You: Hi\nAssistant: Hello there");
    const responseIds = new Set(carbon.chunks.map((chunk) => ("final_response" in chunk ? chunk.final_response.id : chunk.streaming_metadata.response_id)));
    expect(responseIds.size).toBe(1);
    expect(finals(carbon)).toHaveLength(1);
    expect(finals(carbon)[0]?.final_response.request_id).toBe("u-Hi");
    expect(carbon.waitingForFinal).toEqual([]);
    // Every field a Python (pydantic) AG-UI server requires is present, as HttpAgent sends them.
    expect(server!.inputs[0]).toEqual({
      threadId: adapter.threadId,
      runId: expect.any(String),
      messages: [{ id: "u-Hi", role: "user", content: "Hi" }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    });
  });

  it("keeps the thread and history across turns and sends them with each run", async () => {
    let turn = 0;
    const adapter = await adapterFor((_input, sse) => say(sse, `Answer ${++turn}`, `a${turn}`), {
      threadId: "thread-7",
      tools: [{ name: "search", description: "Search the web", parameters: { type: "object" } }],
      context: [{ description: "locale", value: "en-GB" }],
      initialState: { plan: [] },
      forwardedProps: { model: "small" },
    });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("First"), options(), carbon);
    await adapter.sendMessage(request("Second"), options(), carbon);
    const [first, second] = server!.inputs;
    expect(second).toMatchObject({
      threadId: "thread-7",
      messages: [
        { id: "u-First", role: "user", content: "First" },
        { id: "a1", role: "assistant", content: "Answer 1" },
        { id: "u-Second", role: "user", content: "Second" },
      ],
      tools: [{ name: "search" }],
      context: [{ description: "locale", value: "en-GB" }],
      state: { plan: [] },
      forwardedProps: { model: "small" },
    });
    expect(first?.threadId).toBe("thread-7");
    expect(first?.runId).not.toBe(second?.runId);
    expect(adapter.messages.map((message) => message.id)).toEqual(["u-First", "a1", "u-Second", "a2"]);
  });

  it("keeps the shared state from one run and sends it with the next, telling onStateChange", async () => {
    const seen: unknown[] = [];
    const adapter = await adapterFor(
      (input, sse) => {
        sse.send(ev.runStarted());
        if (input.messages.length === 1) sse.send({ type: EventType.STATE_SNAPSHOT, snapshot: { steps: ["search"] } } as BaseEvent);
        else sse.send({ type: EventType.STATE_DELTA, delta: [{ op: "add", path: "/steps/-", value: "answer" }] } as BaseEvent);
        sse.send(ev.runFinished());
        sse.end();
      },
      { onStateChange: (state) => seen.push(state) },
    );
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("First"), options(), carbon);
    await adapter.sendMessage(request("Second"), options(), carbon);
    expect(server!.inputs.map((input) => input.state)).toEqual([{}, { steps: ["search"] }]);
    expect(adapter.state).toEqual({ steps: ["search", "answer"] });
    await waitUntil(() => seen.length === 2);
    expect(seen).toEqual([{ steps: ["search"] }, { steps: ["search", "answer"] }]);
  });

  it("keeps tool calls and their results in the history, so the next run has them", async () => {
    const adapter = await adapterFor((input, sse) => {
      sse.send(ev.runStarted());
      if (input.messages.length === 1) {
        sse.send({ type: EventType.TOOL_CALL_START, toolCallId: "t1", toolCallName: "weather", parentMessageId: "a1" } as BaseEvent);
        sse.send(ev.toolArgs("t1", '{"city":"Oslo"}'));
        sse.send(ev.toolEnd("t1"));
        sse.send({ type: EventType.TOOL_CALL_RESULT, messageId: "tool-1", toolCallId: "t1", content: "4°C" } as BaseEvent);
        sse.send(ev.textStart("a2"));
        sse.send(ev.text("a2", "It is 4°C in Oslo."));
        sse.send(ev.textEnd("a2"));
      }
      sse.send(ev.runFinished());
      sse.end();
    });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Weather in Oslo?"), options(), carbon);
    await adapter.sendMessage(request("Thanks"), options(), carbon);
    expect(server!.inputs[1]?.messages).toEqual([
      { id: "u-Weather in Oslo?", role: "user", content: "Weather in Oslo?" },
      { id: "a1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] },
      { id: "tool-1", role: "tool", toolCallId: "t1", content: "4°C" },
      { id: "a2", role: "assistant", content: "It is 4°C in Oslo." },
      { id: "u-Thanks", role: "user", content: "Thanks" },
    ]);
    const final = finals(carbon)[0]?.final_response;
    expect(final?.message_options?.chain_of_thought).toEqual([{ tool_name: "weather", status: "success", request: { args: { city: "Oslo" } }, response: { content: "4°C" } }]);
    expect(carbon.transcript()).toBe("Assistant: It is 4°C in Oslo.\n  How did I get this answer? weather (success)\nAssistant: (no answer)");
  });

  it("starts no run for Carbon's welcome request", async () => {
    const adapter = await adapterFor((_input, sse) => say(sse, "unused"));
    const carbon = new CarbonRecorder();
    await adapter.sendMessage({ input: { text: "" }, history: { is_welcome_request: true } }, options(), carbon);
    expect([server!.inputs.length, carbon.chunks.length, adapter.messages.length]).toEqual([0, 0, 0]);
  });

  it("stops on Carbon's stop button: the HTTP request closes, the text so far shows as stopped", async () => {
    const adapter = await adapterFor((_input, sse) => {
      sse.send(ev.runStarted());
      sse.send(ev.textStart("a1"));
      sse.send(ev.text("a1", "A long story"));
    });
    const carbon = new CarbonRecorder();
    const controller = new AbortController();
    const sent = adapter.sendMessage(request("Tell me a story"), options(controller.signal), carbon);
    await waitUntil(() => carbon.chunks.length === 1);
    controller.abort(CancellationReason.STOP_STREAMING);
    await sent;
    await server!.responses[0]?.closed;
    expect(carbon.transcript()).toBe("Assistant: A long story\n  (Response stopped)");
    expect(carbon.waitingForFinal).toEqual([]);
    // The next run sees what the person saw.
    expect(adapter.messages.at(-1)).toEqual({ id: "a1", role: "assistant", content: "A long story" });
  });

  it("on RUN_ERROR, keeps the text so far and says why in the chat, reports the AgUiRunError to onError, and resolves", async () => {
    const errors: unknown[] = [];
    const adapter = await adapterFor(partlyThenRunError, { onError: (error) => errors.push(error) });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Hi"), options(), carbon);
    expect(errors).toEqual([new AgUiRunError("model overloaded", "overloaded")]);
    expect(finals(carbon)[0]?.final_response.history?.error_state).toBeUndefined();
    expect(carbon.transcript()).toBe("Assistant: Partly\n[error: This answer is incomplete. model overloaded.]");
    expect(carbon.waitingForFinal).toEqual([]);
    expect(adapter.messages.at(-1)).toEqual({ id: "a1", role: "assistant", content: "Partly" });
  });

  it("shows the whole answer when a stray event of another run comes in the middle of it, telling onInvalidEvent", async () => {
    const invalid: string[] = [];
    const stray = () => of(ev.runStarted(), ev.textStart("a1"), ev.text("a1", "Whole "), ev.text("old-run", "late"), ev.text("a1", "answer."), ev.textEnd("a1"), ev.runFinished());
    const adapter = new CarbonAgUiAdapter({ run: stray, onInvalidEvent: (_event, error) => void invalid.push(error.message) });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Hi"), options(), carbon);
    expect(carbon.transcript()).toBe("Assistant: Whole answer.");
    expect(invalid).toEqual(["Invalid TEXT_MESSAGE_CONTENT event: no open text message 'old-run': skipped"]);
    expect(adapter.messages.at(-1)).toEqual({ id: "a1", role: "assistant", content: "Whole answer." });
  });

  it("changes nothing the person saw or the history holds with events after RUN_ERROR (LangGraph sends snapshots and RUN_FINISHED after it)", async () => {
    const failing = () =>
      of(ev.runStarted(), ev.textStart("a1"), ev.text("a1", "Partly"), ev.textEnd("a1"), ev.runError("node failed"), ev.messagesSnapshot(), ev.textStart("a2"), ev.text("a2", "late"), ev.textEnd("a2"), ev.runFinished());
    const adapter = new CarbonAgUiAdapter({ run: failing, onError: () => undefined });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Hi"), options(), carbon);
    expect(carbon.transcript()).toBe("Assistant: Partly\n[error: This answer is incomplete. node failed.]");
    expect(adapter.messages.map((message) => message.id)).toEqual(["u-Hi", "a1"]);
  });

  it.each([
    ["rejectOnError is set", { rejectOnError: true }, "Assistant: Partly\n[error: This answer is incomplete. model overloaded.]"],
    ["describeError shows nothing", { describeError: () => undefined }, "Assistant: Partly\n  (This message was not completed. Please try again.)"],
  ])("rejects with the typed error after the final response when %s", async (_case, adapterOptions, transcript) => {
    const reported: CarbonAgUiError[] = [];
    const adapter = await adapterFor(partlyThenRunError, { ...adapterOptions, onError: (error) => reported.push(error) });
    const carbon = new CarbonRecorder();
    await expect(adapter.sendMessage(request("Hi"), options(), carbon)).rejects.toEqual(new AgUiRunError("model overloaded", "overloaded"));
    expect(carbon.transcript()).toBe(transcript);
    expect(carbon.waitingForFinal).toEqual([]);
    // Rejected, and reported as every failed turn is.
    expect(reported).toEqual([new AgUiRunError("model overloaded", "overloaded")]);
  });

  describe("when Carbon is slow", () => {
    // Carbon's slowness and the adapter's frames are on a clock the spec drives (the adapter's `scheduler`), and the
    // agent's events are in memory: every run interleaves the same way, whatever the machine's load.
    let clock: DrivenClock;
    /** The messages of what the adapters reported to onError. */
    let reported: string[];
    beforeEach(() => ((clock = new DrivenClock()), (reported = [])));
    /** An adapter on the clock whose runs send `events` at once, then end unless `ends` is false (an agent still streaming). */
    const adapterOn = (events: BaseEvent[], extra: Partial<ConstructorParameters<typeof CarbonAgUiAdapter>[0]> = {}, ends = true) =>
      new CarbonAgUiAdapter({ run: () => agentSending(events, ends), scheduler: clock, onError: (error) => reported.push(error.message), ...extra });
    const agentSending = (events: BaseEvent[], ends: boolean) =>
      new Observable<BaseEvent>((subscriber) => {
        for (const event of events) subscriber.next(event);
        if (ends) subscriber.complete();
      });
    const fiveDeltasThenError = [ev.runStarted(), ev.textStart("a1"), ...[0, 1, 2, 3, 4].map((index) => ev.text("a1", `${index}`)), ev.runError("boom")];
    /** A Carbon whose every chunk takes `ms` of the clock's time to render. */
    const slowCarbon = (delivered: CarbonStreamChunk[], ms = 5) => ({
      messaging: { addMessageChunk: (chunk: CarbonStreamChunk) => new Promise<void>((resolve) => clock.schedule(() => resolve(void delivered.push(chunk)), ms)) },
    });
    const streamedText = (chunks: CarbonStreamChunk[]) => chunks.map((chunk) => ("partial_item" in chunk ? chunk.partial_item.text : "")).join("");

    it("with coalesce: false, joins the deltas a queue that fell behind holds: all the text, fewer chunks, the final response last, then rejects", async () => {
      const adapter = adapterOn(fiveDeltasThenError, { coalesce: false, rejectOnError: true });
      const delivered: CarbonStreamChunk[] = [];
      await expect(clock.settle(adapter.sendMessage(request("Hi"), options(), slowCarbon(delivered)))).rejects.toBeInstanceOf(AgUiRunError);
      // 5 ms per chunk against a 10 ms budget: the first go one by one until the budget is spent, then the rest waits for a frame and goes as one.
      expect(streamedText(delivered)).toBe("01234");
      expect(delivered.length).toBeLessThan(6);
      expect(delivered.at(-1)).toHaveProperty("final_response");
      expect(reported).toEqual(["boom"]);
    });

    it.each([
      ["rejects", (error: Error) => Promise.reject(error)],
      ["throws", (error: Error) => {
        throw error;
      }],
    ])("still gives Carbon the chunks after one it refuses (its addMessageChunk %s), the final response last, then rejects with that error", async (_how, refuse) => {
      const adapter = adapterOn([ev.runStarted(), ev.textStart("a1"), ev.text("a1", "Hello "), ev.text("a1", "there"), ev.textEnd("a1"), ev.runFinished()], { coalesce: false });
      const refusal = new Error("a handler in the page threw");
      const delivered: CarbonStreamChunk[] = [];
      const picky = { messaging: { addMessageChunk: (chunk: CarbonStreamChunk) => (delivered.push(chunk), delivered.length === 2 ? refuse(refusal) : Promise.resolve()) } };
      const rejection = await clock.settle(adapter.sendMessage(request("Hi"), options(), picky)).catch((error: unknown) => error);
      // One of ours, carrying Carbon's error: Carbon logs a rejection with JSON.stringify, where a plain Error is "{}".
      expect(rejection).toBeInstanceOf(CarbonAgUiError);
      expect(rejection).toMatchObject({ message: refusal.message, cause: refusal });
      expect(JSON.parse(JSON.stringify(rejection))).toEqual({ name: "CarbonAgUiError", message: refusal.message });
      expect(delivered.length).toBeGreaterThan(2);
      expect(delivered.at(-1)).toHaveProperty("final_response");
      expect(reported).toEqual([refusal.message]);
    });

    it("delivers all the text, merged, and the final response last, before rejecting", async () => {
      const adapter = adapterOn(fiveDeltasThenError, { rejectOnError: true });
      const delivered: CarbonStreamChunk[] = [];
      await expect(clock.settle(adapter.sendMessage(request("Hi"), options(), slowCarbon(delivered)))).rejects.toBeInstanceOf(AgUiRunError);
      expect(streamedText(delivered)).toBe("01234");
      expect(delivered[0]).toMatchObject({ partial_item: { text: "0" } });
      expect(delivered.at(-1)).toHaveProperty("final_response");
      expect(reported).toEqual(["boom"]);
    });

    it("merges deltas at the pace of its scheduler, or of coalesce's own", async () => {
      // Windows are delays; the adapter also asks its scheduler for the next frame (no delay) to time each hand-over.
      const counting = () => {
        let calls = 0;
        const scheduler: SchedulerLike = {
          now: () => clock.now(),
          schedule: ((work: () => void, delay?: number) => (delay && calls++, clock.schedule(work, delay))) as SchedulerLike["schedule"],
        };
        return { scheduler, calls: () => calls };
      };
      const adapterPace = counting();
      const coalescePace = counting();
      // A Carbon that takes each chunk at once never makes the adapter wait for a frame: only merging schedules.
      const adapter = adapterOn(fiveDeltasThenError, { scheduler: adapterPace.scheduler, rejectOnError: true });
      await expect(clock.settle(adapter.sendMessage(request("Hi"), options(), new CarbonRecorder()))).rejects.toBeInstanceOf(AgUiRunError);
      expect(adapterPace.calls()).toBeGreaterThan(0);
      const second = adapterOn(fiveDeltasThenError, { scheduler: adapterPace.scheduler, coalesce: { scheduler: coalescePace.scheduler }, rejectOnError: true });
      const before = adapterPace.calls();
      await expect(clock.settle(second.sendMessage(request("Hi"), options(), new CarbonRecorder()))).rejects.toBeInstanceOf(AgUiRunError);
      expect([coalescePace.calls() > 0, adapterPace.calls() - before]).toEqual([true, 0]);
      expect(reported).toEqual(["boom", "boom"]);
    });

    it("on stop, skips the partial chunks still queued: the stopped item and the final response follow at once with all the text", async () => {
      const hundredDeltas = [ev.runStarted(), ev.textStart("a1"), ...Array.from({ length: 100 }, (_, index) => ev.text("a1", `${index} `))];
      const adapter = adapterOn(hundredDeltas, { coalesce: false }, false);
      const delivered: CarbonStreamChunk[] = [];
      const controller = new AbortController();
      const sent = adapter.sendMessage(request("Hi"), options(controller.signal), slowCarbon(delivered, 2));
      await clock.runUntil(() => delivered.length >= 3);
      controller.abort(CancellationReason.STOP_STREAMING);
      await clock.settle(sent);
      const allText = Array.from({ length: 100 }, (_, index) => `${index} `).join("");
      expect(delivered.length).toBeLessThan(10);
      // Stopped while Carbon took "3 ": not one partial chunk after it (joined or not).
      expect(streamedText(delivered.slice(0, -2))).toBe("0 1 2 3 ");
      expect(delivered.slice(-2)).toEqual([
        { complete_item: { response_type: "text", text: allText, streaming_metadata: { id: "a1", stream_stopped: true } }, streaming_metadata: expect.any(Object) },
        expect.objectContaining({ final_response: expect.any(Object) }),
      ]);
    });
  });

  it("ends the turn and starts a new thread when Carbon restarts the conversation, closing the response it had begun", async () => {
    const adapter = await adapterFor((_input, sse) => {
      sse.send(ev.runStarted());
      sse.send(ev.textStart("a1"));
      sse.send(ev.text("a1", "Before restart"));
    });
    const carbon = new CarbonRecorder();
    const controller = new AbortController();
    const threadBefore = adapter.threadId;
    const sent = adapter.sendMessage(request("Hi"), options(controller.signal), carbon);
    await waitUntil(() => carbon.chunks.length === 1);
    controller.abort(CancellationReason.CONVERSATION_RESTARTED);
    await sent;
    await server!.responses[0]?.closed;
    // Carbon drops the chunks of a response it saw before its restart; after a bare reset() they close what it shows.
    expect(carbon.chunks.slice(1)).toEqual([
      { complete_item: { response_type: "text", text: "Before restart", streaming_metadata: { id: "a1", stream_stopped: true } }, streaming_metadata: expect.any(Object) },
      { final_response: expect.objectContaining({ request_id: "u-Hi" }) },
    ]);
    expect(adapter.threadId).not.toBe(threadBefore);
    expect(adapter.messages).toEqual([]);
  });

  it("fails the message, saying so in the chat, when the agent's stream ends without any event (CopilotKit's runtime answers so while the thread is still busy)", async () => {
    const errors: unknown[] = [];
    const adapter = new CarbonAgUiAdapter({ run: () => EMPTY, onError: (error) => errors.push(error) });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Hi"), options(), carbon);
    expect(errors).toEqual([new AgUiEmptyRunError()]);
    const generic = [{ response_type: "inline_error", text: "The agent ended the run without answering.", streaming_metadata: { id: ERROR_ITEM_ID } }];
    expect(carbon.chunks).toEqual([{ final_response: { id: expect.any(String), request_id: "u-Hi", output: { generic } } }]);
  });

  it("ends the turn with a final response that says it failed when the runner throws before any event", async () => {
    const failure = new Error("no route to agent");
    const errors: unknown[] = [];
    const adapter = new CarbonAgUiAdapter({ run: () => throwError(() => failure), onError: (error) => errors.push(error) });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Hi"), options(), carbon);
    // A runner's own error fails the run: an AgUiRunError with its message (in-process MastraAgent errors so instead of RUN_ERROR).
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(AgUiRunError);
    expect(errors[0]).toMatchObject({ message: failure.message, cause: failure });
    expect(JSON.parse(JSON.stringify(errors[0]))).toEqual({ name: "AgUiRunError", message: failure.message });
    const generic = [{ response_type: "inline_error", text: "no route to agent.", streaming_metadata: { id: ERROR_ITEM_ID } }];
    expect(carbon.chunks).toEqual([{ final_response: { id: expect.any(String), request_id: "u-Hi", output: { generic } } }]);
  });

  it("keeps reading a stream that stays open after its run (a later run of it is a turn of its own), and lets it go once the person sends the next message", async () => {
    const signals: AbortSignal[] = [];
    const run = (_input: unknown, { signal }: { signal: AbortSignal }) => {
      signals.push(signal);
      return new Observable<BaseEvent>((subscriber) => {
        subscriber.next(ev.runStarted());
        subscriber.next({ type: EventType.RUN_FINISHED, threadId: "t", runId: "r" } as BaseEvent);
      });
    };
    const send = createAgUiSendMessage({ run });
    await send(request("Hi"), options(), new CarbonRecorder());
    expect(signals[0]?.aborted).toBe(false);
    await send(request("Again"), options(), new CarbonRecorder());
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[1]?.aborted).toBe(false);
  });

  it("aborts the run's own signal once its stream has ended, or the turn is stopped", async () => {
    const signals: AbortSignal[] = [];
    const adapter = new CarbonAgUiAdapter({
      run: (_input, { signal }) => {
        signals.push(signal);
        return signals.length === 1 ? of(...ev.run(ev.message("m1", "Done."))) : NEVER;
      },
    });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Hi"), options(), carbon);
    expect(signals[0]?.aborted).toBe(true);
    const stopping = new AbortController();
    const stopped = adapter.sendMessage(request("Hang"), { signal: stopping.signal }, carbon);
    await waitUntil(() => signals.length === 2);
    stopping.abort(CancellationReason.STOP_STREAMING);
    await stopped;
    expect(signals[1]?.aborted).toBe(true);
  });

  it("works with a real HttpAgent through fromAgent", async () => {
    server = await startEncodedAgentServer((_input, sse) => say(sse, "From HttpAgent"));
    const adapter = new CarbonAgUiAdapter({ run: fromAgent(new HttpAgent({ url: server.url })) });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Hi"), options(), carbon);
    expect(carbon.transcript()).toBe("Assistant: From HttpAgent");
  });
});

describe("CarbonAgUiAdapter: human in the loop", () => {
  const interrupt = (id: string, extra: Partial<Interrupt> = {}): Interrupt => ({ id, reason: "approval", ...extra });
  const interrupts = (...list: Interrupt[]): ObservableInput<BaseEvent> => of(ev.runStarted(), ev.runFinished({ outcome: { type: "interrupt", interrupts: list } }));
  const answer = (text: string): ObservableInput<BaseEvent> => of(ev.runStarted(), ev.textStart(`c-${text}`), ev.text(`c-${text}`, text), ev.textEnd(`c-${text}`), ev.runFinished());

  /** An adapter whose runs are played from `runs`, one per run, recording each input. */
  function scripted(...runs: ((input: RunAgentInput) => ObservableInput<BaseEvent>)[]) {
    const inputs: RunAgentInput[] = [];
    /** The messages of what the adapter reported to onError. */
    const reported: string[] = [];
    const adapter = new CarbonAgUiAdapter({
      run: (input) => {
        inputs.push(input);
        const next = runs[inputs.length - 1];
        if (!next) throw new Error(`no run scripted for run ${inputs.length}`);
        return next(input);
      },
      onError: (error) => reported.push(error.message),
    });
    return { adapter, inputs, reported, carbon: new CarbonRecorder() };
  }

  const pendingIds = (adapter: CarbonAgUiAdapter) => adapter.pendingInterrupts.map((entry) => [entry.interrupt.id, entry.decision?.type]);

  it("shows one decision card per interrupt and keeps them pending, oldest first", async () => {
    const { adapter, carbon } = scripted(() => interrupts(interrupt("i1", { message: "Send the email?" }), interrupt("i2")));
    await adapter.sendMessage(request("Send it"), options(), carbon);
    const cards = finals(carbon)[0]?.final_response.output.generic.map((item) => (item.user_defined as { kind: string; interruptId: string }));
    expect(cards).toEqual([
      { kind: "interrupt", interruptId: "i1", reason: "approval", message: "Send the email?" },
      { kind: "interrupt", interruptId: "i2", reason: "approval" },
    ]);
    expect(pendingIds(adapter)).toEqual([["i1", undefined], ["i2", undefined]]);
    expect(adapter.pendingInterrupt?.interrupt.id).toBe("i1");
  });

  describe("keeps the thread usable once interrupts on tool calls are resumed", () => {
    const asksApproval = (...toolCallIds: string[]): ObservableInput<BaseEvent> =>
      of(
        ev.runStarted(),
        ...toolCallIds.flatMap((id) => ev.toolCall(id, "delete_files", { pattern: "*.tmp" }, "a1")),
        ev.runFinished({ outcome: { type: "interrupt", interrupts: toolCallIds.map((id) => interrupt(`i-${id}`, { toolCallId: id })) } }),
      );
    const historyAfterCall = (input: RunAgentInput | undefined) => input?.messages.slice(1).map((message) => (message.role === "tool" ? `tool ${message.toolCallId}: ${message.content}` : message.role));

    it("gives each call the framework answered inside the resume run without a result (CopilotKit) the decision as its result, right after the call", async () => {
      const { adapter, inputs, carbon } = scripted(() => asksApproval("t1", "t2"), () => answer("Done."), () => answer("Anything else?"));
      await adapter.sendMessage(request("Clean up"), options(), carbon);
      await adapter.respondToInterrupt({ type: "approve" }, carbon);
      await adapter.respondToInterrupt({ type: "reject" }, carbon);
      await adapter.sendMessage(request("Thanks"), options(), carbon);
      expect(historyAfterCall(inputs[2])).toEqual(["assistant", 'tool t1: {"approved":true}', 'tool t2: {"status":"cancelled"}', "assistant", "user"]);
    });

    it.each([
      ["throws before its first event", () => throwError(() => new Error("connection refused"))],
      ["completes empty", () => EMPTY],
    ])("puts the interrupt back, without a cancelled result, when the run cancelling it for a message sent instead %s", async (_case, failing) => {
      const { adapter, inputs, reported, carbon } = scripted(() => asksApproval("t1"), failing, () => answer("Deleted."));
      await adapter.sendMessage(request("Clean up"), options(), carbon);
      await adapter.sendMessage(request("Never mind"), options(), carbon);
      expect(inputs).toHaveLength(2);
      expect(reported).toHaveLength(1);
      expect(pendingIds(adapter)).toEqual([["i-t1", undefined]]);
      expect(adapter.messages.map((message) => (message.role === "tool" ? `tool ${message.toolCallId}` : message.role))).toEqual(["user", "assistant", "user"]);
      // The agent never took the cancellation: the card can still be answered, and the decision is the call's result.
      await adapter.respondToInterrupt({ type: "approve" }, carbon);
      expect(inputs[2]?.resume).toEqual([{ interruptId: "i-t1", status: "resolved", payload: { approved: true } }]);
      expect(adapter.messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual(['{"approved":true}']);
    });

    it("keeps the result a framework sends itself on resume (Mastra)", async () => {
      const resumed = () => of(ev.runStarted(), ev.toolResult("t1", "deleted 3", "r-t1"), ev.runFinished());
      const { adapter, inputs, carbon } = scripted(() => asksApproval("t1"), resumed, () => answer("Anything else?"));
      await adapter.sendMessage(request("Clean up"), options(), carbon);
      await adapter.respondToInterrupt({ type: "approve" }, carbon);
      await adapter.sendMessage(request("Thanks"), options(), carbon);
      expect(historyAfterCall(inputs[2])).toEqual(["assistant", "tool t1: deleted 3", "user"]);
    });

    it("gives a call whose interrupt a new message cancelled its cancellation as result, before that message", async () => {
      const { adapter, inputs, carbon } = scripted(() => asksApproval("t1"), () => answer("Fine, I won't."), () => answer("Sure."), () => answer("Welcome."));
      await adapter.sendMessage(request("Clean up"), options(), carbon);
      await adapter.sendMessage(request("No, leave them"), options(), carbon);
      expect(inputs[1]?.resume).toEqual([{ interruptId: "i-t1", status: "cancelled" }]);
      expect(historyAfterCall(inputs[2])).toEqual(["assistant", 'tool t1: {"status":"cancelled"}', "assistant", "user"]);
      await adapter.sendMessage(request("Thanks"), options(), carbon);
      expect(historyAfterCall(inputs[3])).toEqual(["assistant", 'tool t1: {"status":"cancelled"}', "assistant", "user", "assistant", "user"]);
    });
  });

  it("resumes with one run once every interrupt has a decision: same thread, new run, no messages, one entry each in arrival order", async () => {
    const { adapter, inputs, carbon } = scripted(() => interrupts(interrupt("i1"), interrupt("i2")), () => answer("Sent."));
    await adapter.sendMessage(request("Send it"), options(), carbon);
    await adapter.respondToInterrupt({ type: "edit", args: { to: "ada@example.com" } }, carbon);
    expect(inputs).toHaveLength(1);
    await adapter.respondToInterrupt({ type: "reject" }, carbon);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]).toMatchObject({ threadId: inputs[0]?.threadId, messages: [] });
    expect(inputs[1]?.runId).not.toBe(inputs[0]?.runId);
    expect(inputs[1]?.resume).toEqual([
      { interruptId: "i1", status: "resolved", payload: { approved: true, args: { to: "ada@example.com" } } },
      { interruptId: "i2", status: "cancelled" },
    ]);
    expect(adapter.pendingInterrupts).toEqual([]);
    expect(finals(carbon)).toHaveLength(2);
    expect(carbon.transcript()).toMatch(/Assistant: Sent\.$/);
  });

  it("answering one of several interrupts resolves without running anything, even without a Carbon instance", async () => {
    const { adapter, inputs, carbon } = scripted(() => interrupts(interrupt("i1"), interrupt("i2")));
    await adapter.sendMessage(request("Go"), options(), carbon);
    await adapter.respondToInterrupt({ type: "approve" }, undefined, {}, "i2");
    expect(inputs).toHaveLength(1);
    expect(pendingIds(adapter)).toEqual([["i1", undefined], ["i2", "approve"]]);
  });

  it("defaults to the oldest undecided interrupt, then to the only one left decided, and refuses to guess among several decided", async () => {
    const { adapter, carbon, reported } = scripted(
      () => interrupts(interrupt("i1"), interrupt("i2")),
      () => throwError(() => new Error("agent unreachable")),
      () => throwError(() => new Error("still unreachable")),
    );
    await adapter.sendMessage(request("Go"), options(), carbon);
    await adapter.respondToInterrupt({ type: "approve" });
    expect(pendingIds(adapter)).toEqual([["i1", "approve"], ["i2", undefined]]);
    await expect(adapter.respondToInterrupt({ type: "reject" })).rejects.toThrow("agent unreachable");
    expect(pendingIds(adapter)).toEqual([["i1", "approve"], ["i2", "reject"]]);
    await expect(adapter.respondToInterrupt({ type: "approve" })).rejects.toEqual(
      new AgUiInterruptError("All 2 pending interrupts already have a decision; name the one to change"),
    );
    await expect(adapter.respondToInterrupt({ type: "approve" }, carbon, {}, "i2")).rejects.toThrow("still unreachable");
    expect(pendingIds(adapter)).toEqual([["i1", "approve"], ["i2", "approve"]]);
    expect(reported).toEqual(["agent unreachable", "still unreachable"]);
  });

  it("defaults to the only interrupt when its decision was put back", async () => {
    const { adapter, inputs, reported, carbon } = scripted(() => interrupts(interrupt("i1")), () => EMPTY, () => answer("Done."));
    await adapter.sendMessage(request("Go"), options(), carbon);
    await expect(adapter.respondToInterrupt({ type: "approve" })).rejects.toBeInstanceOf(AgUiInterruptError);
    expect(pendingIds(adapter)).toEqual([["i1", "approve"]]);
    await adapter.respondToInterrupt({ type: "reject" });
    expect(inputs[2]?.resume).toEqual([{ interruptId: "i1", status: "cancelled" }]);
    expect(reported).toHaveLength(1);
  });

  it("lets an expired interrupt only be rejected", async () => {
    const { adapter, inputs, carbon } = scripted(() => interrupts(interrupt("i1", { expiresAt: "2020-01-01T00:00:00Z" })), () => answer("Cancelled."));
    await adapter.sendMessage(request("Go"), options(), carbon);
    await expect(adapter.respondToInterrupt({ type: "approve" })).rejects.toEqual(
      new AgUiInterruptError("Interrupt 'i1' expired at 2020-01-01T00:00:00Z; it can only be rejected", "i1"),
    );
    await adapter.respondToInterrupt({ type: "reject" });
    expect(inputs[1]?.resume).toEqual([{ interruptId: "i1", status: "cancelled" }]);
  });

  it.each([
    ["throws before its first event", () => throwError(() => new Error("connection refused"))],
    ["completes empty", () => EMPTY],
  ])("puts the interrupt and its decision back when the resume run %s, and still rejects", async (_case, failing) => {
    const { adapter, carbon, reported } = scripted(() => interrupts(interrupt("i1")), failing);
    await adapter.sendMessage(request("Go"), options(), carbon);
    await expect(adapter.respondToInterrupt({ type: "approve" })).rejects.toBeInstanceOf(Error);
    expect(pendingIds(adapter)).toEqual([["i1", "approve"]]);
    expect(reported).toHaveLength(1);
  });

  it("puts the interrupt back when the signal was already aborted, without starting the run", async () => {
    const { adapter, inputs, carbon } = scripted(() => interrupts(interrupt("i1")), () => answer("never"));
    await adapter.sendMessage(request("Go"), options(), carbon);
    const aborted = new AbortController();
    aborted.abort(CancellationReason.STOP_STREAMING);
    await expect(adapter.respondToInterrupt({ type: "approve" }, carbon, { signal: aborted.signal })).rejects.toBeInstanceOf(AgUiInterruptError);
    expect(pendingIds(adapter)).toEqual([["i1", "approve"]]);
    expect(inputs).toHaveLength(1);
  });

  it("puts nothing back once the resume run sent any event, RUN_ERROR included", async () => {
    const { adapter, carbon, reported } = scripted(() => interrupts(interrupt("i1")), () => of(ev.runStarted(), ev.runError("graph crashed")));
    await adapter.sendMessage(request("Go"), options(), carbon);
    await expect(adapter.respondToInterrupt({ type: "approve" })).rejects.toEqual(new AgUiRunError("graph crashed"));
    expect(adapter.pendingInterrupts).toEqual([]);
    expect(reported).toEqual(["graph crashed"]);
  });

  it("ends a resume in flight on reset(): it resolves, and puts nothing back into the new conversation", async () => {
    let failResume: (error: Error) => void = () => undefined;
    const hanging = () => new Observable<BaseEvent>((subscriber) => void (failResume = (error) => subscriber.error(error)));
    const { adapter, carbon, inputs } = scripted(() => interrupts(interrupt("i1")), hanging);
    await adapter.sendMessage(request("Go"), options(), carbon);
    const resumed = adapter.respondToInterrupt({ type: "approve" });
    await waitUntil(() => inputs.length === 2);
    // The agent has not taken the decision yet: the card waits, decided.
    expect(pendingIds(adapter)).toEqual([["i1", "approve"]]);
    adapter.reset();
    failResume(new Error("too late"));
    await expect(resumed).resolves.toBeUndefined();
    expect(adapter.pendingInterrupts).toEqual([]);
  });

  it("answers pending interrupts as cancelled in a run of their own when a new message is sent instead, then runs the message", async () => {
    // LangGraph and Mastra take a run that carries a resume as the resume only: a message in it would be dropped.
    const { adapter, inputs, carbon } = scripted(() => interrupts(interrupt("i1"), interrupt("i2")), () => answer("OK, not booked."), () => answer("Fine, something else."));
    await adapter.sendMessage(request("Book a flight"), options(), carbon);
    await adapter.sendMessage(request("Never mind"), options(), carbon);
    expect(inputs[1]).toMatchObject({ messages: [], resume: [{ interruptId: "i1", status: "cancelled" }, { interruptId: "i2", status: "cancelled" }] });
    expect(inputs[2]?.resume).toBeUndefined();
    expect(inputs[2]?.messages.map((message) => message.content)).toEqual(["Book a flight", "OK, not booked.", "Never mind"]);
    expect(adapter.pendingInterrupts).toEqual([]);
    expect(carbon.transcript().split("\n").slice(-2)).toEqual(["Assistant: OK, not booked.", "Assistant: Fine, something else."]);
    expect(adapter.messages.at(-2)).toEqual({ id: "u-Never mind", role: "user", content: "Never mind" });
  });

  it("keeps the message sent instead in the history when the cancelling run fails, and runs nothing more", async () => {
    const { adapter, inputs, reported, carbon } = scripted(() => interrupts(interrupt("i1")), () => of(ev.runStarted(), ev.runError("graph crashed")));
    await adapter.sendMessage(request("Book a flight"), options(), carbon);
    await adapter.sendMessage(request("Never mind"), options(), carbon);
    expect(inputs).toHaveLength(2);
    expect(reported).toEqual(["graph crashed"]);
    expect(adapter.messages.at(-1)).toEqual({ id: "u-Never mind", role: "user", content: "Never mind" });
    expect(carbon.transcript()).toMatch(/graph crashed/);
  });

  it("shows a clarification card when detectClarification finds the agent asking, and the answer is an ordinary message", async () => {
    const asking = () => of(ev.runStarted(), { type: EventType.STATE_SNAPSHOT, snapshot: { phase: "needs_detail", ask: "Which city?" } } as BaseEvent, ev.runFinished());
    const inputs: RunAgentInput[] = [];
    const adapter = new CarbonAgUiAdapter({
      run: (input) => (inputs.push(input), inputs.length === 1 ? asking() : answer("Oslo it is.")),
      detectClarification: (state) => ((state as { phase?: string }).phase === "needs_detail" ? { question: (state as { ask: string }).ask } : false),
    });
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Weather?"), options(), carbon);
    expect(finals(carbon)[0]?.final_response.output.generic[0]?.user_defined).toEqual({ kind: "clarification", question: "Which city?", threadId: adapter.threadId });
    await adapter.sendMessage(request("Oslo"), options(), carbon);
    expect(inputs[1]).toMatchObject({ threadId: inputs[0]?.threadId });
    expect(inputs[1]?.resume).toBeUndefined();
  });

  it("does not show an answered question again while the agent's state still carries it, and does when the agent asks anew", async () => {
    const asking = () => of(ev.runStarted(), { type: EventType.STATE_SNAPSHOT, snapshot: { phase: "needs_detail", ask: "Which city?" } } as BaseEvent, ev.runFinished());
    const runs = [asking, () => answer("Oslo it is."), () => answer("Anything else?"), asking];
    let run = 0;
    const adapter = new CarbonAgUiAdapter({
      run: () => runs[run++]!(),
      detectClarification: (state) => ((state as { phase?: string }).phase === "needs_detail" ? { question: (state as { ask: string }).ask } : false),
    });
    const carbon = new CarbonRecorder();
    for (const text of ["Weather?", "Oslo", "Thanks", "And tomorrow?"]) await adapter.sendMessage(request(text), options(), carbon);
    const cards = finals(carbon).map((chunk) => chunk.final_response.output.generic.filter((item) => item.response_type === "user_defined").length);
    expect(cards).toEqual([1, 0, 0, 1]);
  });
});

describe("CarbonAgUiAdapter: clarification predicate errors", () => {
  it("fails the turn when detectClarification throws, after its final response", async () => {
    const adapterOptions = {
      run: () => of(ev.runStarted(), ev.textStart("m1"), ev.text("m1", "Done"), ev.textEnd("m1"), ev.runFinished()),
      detectClarification: () => {
        throw new Error("predicate bug");
      },
    };
    const carbon = new CarbonRecorder();
    const errors: unknown[] = [];
    await createAgUiSendMessage({ ...adapterOptions, onError: (error) => errors.push(error) })(request("Hi"), options(), carbon);
    expect(errors).toEqual([new Error("predicate bug")]);
    expect(carbon.waitingForFinal).toEqual([]);
    expect(carbon.chunks.at(-1)).toHaveProperty("final_response");
  });
});

describe("CarbonAgUiAdapter: frontend tools", () => {
  /** A run that calls the `locate` tool and ends waiting for the browser to answer it. */
  const callsLocate = (toolCallId: string) =>
    of(
      ev.runStarted(),
      { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: "locate", parentMessageId: `a-${toolCallId}` } as BaseEvent,
      ev.toolArgs(toolCallId, '{"precise":true}'),
      ev.toolEnd(toolCallId),
      ev.runFinished({ outcome: { type: "success", pendingToolCallIds: [toolCallId] } }),
    );
  const answers = (text: string) => of(ev.runStarted(), ev.textStart(`m-${text}`), ev.text(`m-${text}`, text), ev.textEnd(`m-${text}`), ev.runFinished());

  function withRuns(handler: (args: unknown) => unknown, ...runs: ((input: RunAgentInput) => ObservableInput<BaseEvent>)[]) {
    const inputs: RunAgentInput[] = [];
    const reported: string[] = [];
    const adapter = new CarbonAgUiAdapter({
      tools: [{ name: "locate", description: "The user's position", parameters: { type: "object" }, handler }],
      maxFrontendToolRounds: 2,
      run: (input) => {
        inputs.push(input);
        return runs[inputs.length - 1]!(input);
      },
      onError: (error) => reported.push(error.message),
    });
    return { adapter, inputs, reported, carbon: new CarbonRecorder() };
  }

  it("runs the handler with the parsed arguments, records its result, and runs the agent again on the same thread", async () => {
    const seen: unknown[] = [];
    const { adapter, inputs, carbon } = withRuns(
      (args) => (seen.push(args), { lat: 59.9, lon: 10.7 }),
      () => callsLocate("t1"),
      () => answers("You are in Oslo."),
    );
    await adapter.sendMessage(request("Where am I?"), options(), carbon);
    expect(seen).toEqual([{ precise: true }]);
    expect(inputs).toHaveLength(2);
    expect(inputs[0]?.tools).toEqual([{ name: "locate", description: "The user's position", parameters: { type: "object" } }]);
    expect(inputs[1]?.threadId).toBe(inputs[0]?.threadId);
    expect(inputs[1]?.messages.slice(1)).toEqual([
      { id: "a-t1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "locate", arguments: '{"precise":true}' } }] },
      { id: expect.any(String), role: "tool", toolCallId: "t1", content: '{"lat":59.9,"lon":10.7}' },
    ]);
    // The first turn shows the call handed to the browser; the follow-up shows it answered, then the answer.
    expect(carbon.transcript()).toBe(
      ["Assistant:   How did I get this answer? locate (success)", "Assistant: You are in Oslo.", "  How did I get this answer? locate (success)"].join("\n"),
    );
  });

  it("records a handler that throws as a tool message with an error, shown as a failed step", async () => {
    const { adapter, inputs, carbon } = withRuns(
      () => {
        throw new Error("permission denied");
      },
      () => callsLocate("t1"),
      () => answers("I could not locate you."),
    );
    await adapter.sendMessage(request("Where am I?"), options(), carbon);
    expect(inputs[1]?.messages.at(-1)).toEqual({ id: expect.any(String), role: "tool", toolCallId: "t1", content: "permission denied", error: "permission denied" });
    expect(carbon.transcript()).toMatch(/I could not locate you\.\n  How did I get this answer\? locate \(failure\)$/);
  });

  it("stops with AgUiFrontendToolError after the configured number of follow-up runs", async () => {
    const { adapter, inputs, reported, carbon } = withRuns(() => "here", () => callsLocate("t1"), () => callsLocate("t2"), () => callsLocate("t3"));
    await expect(adapter.sendMessage(request("Where am I?"), options(), carbon)).rejects.toBeInstanceOf(AgUiFrontendToolError);
    expect(inputs).toHaveLength(3);
    expect(reported).toEqual(["The agent asked for frontend tools more than 2 times in one turn; stopped"]);
    expect(carbon.waitingForFinal).toEqual([]);
  });

  it("starts no follow-up for pending calls of tools without a handler", async () => {
    const inputs: RunAgentInput[] = [];
    const adapter = new CarbonAgUiAdapter({ tools: [{ name: "locate", description: "Answered elsewhere" }], run: (input) => (inputs.push(input), callsLocate("t1")) });
    await adapter.sendMessage(request("Where am I?"), options(), new CarbonRecorder());
    expect(inputs).toHaveLength(1);
  });

  it("starts no follow-up once the person pressed stop", async () => {
    const controller = new AbortController();
    const { adapter, inputs, carbon } = withRuns(
      () => {
        controller.abort(CancellationReason.STOP_STREAMING);
        return "here";
      },
      () => callsLocate("t1"),
      () => answers("never"),
    );
    await adapter.sendMessage(request("Where am I?"), options(controller.signal), carbon);
    expect(inputs).toHaveLength(1);
  });
});

