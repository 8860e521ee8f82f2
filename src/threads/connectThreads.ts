import type { BaseEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { asyncScheduler, from, Observable, ReplaySubject, type Subscription } from "rxjs";
import { AgUiThreadServerError, CarbonAgUiError } from "../errors";
import { randomId } from "../internal/ids";
import { isRecord } from "../internal/isRecord";
import type { AgentThreads, ServerThread } from "./agentThreads";
import { emptyInput, type ThreadConnect } from "./connectSources";
import { ReplayReading } from "./connectReplay";
import { threadServerError } from "./threadServerError";

export { agentConnect, httpConnect, implementsConnect, type HttpConnectOptions, type ThreadConnect } from "./connectSources";

export interface ConnectThreadsOptions {
  /** Stops a thread's running run; default: the connect function's own `stopRun`, if it has one. */
  stopRun?: (threadId: string, runId: string) => Promise<void>;
}

/**
 * The threads an AG-UI `connect` gives (CopilotKit's runtime: its agent
 * runner's recorded events; `httpConnect` or `agentConnect` make the
 * function). `load(threadId)` connects with an empty input and reads the
 * replay (`ReplayReading`): the thread is its recorded runs, which the chat
 * replays through its stages (`ServerThreadOfRuns`); a thread the server
 * sends nothing for (CopilotKit: an empty stream for a thread its runner
 * does not know) is undefined.
 *
 * The protocol says where the replay ends: the stream completing
 * (CopilotKit completes it at once when no run is going, else when that run
 * ends). A run still open when what the stream sent together has been read
 * (the end of the task of the adapter's scheduler in which its last event
 * came) is the live one: the thread is given then, with `running`, that
 * run's events from its RUN_STARTED, then the live rest of the stream,
 * whose later runs (if the open one was recorded after all, on a slow
 * connection) the chat plays as turns of their own. Nothing the stream
 * brings is dropped, however long it pauses. A second subscription to
 * `running`, once the first has let go, connects again and takes the run
 * from its RUN_STARTED there.
 *
 * Errors reject as `AgUiThreadServerError`: HTTP 401/403 `forbidden`, 404
 * `not-found` (CopilotKit: no such agent), no answer or a broken connection
 * `unreachable`, an answer that is not an event stream or an event that does
 * not parse `unreadable`.
 */
export function connectThreads(connect: ThreadConnect, options: ConnectThreadsOptions = {}): AgentThreads {
  const stopRun = options.stopRun ?? connect.stopRun;
  const open = (threadId: string) => from(connect(emptyInput(threadId, randomId())));

  return {
    load: (threadId, { scheduler = asyncScheduler, onWarning } = {}) =>
      new Promise<ServerThread | undefined>((resolve, reject) => {
        const reading = new ReplayReading();
        /** Once the thread is given with a run still open: the stream from that run on. */
        let live: ReplaySubject<BaseEvent> | undefined;
        let subscription: Subscription | undefined;
        let check: Subscription | undefined;
        let over = false;

        const give = (running: boolean) => {
          check?.unsubscribe();
          if (reading.stray > 0) onWarning?.(new CarbonAgUiError(`The connect stream of thread ${threadId} sent ${reading.stray} event(s) outside any run; they were skipped`));
          if (!running) {
            // A run cut short by the stream's end is recorded as it is: the replay shows it failed, as live.
            const runs = reading.open ? [...reading.recorded, reading.open] : reading.recorded;
            return resolve(runs.length === 0 ? undefined : { threadId, runs });
          }
          const runStarted = reading.open![0] as BaseEvent & { runId?: unknown };
          const runId = String(runStarted.runId);
          live = new ReplaySubject<BaseEvent>();
          for (const event of reading.open!) live.next(event);
          resolve({
            threadId,
            runs: reading.recorded,
            runningStarted: runStarted,
            running: runningStream(threadId, runId, live, () => (over ? undefined : subscription), open),
            ...(stopRun && { stopRunning: () => stopRun(threadId, runId).catch((error: unknown) => Promise.reject(threadServerError("rejoin", threadId, error))) }),
          });
        };
        const end = () => {
          over = true;
          check?.unsubscribe();
          subscription?.unsubscribe();
        };

        subscription = open(threadId).subscribe({
          next(event) {
            if (live) return live.next(event);
            if (!isRecord(event) || typeof event.type !== "string") {
              end();
              return reject(new AgUiThreadServerError("load", threadId, "unreadable", undefined, { cause: new TypeError("An AG-UI event must be an object with a string `type`") }));
            }
            reading.push(event);
            check?.unsubscribe();
            // What the stream sent together is read together; a run open once it has been is the live one.
            if (reading.open) check = scheduler.schedule(() => give(true));
          },
          error(error: unknown) {
            over = true;
            check?.unsubscribe();
            if (live) live.error(threadServerError("rejoin", threadId, error));
            else reject(threadServerError("load", threadId, error));
          },
          complete() {
            over = true;
            if (live) live.complete();
            else give(false);
          },
        });
        if (over) subscription.unsubscribe();
      }),
  };
}

/**
 * The running run for the chat: the first subscription takes the load's
 * own connection (its buffer from RUN_STARTED, then live); unsubscribing
 * closes that connection. Any later one connects again and keeps the
 * events from the run's RUN_STARTED on.
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
        inRun ||= event.type === EventType.RUN_STARTED && (event as { runId?: unknown }).runId === runId;
        if (inRun) subscriber.next(event);
      },
      error: (error: unknown) => subscriber.error(threadServerError("rejoin", threadId, error)),
      complete: () => subscriber.complete(),
    });
    return () => inner.unsubscribe();
  });
}
