import type { BaseEvent, Interrupt, Message, RunAgentInput } from "@ag-ui/core";
import { Observable, Subject } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../src/adapter";
import { AgUiConnectionError, AgUiThreadServerError, type CarbonAgUiError } from "../src/errors";
import { memoryStore } from "../src/persistence/memoryStore";
import type { CarbonHistoryItem, CarbonHistoryResponse } from "../src/persistence/restore";
import type { AgentThreads, ServerThread } from "../src/threads/agentThreads";
import { ev } from "./support/builders";
import { waitUntil } from "./support/runs";

const request = (text: string, id = `u-${text}`) => ({ id, input: { text }, history: {} });
const sendOptions = () => ({ signal: new AbortController().signal, silent: false });
const approval: Interrupt = { id: "int-1", reason: "tool_approval", message: "Send it?", toolCallId: "call-2" };

/**
 * An agent that keeps its threads, as LangGraph's server does: each run's
 * messages (the input's and the answer's, rebuilt from its events by the
 * spec's own small reading) and its pending interrupts, by thread.
 */
class KeepingAgent {
  readonly threads = new Map<string, { messages: Message[]; interrupts: Interrupt[] }>();
  readonly inputs: RunAgentInput[] = [];
  running: { threadId: string; events: Subject<BaseEvent> } | undefined;
  stops = 0;
  failWith: Error | undefined;

  constructor(private readonly answers: ((input: RunAgentInput) => BaseEvent[])[]) {}

  readonly run = (input: RunAgentInput) => {
    this.inputs.push(input);
    const events = this.answers[this.inputs.length - 1]?.(input) ?? [ev.runStarted(), ev.runFinished()];
    this.keep(input, events);
    return events;
  };

  private keep(input: RunAgentInput, events: readonly BaseEvent[]): void {
    const messages = [...input.messages];
    let interrupts: Interrupt[] = [];
    for (const event of events as (BaseEvent & Record<string, unknown>)[]) {
      if (event.type === "TEXT_MESSAGE_START") messages.push({ id: event.messageId as string, role: "assistant", content: "" });
      if (event.type === "TEXT_MESSAGE_CONTENT") {
        const message = messages.find((candidate) => candidate.id === event.messageId) as { content: string };
        message.content += event.delta as string;
      }
      if (event.type === "TOOL_CALL_START") {
        messages.push({ id: `m-${event.toolCallId}`, role: "assistant", toolCalls: [{ id: event.toolCallId as string, type: "function", function: { name: event.toolCallName as string, arguments: "" } }] });
      }
      if (event.type === "TOOL_CALL_ARGS") {
        const call = messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).find((candidate) => candidate.id === event.toolCallId)!;
        call.function.arguments += event.delta as string;
      }
      if (event.type === "TOOL_CALL_RESULT") messages.push({ id: event.messageId as string, role: "tool", toolCallId: event.toolCallId as string, content: event.content as string });
      if (event.type === "RUN_FINISHED") interrupts = ((event.outcome as { interrupts?: Interrupt[] } | undefined)?.interrupts ?? []);
    }
    this.threads.set(input.threadId, { messages, interrupts });
  }

  readonly agentThreads: AgentThreads = {
    load: async (threadId): Promise<ServerThread | undefined> => {
      if (this.failWith) throw this.failWith;
      const thread = this.threads.get(threadId);
      if (!thread) return undefined;
      const running = this.running?.threadId === threadId ? this.running.events : undefined;
      return { threadId, messages: thread.messages, state: {}, interrupts: thread.interrupts, ...(running && { running, stopRunning: async () => void this.stops++ }) };
    },
    list: async () => [...this.threads.keys()].map((threadId) => ({ threadId, title: `Server's ${threadId}`, savedAt: "2026-12-01T00:00:00.000Z" })),
    remove: async (threadId) => void this.threads.delete(threadId),
  };
}

function adapterOn(agent: KeepingAgent, extra: Partial<CarbonAgUiAdapterOptions> = {}) {
  const errors: CarbonAgUiError[] = [];
  const adapter = new CarbonAgUiAdapter({ threadId: "thread-1", coalesce: false, run: agent.run, threads: agent.agentThreads, onError: (error) => errors.push(error), ...extra });
  return { adapter, errors };
}

/** A thread whose story run goes on on the server: the events so far ("Once "), then what `live` brings. */
function storyGoingOn() {
  const agent = new KeepingAgent([]);
  agent.threads.set("thread-1", { messages: [{ id: "u-story", role: "user", content: "Tell a story" }], interrupts: [] });
  const live = new Subject<BaseEvent>();
  const replayed = [ev.runStarted(), ev.textStart("a1"), ev.text("a1", "Once ")];
  agent.running = { threadId: "thread-1", events: new Observable<BaseEvent>((subscriber) => (replayed.forEach((event) => subscriber.next(event)), live.subscribe(subscriber))) as Subject<BaseEvent> };
  return { agent, live };
}

/** The rest of the story, and the run's end. */
function finishStory(live: Subject<BaseEvent>) {
  live.next(ev.text("a1", "upon a time."));
  live.next(ev.textEnd("a1"));
  live.next(ev.runFinished());
  live.complete();
}

const responses = (history: CarbonHistoryItem[]) => history.filter((item) => "output" in item.message).map((item) => item.message as CarbonHistoryResponse);
const weather = () => ev.run(ev.toolCall("call-1", "weather", { city: "Oslo" }), ev.toolResult("call-1", "9 °C"), ev.message("a1", "Mild, 9 °C."));
const card = () => ev.run(ev.toolCall("call-2", "send", { to: "team" }), ev.interrupt(approval));

describe("a thread the agent's server keeps", () => {
  it("restores on another device with no store: the requests, the answers with their tool steps, and the pending interrupt as a live card whose answer resumes the thread", async () => {
    const agent = new KeepingAgent([weather, card, () => ev.run(ev.message("a3", "Sent."))]);
    const first = adapterOn(agent);
    await first.adapter.sendMessage(request("Weather?"), sendOptions(), new CarbonRecorder());
    await first.adapter.sendMessage(request("Tell the team"), sendOptions(), new CarbonRecorder());

    const second = adapterOn(agent);
    const history = await second.adapter.loadHistory(new CarbonRecorder());
    expect(history.filter((item) => "input" in item.message).map((item) => (item.message as { input: { text: string } }).input.text)).toEqual(["Weather?", "Tell the team"]);
    const [answer, asking] = responses(history);
    expect(answer!.output.generic.map((item) => item.text)).toEqual(["Mild, 9 °C."]);
    expect(answer!.message_options?.chain_of_thought?.map((step) => [step.tool_name, step.status, step.response?.content])).toEqual([["weather", "success", "9 °C"]]);
    expect(asking!.output.generic.some((item) => item.response_type === "user_defined" && (item.user_defined as { interruptId?: string }).interruptId === "int-1")).toBe(true);
    expect(second.adapter.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(["int-1"]);
    expect(second.adapter.messages).toEqual(agent.threads.get("thread-1")!.messages);

    await second.adapter.respondToInterrupt({ type: "approve" }, new CarbonRecorder());
    expect(agent.inputs[2]).toMatchObject({ threadId: "thread-1", resume: [{ interruptId: "int-1", status: "resolved" }] });
    expect(second.errors).toEqual([]);
  });

  it("asks again for a call of a tool the person answers that the server's thread leaves without a result, and the answer goes to the agent", async () => {
    const pickColor = { name: "pick_color", description: "The person picks a color", parameters: { type: "object", properties: { color: { type: "string" } } } };
    const agent = new KeepingAgent([() => ev.run(ev.toolCall("call-9", "pick_color", {})), () => ev.run(ev.message("a2", "Blue it is."))]);
    await adapterOn(agent, { tools: [pickColor] }).adapter.sendMessage(request("Pick a color for me"), sendOptions(), new CarbonRecorder());

    const other = adapterOn(agent, { tools: [pickColor] });
    const history = await other.adapter.loadHistory(new CarbonRecorder());
    expect(responses(history).at(-1)!.output.generic.some((item) => item.response_type === "user_defined")).toBe(true);
    expect(other.adapter.pendingInterrupts.map((entry) => [entry.interrupt.reason, entry.interrupt.toolCallId])).toEqual([["client_tool", "call-9"]]);
    await other.adapter.respondToToolCall("call-9", { color: "blue" }, new CarbonRecorder());
    expect(agent.inputs[1]!.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "call-9", content: '{"color":"blue"}' });
    expect(other.errors).toEqual([]);
  });

  it("keeps what only this browser knew of a turn the server holds unchanged, and shows the server's turn where it changed", async () => {
    const agent = new KeepingAgent([() => ev.run(ev.message("a1", "First answer.")), () => ev.run(ev.message("a2", "Second answer."))]);
    const store = memoryStore();
    const first = adapterOn(agent, { persistence: { store, channel: false } });
    const carbon = new CarbonRecorder();
    await first.adapter.sendMessage(request("One"), sendOptions(), carbon);
    await first.adapter.sendMessage(request("Two"), sendOptions(), carbon);
    const firstAnswer = carbon.chunks.find((chunk) => "final_response" in chunk) as { final_response: { id: string } };
    for (const { type, handler } of carbon.listeners) {
      if (type === "feedback") await handler({ type, interactionType: "submitted", message: { id: firstAnswer.final_response.id }, messageItem: { message_item_options: { feedback: { id: "f1" } } }, isPositive: true } as never, carbon);
    }
    await first.adapter.saveNow();
    // Another device changed the second turn's answer on the server.
    const kept = agent.threads.get("thread-1")!;
    (kept.messages[3] as { content: string }).content = "Second answer, redone elsewhere.";

    const again = adapterOn(agent, { persistence: { store, channel: false } });
    const shown = responses(await again.adapter.loadHistory(new CarbonRecorder()));
    expect(shown.map((response) => response.output.generic.map((item) => item.text).join(""))).toEqual(["First answer.", "Second answer, redone elsewhere."]);
    expect(shown[0]!.history.feedback).toEqual({ f1: { is_positive: true } });
    expect((again.adapter.messages[3] as { content: string }).content).toBe("Second answer, redone elsewhere.");
  });

  it.each([
    ["the page goes away, then the unload breaks the connection", true, new TypeError("network error")],
    ["the reload aborts the connection before the page goes away (Chromium)", false, new AgUiConnectionError("The connection to the agent broke off mid-stream")],
  ])("shows the server's finished answer whole after a reload mid-answer (%s): no mark the browser did not earn", async (_case, pageHides, broken) => {
    const page = new EventTarget();
    Object.assign(globalThis, { addEventListener: page.addEventListener.bind(page), removeEventListener: page.removeEventListener.bind(page) });
    try {
      let emit: { next(event: BaseEvent): void; error(error: unknown): void } | undefined;
      const agent = new KeepingAgent([]);
      const store = memoryStore();
      const first = adapterOn(agent, {
        persistence: { store, channel: false },
        run: (input) => {
          agent.inputs.push(input);
          return new Observable<BaseEvent>((subscriber) => void (emit = subscriber));
        },
      });
      const carbon = new CarbonRecorder();
      const sent = first.adapter.sendMessage(request("Tell me a story"), sendOptions(), carbon);
      await waitUntil(() => emit !== undefined);
      // The whole story came, but not the run's end.
      for (const event of [ev.runStarted(), ...ev.message("a1", "Once upon a time, ", "the end.")]) emit!.next(event);
      await waitUntil(() => carbon.chunks.length > 0);
      if (pageHides) page.dispatchEvent(new Event("pagehide"));
      emit!.error(broken);
      await sent;
      await first.adapter.saveNow();
      // The run went on on the server, to its end: what the browser saw.
      agent.threads.set("thread-1", { messages: [{ id: "u-Tell me a story", role: "user", content: "Tell me a story" }, { id: "a1", role: "assistant", content: "Once upon a time, the end." }], interrupts: [] });

      const again = adapterOn(agent, { persistence: { store, channel: false } });
      const shown = responses(await again.adapter.loadHistory(new CarbonRecorder()));
      expect(shown.map((response) => response.output.generic.map((item) => [item.response_type, item.text, item.streaming_metadata?.stream_stopped]))).toEqual([[["text", "Once upon a time, the end.", undefined]]]);
    } finally {
      delete (globalThis as { addEventListener?: unknown }).addEventListener;
      delete (globalThis as { removeEventListener?: unknown }).removeEventListener;
    }
  });

  it("keeps a mark this browser alone knows only while the server's turn is the one it saw: a stop the person pressed stays on the answer the server holds unchanged", async () => {
    let emit: ((event: BaseEvent) => void) | undefined;
    const agent = new KeepingAgent([]);
    const store = memoryStore();
    const first = adapterOn(agent, { persistence: { store, channel: false }, run: () => new Observable<BaseEvent>((subscriber) => void (emit = (event) => subscriber.next(event))) });
    const carbon = new CarbonRecorder();
    const sent = first.adapter.sendMessage(request("Tell me a story"), sendOptions(), carbon);
    await waitUntil(() => emit !== undefined);
    for (const event of [ev.runStarted(), ev.textStart("a1"), ev.text("a1", "Half of it")]) emit!(event);
    await waitUntil(() => carbon.chunks.length > 0);
    await carbon.pressStop();
    await sent;
    await first.adapter.saveNow();
    // The server holds what the browser saw: the stop is the browser's to tell.
    agent.threads.set("thread-1", { messages: [{ id: "u-Tell me a story", role: "user", content: "Tell me a story" }, { id: "a1", role: "assistant", content: "Half of it" }], interrupts: [] });
    const again = adapterOn(agent, { persistence: { store, channel: false } });
    const [shown] = responses(await again.adapter.loadHistory(new CarbonRecorder()));
    expect(shown!.output.generic.at(-1)).toMatchObject({ text: "Half of it", streaming_metadata: { stream_stopped: true } });
    // Changed there since: the server's turn, without the mark.
    (agent.threads.get("thread-1")!.messages[1] as { content: string }).content = "Half of it, and the rest.";
    const later = adapterOn(agent, { persistence: { store, channel: false } });
    const [changed] = responses(await later.adapter.loadHistory(new CarbonRecorder()));
    expect(changed!.output.generic.at(-1)).toMatchObject({ text: "Half of it, and the rest." });
    expect(changed!.output.generic.at(-1)?.streaming_metadata?.stream_stopped).toBeUndefined();
  });

  it.each([
    ["unreachable", new AgUiThreadServerError("load", "thread-1", "unreachable", undefined, { cause: new Error("fetch failed") }), "did not answer"],
    ["forbidden", new AgUiThreadServerError("load", "thread-1", "forbidden", 403), "may not open"],
    ["a plain failure", new Error("boom"), "could not give"],
    // A source of the host's own that lets fetch's error through is classified as the library's sources are.
    ["unreachable through a source of the host's", new TypeError("fetch failed"), "did not answer"],
  ])("starts empty with one line saying why when the server is %s, tells onError, and deletes nothing local", async (_name, failure, words) => {
    const agent = new KeepingAgent([() => ev.run(ev.message("a1", "Kept."))]);
    const store = memoryStore();
    await adapterOn(agent, { persistence: { store, channel: false } }).adapter.sendMessage(request("One"), sendOptions(), new CarbonRecorder());
    agent.failWith = failure;

    const { adapter, errors } = adapterOn(agent, { persistence: { store, channel: false } });
    const history = await adapter.loadHistory(new CarbonRecorder());
    expect(history).toHaveLength(1);
    expect(responses(history)[0]!.output.generic[0]).toMatchObject({ response_type: "inline_error", text: expect.stringContaining(words) });
    expect(errors).toEqual([expect.any(AgUiThreadServerError)]);
    expect(adapter.threadId).not.toBe("thread-1");
    expect(await store.load("thread-1")).toBeDefined();
  });

  it("says a thread the server does not hold was not found, and a thread this adapter made itself loads nothing", async () => {
    const agent = new KeepingAgent([]);
    const { adapter, errors } = adapterOn(agent, { threadId: "no-such-thread" });
    const history = await adapter.loadHistory(new CarbonRecorder());
    expect(responses(history)[0]!.output.generic[0]!.text).toContain("not on the agent's server");
    expect(errors.map((error) => [error.name, (error as AgUiThreadServerError).problem])).toEqual([["AgUiThreadServerError", "not-found"]]);

    const fresh = { adapter: new CarbonAgUiAdapter({ coalesce: false, run: agent.run, threads: agent.agentThreads, onError: (error) => errors.push(error) }), errors };
    expect(await fresh.adapter.loadHistory(new CarbonRecorder())).toEqual([]);
    expect(errors).toHaveLength(1);
  });

  it("rejoins a run still going: its answer streams into the chat once, from its start, and the stop button stops it on the server", async () => {
    const { agent, live } = storyGoingOn();

    const { adapter, errors } = adapterOn(agent);
    const carbon = new CarbonRecorder();
    const history = await adapter.loadHistory(carbon);
    expect(responses(history)).toEqual([]);
    await waitUntil(() => carbon.chunks.length > 0);
    finishStory(live);
    await waitUntil(() => carbon.waitingForFinal.length === 0 && carbon.chunks.some((chunk) => "final_response" in chunk));
    expect(carbon.transcript()).toBe("Assistant: Once upon a time.");
    expect(errors).toEqual([]);

    // Again, stopped from the chat this time.
    const second = new Subject<BaseEvent>();
    agent.running = { threadId: "thread-1", events: second };
    const stopping = adapterOn(agent);
    const chat = new CarbonRecorder();
    await stopping.adapter.loadHistory(chat);
    await waitUntil(() => second.observed);
    second.next(ev.runStarted());
    second.next(ev.textStart("a2"));
    second.next(ev.text("a2", "Half"));
    await waitUntil(() => chat.chunks.length > 0);
    await chat.pressStop();
    await waitUntil(() => agent.stops === 1);
    await waitUntil(() => chat.waitingForFinal.length === 0);
  });

  it("rejoins a run only once Carbon has laid the restored history in: Carbon lays it over what it showed meanwhile, so an answer begun before would lose its start", async () => {
    const { agent, live } = storyGoingOn();
    const { adapter, errors } = adapterOn(agent);
    const carbon = new CarbonRecorder();
    let layIn!: () => void;
    const hydrated = carbon.hydrate(adapter.loadHistory, new Promise<void>((resolve) => (layIn = resolve)));
    // Carbon goes on hydrating for a few tasks after loadHistory returned: the rejoined answer waits for it.
    for (let task = 0; task < 5; task++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(carbon.chunks).toEqual([]);
    layIn();
    await hydrated;
    await waitUntil(() => carbon.chunks.length > 0);
    finishStory(live);
    await waitUntil(() => carbon.waitingForFinal.length === 0 && carbon.chunks.some((chunk) => "final_response" in chunk));
    expect(carbon.transcript()).toBe("You: Tell a story\nAssistant: Once upon a time.");
    expect(errors).toEqual([]);
  });

  it("classifies a host source's failure to list or delete as its own sources' failures are: one classifier for every source", async () => {
    const agent = new KeepingAgent([]);
    const unreachable = new TypeError("fetch failed");
    const { adapter, errors } = adapterOn(agent, { threads: { load: async () => undefined, list: () => Promise.reject(unreachable), remove: () => Promise.reject(unreachable) } });
    await adapter.listThreads();
    await adapter.deleteThread("thread-9");
    expect(errors.map((error) => [(error as AgUiThreadServerError).operation, (error as AgUiThreadServerError).problem])).toEqual([
      ["list", "unreachable"],
      ["remove", "unreachable"],
    ]);
  });

  it("lists and deletes the server's threads", async () => {
    const agent = new KeepingAgent([() => ev.run(ev.message("a1", "Hi."))]);
    const { adapter } = adapterOn(agent);
    await adapter.sendMessage(request("Hello"), sendOptions(), new CarbonRecorder());
    expect(await adapter.listThreads()).toEqual([{ threadId: "thread-1", title: "Server's thread-1", savedAt: "2026-12-01T00:00:00.000Z" }]);
    await adapter.deleteThread("thread-1");
    expect(agent.threads.has("thread-1")).toBe(false);
  });
});
