import type { BaseEvent, Interrupt, Message, RunAgentInput } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { asyncScheduler, defer, from, Observable, ReplaySubject, type ObservableInput, type Subscription } from "rxjs";
import { Conversation } from "../conversation";
import { AgUiConnectionError, AgUiHttpError, AgUiThreadServerError } from "../errors";
import { randomId } from "../internal/ids";
import { isRecord } from "../internal/isRecord";
import { agUiToCarbon } from "../operators/agUiToCarbon";
import { createSseRunner } from "../runners/createSseRunner";
import type { AgentThreads, ServerThread } from "./agentThreads";
import { threadServerError, UnreadableThreadError } from "./threadServerError";

/**
 * An AG-UI `connect`: the thread's recorded events replayed, then the run
 * still going on it live, if there is one (CopilotKit runtime v2's
 * `<base>/agent/<agentId>/connect` route; `AbstractAgent.connect`).
 * `stopRun`, when the server has a way to stop a thread's run.
 */
export interface ThreadConnect {
  (input: RunAgentInput): ObservableInput<BaseEvent>;
  /** Stops the thread's run `runId` on the server (CopilotKit: `POST <base>/agent/<agentId>/stop/<threadId>`). */
  stopRun?: (threadId: string, runId: string) => Promise<void>;
}

export interface ConnectThreadsOptions {
  /**
   * How long the stream must stay silent, in ms, before what came is taken
   * as the whole replay (see `connectThreads`). Default 200.
   */
  settleMs?: number;
  /** Stops a thread's running run; default: the connect function's own `stopRun`, if it has one. */
  stopRun?: (threadId: string, runId: string) => Promise<void>;
}

const DEFAULT_SETTLE_MS = 200;

/**
 * The threads an AG-UI `connect` gives (CopilotKit's runtime: its agent
 * runner's recorded events; `httpConnect` or `agentConnect` make the
 * function). `load(threadId)` connects with an empty input and reads the
 * replay:
 *
 * - messages: each recorded run's events applied, in order, to a fresh
 *   `Conversation` through the same stages a live run goes through (so the
 *   ids and contents are those the chat built live), after the new messages
 *   its `RUN_STARTED.input` echoes (CopilotKit records there the messages a
 *   run brought, the person's among them); the run still going adds only
 *   those;
 * - state: its `RUN_STARTED.input.state`, then its STATE_SNAPSHOT and
 *   STATE_DELTA events;
 * - interrupts: the interrupt outcome of the last run's RUN_FINISHED, when
 *   no run follows it;
 * - a thread the server sends nothing for (CopilotKit: an empty stream for a
 *   thread its runner does not know) is undefined.
 *
 * Where the replay ends: the stream completing (CopilotKit completes it at
 * once when no run is going, else when that run ends), or the stream staying
 * silent for `settleMs` (a connect that stays attached; a run still going,
 * whose model is between two parts). CopilotKit's `InMemoryAgentRunner`
 * writes the whole replay at once (the recorded runs compacted, then the
 * running run's events so far, from its RUN_STARTED), so a silence inside it
 * is only the network's. A run started and not ended when the replay is
 * over is `running`: its events from its RUN_STARTED (those replayed, then
 * the live rest, through its RUN_FINISHED or RUN_ERROR), on the same
 * connection; a run that streams without a pause of `settleMs` is read to
 * its end first, and the thread then has no `running`. A second
 * subscription to `running`, once the first has let go, connects again and
 * takes the run from its RUN_STARTED there.
 *
 * Errors reject as `AgUiThreadServerError`: HTTP 401/403 `forbidden`, 404
 * `not-found` (CopilotKit: no such agent), no answer or a broken connection
 * `unreachable`, an answer that is not an event stream or an event that does
 * not parse `unreadable`.
 */
export function connectThreads(connect: ThreadConnect, options: ConnectThreadsOptions = {}): AgentThreads {
  const { settleMs = DEFAULT_SETTLE_MS } = options;
  const stopRun = options.stopRun ?? connect.stopRun;
  const open = (threadId: string) => from(connect(emptyInput(threadId)));

  return {
    load: (threadId) =>
      new Promise<ServerThread | undefined>((resolve, reject) => {
        const replayed: BaseEvent[] = [];
        /** Where the run started and not yet ended begins in `replayed`. */
        let openAt: number | undefined;
        let live: ReplaySubject<BaseEvent> | undefined;
        let timer: ReturnType<typeof setTimeout> | undefined;
        let subscription: Subscription | undefined;
        let ended = false;

        const settle = () => {
          timer = undefined;
          if (openAt === undefined) {
            // Nothing going: what came is the thread.
            ended = true;
            subscription?.unsubscribe();
            return finish(replayed, undefined);
          }
          const runStarted = replayed[openAt] as BaseEvent & { runId?: unknown };
          const runId = String(runStarted.runId);
          live = new ReplaySubject<BaseEvent>();
          for (const event of replayed.slice(openAt)) live.next(event);
          finish(replayed.slice(0, openAt), { runStarted, stream: runningStream(threadId, runId, live, () => (ended ? undefined : subscription), open) });
        };

        const finish = (events: readonly BaseEvent[], running: { runStarted: BaseEvent; stream: Observable<BaseEvent> } | undefined) => {
          if (events.length === 0 && !running) return resolve(undefined);
          let thread: ServerThread;
          try {
            thread = threadOf(threadId, events, running?.runStarted);
          } catch (error) {
            return reject(error instanceof AgUiThreadServerError ? error : new AgUiThreadServerError("load", threadId, "unreadable", undefined, { cause: error }));
          }
          if (!running) return resolve(thread);
          const runId = String((running.runStarted as { runId?: unknown }).runId);
          resolve({ ...thread, running: running.stream, ...(stopRun && { stopRunning: () => stopRun(threadId, runId).catch((error: unknown) => Promise.reject(threadServerError("rejoin", threadId, error))) }) });
        };

        subscription = open(threadId).subscribe({
          next(event) {
            if (live) {
              live.next(event);
              if (isRunEnd(event)) {
                ended = true;
                live.complete();
                subscription?.unsubscribe();
              }
              return;
            }
            if (!isRecord(event) || typeof event.type !== "string") {
              ended = true;
              clearTimeout(timer);
              subscription?.unsubscribe();
              return reject(new AgUiThreadServerError("load", threadId, "unreadable", undefined, { cause: new TypeError("An AG-UI event must be an object with a string `type`") }));
            }
            replayed.push(event);
            if (event.type === EventType.RUN_STARTED) openAt = replayed.length - 1;
            else if (isRunEnd(event)) openAt = undefined;
            clearTimeout(timer);
            timer = setTimeout(settle, settleMs);
          },
          error(error: unknown) {
            ended = true;
            clearTimeout(timer);
            if (live) live.error(threadServerError("rejoin", threadId, error));
            else reject(threadServerError("load", threadId, error));
          },
          complete() {
            ended = true;
            clearTimeout(timer);
            if (live) live.complete();
            else finish(replayed, undefined);
          },
        });
        if (ended) subscription.unsubscribe();
      }),
  };
}

/** The input `load` connects with: the thread, a fresh run id, nothing else. */
function emptyInput(threadId: string): RunAgentInput {
  return { threadId, runId: randomId(), messages: [], state: {}, tools: [], context: [], forwardedProps: {} };
}

function isRunEnd(event: BaseEvent): boolean {
  return event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
}

/**
 * The running run for the chat: the first subscription takes the load's
 * own connection (its buffer from RUN_STARTED, then live); unsubscribing
 * closes that connection. Any later one connects again and keeps the
 * events from the run's RUN_STARTED through its end.
 */
function runningStream(threadId: string, runId: string, live: ReplaySubject<BaseEvent>, connection: () => Subscription | undefined, open: (threadId: string) => Observable<BaseEvent>): Observable<BaseEvent> {
  let taken = false;
  return new Observable<BaseEvent>((subscriber) => {
    if (!taken) {
      taken = true;
      const inner = live.subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        connection()?.unsubscribe();
      };
    }
    let inRun = false;
    const inner = open(threadId).subscribe({
      next(event) {
        if (!inRun) {
          inRun = event.type === EventType.RUN_STARTED && (event as { runId?: unknown }).runId === runId;
          if (!inRun) return;
        }
        subscriber.next(event);
        if (isRunEnd(event)) {
          subscriber.complete();
          inner?.unsubscribe();
        }
      },
      error: (error: unknown) => subscriber.error(threadServerError("rejoin", threadId, error)),
      complete: () => subscriber.complete(),
    });
    return () => inner.unsubscribe();
  });
}

// ---------------------------------------------------------------------------
// The replay as a thread

/** The runs of `events`: each from its RUN_STARTED (events before the first make a run of their own). */
function runsOf(events: readonly BaseEvent[]): BaseEvent[][] {
  const runs: BaseEvent[][] = [];
  for (const event of events) {
    if (event.type === EventType.RUN_STARTED || runs.length === 0) runs.push([]);
    runs.at(-1)?.push(event);
  }
  return runs;
}

/** The thread the recorded `events` make, with `runStarted` (the run still going) adding its input's messages. */
function threadOf(threadId: string, events: readonly BaseEvent[], runStarted: BaseEvent | undefined): ServerThread {
  // The state is read once at the end: a scheduler that never needs to run.
  const conversation = new Conversation({ threadId, scheduler: asyncScheduler });
  let interrupts: readonly Interrupt[] = [];
  for (const run of runsOf(events)) {
    takeInput(conversation, run[0]);
    interrupts = [];
    for (const event of run) if (event.type === EventType.RUN_FINISHED) interrupts = interruptsOf(event);
    // Synchronous: the events are an array, and nothing is merged in time (no coalescing).
    from(run)
      .pipe(agUiToCarbon({ conversation, coalesce: false, onWarning: () => undefined, onInvalidEvent: () => undefined }))
      .subscribe({ error: () => undefined });
  }
  if (runStarted) {
    takeInput(conversation, runStarted);
    interrupts = [];
  }
  return { threadId, messages: conversation.messages, state: conversation.state, interrupts };
}

/** What a RUN_STARTED's echoed input brings: its messages the conversation does not hold yet, and the state the run began with. */
function takeInput(conversation: Conversation, event: BaseEvent | undefined): void {
  if (event?.type !== EventType.RUN_STARTED) return;
  const input = (event as { input?: unknown }).input;
  if (!isRecord(input)) return;
  if (Array.isArray(input.messages)) {
    for (const message of input.messages as unknown[]) {
      if (!isRecord(message) || typeof message.id !== "string" || typeof message.role !== "string") throw new TypeError("A RUN_STARTED input message has no id or role");
      if (!conversation.hasMessage(message.id)) conversation.upsertMessage(message as unknown as Message);
    }
  }
  if (input.state !== undefined && input.state !== null) conversation.replaceState(input.state);
}

/** The interrupts of a RUN_FINISHED's interrupt outcome. */
function interruptsOf(event: BaseEvent): readonly Interrupt[] {
  const outcome = (event as { outcome?: unknown }).outcome;
  if (!isRecord(outcome) || outcome.type !== "interrupt" || !Array.isArray(outcome.interrupts)) return [];
  return outcome.interrupts as Interrupt[];
}

// ---------------------------------------------------------------------------
// Where a connect comes from

/** What of `@ag-ui/client`'s `AbstractAgent` this file uses (`connect` is protected there). */
interface ConnectingAgent {
  connect?: unknown;
  connectAgent?: unknown;
}

/**
 * Whether `agent` implements AG-UI's `connect`, decided without a call: it
 * has a `connect`, and it is not the one of `@ag-ui/client`'s
 * `AbstractAgent`, the base class every agent of `@ag-ui/client` extends (in
 * 1.0, the deepest class of its prototype chain that defines both `connect`
 * and `connectAgent`; its `connect` throws `AGUIConnectNotImplementedError`).
 * An object outside that class tree with a `connect` of its own implements
 * it. `HttpAgent` and `@ag-ui/langgraph`'s agent do not; CopilotKit's
 * `ProxiedCopilotRuntimeAgent` does.
 */
export function implementsConnect(agent: unknown): boolean {
  if (!isRecord(agent) && typeof agent !== "function") return false;
  const own = (agent as ConnectingAgent).connect;
  if (typeof own !== "function") return false;
  let base: ConnectingAgent | undefined;
  for (let proto: unknown = Object.getPrototypeOf(agent); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (Object.prototype.hasOwnProperty.call(proto, "connect") && Object.prototype.hasOwnProperty.call(proto, "connectAgent")) base = proto as ConnectingAgent;
  }
  return own !== base?.connect;
}

/**
 * The `connect` of an `@ag-ui/client` agent that implements it (see
 * `implementsConnect`; CopilotKit's `ProxiedCopilotRuntimeAgent`): its
 * protected `connect(input)`, called as `connectAgent` calls it, without
 * touching the agent's messages or state. Throws a `TypeError` for an agent
 * without one.
 */
export function agentConnect(agent: object): ThreadConnect {
  if (!implementsConnect(agent)) throw new TypeError("agentConnect: this agent does not implement AG-UI's connect (its connect is AbstractAgent's, which throws AGUIConnectNotImplementedError)");
  const connect = (agent as { connect: (input: RunAgentInput) => ObservableInput<BaseEvent> }).connect;
  return (input) => defer(() => from(connect.call(agent, input)));
}

export interface HttpConnectOptions {
  /** The connect route: CopilotKit runtime v2's `<basePath>/agent/<agentId>/connect`. */
  url: string | URL;
  /** Extra request headers, or a function (may be async) that makes them for each request. */
  headers?: Record<string, string> | ((input: RunAgentInput) => Record<string, string> | Promise<Record<string, string>>);
  /** Your own `fetch`. Default: the global one. */
  fetch?: typeof fetch;
}

/**
 * CopilotKit runtime v2's connect route over HTTP: POSTs the `RunAgentInput`
 * to `url` (`<basePath>/agent/<agentId>/connect`) and reads the server-sent
 * events as `createSseRunner` reads a run's (an event that does not parse
 * fails the stream). Its `stopRun` POSTs `{ runId }` to the runtime's stop
 * route, `<basePath>/agent/<agentId>/stop/<threadId>`, when `url` ends in
 * `/connect`.
 */
export function httpConnect(options: HttpConnectOptions): ThreadConnect {
  const { url, headers, fetch: fetchImpl } = options;
  const connect: ThreadConnect = (input) =>
    new Observable<BaseEvent>((subscriber) => {
      const controller = new AbortController();
      const run = createSseRunner({
        url,
        ...(headers !== undefined && { headers }),
        ...(fetchImpl !== undefined && { fetch: fetchImpl }),
        onParseError: (raw, error) => subscriber.error(new UnreadableThreadError(`An event of the connect stream does not parse: ${raw.slice(0, 80)}`, { cause: error })),
      });
      const inner = run(input, { signal: controller.signal }).subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        controller.abort();
      };
    });
  const href = String(url);
  if (/\/connect\/?$/.test(href)) {
    const fetching = fetchImpl ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
    connect.stopRun = async (threadId, runId) => {
      const stopUrl = href.replace(/\/connect\/?$/, `/stop/${encodeURIComponent(threadId)}`);
      const extra = typeof headers === "function" ? await headers(emptyInput(threadId)) : headers;
      let response: Response;
      try {
        response = await fetching(stopUrl, { method: "POST", headers: { "content-type": "application/json", ...extra }, body: JSON.stringify({ runId }) });
      } catch (error) {
        throw new AgUiConnectionError(`Could not reach the agent at ${stopUrl}`, { cause: error });
      }
      if (!response.ok) throw new AgUiHttpError(response.status, response.statusText, await response.text().then((text) => text.slice(0, 4096), () => ""));
      await response.body?.cancel().catch(() => undefined);
    };
  }
  return connect;
}
