import { defer, Observable, retry, timer, type SchedulerLike } from "rxjs";
import { createEventStreamParser, readEventStream, type EventStreamFrame } from "../internal/eventStream";
import { EventStreamError, ToolProtocolError, ToolServerError, ToolTransportError } from "./errors";
import { canBeHeader, MAX_TIMER_MS, pathSegment, sendRequest, type Transport } from "./http";
import { idleTimeout } from "./idleTimeout";
import { retryDelay, type RetryPolicy } from "./retryPolicy";
import { contentHash, createReplayWindow, MAX_SKIPPABLE_ID_LENGTH } from "./replay";
import type { RetryOptions } from "./types";

/** One server-sent event of a run. */
export interface ServerEvent<T = unknown> {
  /** The event's own `id:`; undefined when it had none. */
  id: string | undefined;
  /** The `event:` name ("message" when it had none). */
  event: string;
  /** The parsed JSON `data:` (null for a data-less `end`). */
  data: T;
}

export interface EventsOptions {
  /** Complete after delivering an event with one of these names (the server's `end` always completes). */
  closeOn?: readonly string[] | undefined;
  /** Resume after this id (sent as `Last-Event-ID` on the first connection). */
  lastEventId?: string | undefined;
  /**
   * Reconnect after this long without a byte (an event or a keep-alive), or when one event takes longer than
   * this to arrive whole from its first byte. Default 45 s: three missed 15 s keep-alives.
   */
  idleTimeoutMs?: number | undefined;
  /** Reconnects: `maxRetries` counts those in a row without a new event; `false` never reconnects. Default: the client's policy. */
  retry?: RetryOptions | false | undefined;
  /** Largest line or event, in bytes. Default 1 MiB. */
  maxEventSize?: number | undefined;
  /** Schedules the idle timeout and the backoff. Default: the client's scheduler. */
  scheduler?: SchedulerLike | undefined;
}

/**
 * What one connection yields: frames, the arrival of bytes (any of them resets the idle timer; `framePending`
 * says an event or a line has begun and not ended, which starts its arrival deadline) and the server's `retry:`.
 */
export type StreamItem = { kind: "frame"; frame: EventStreamFrame } | { kind: "bytes"; framePending: boolean } | { kind: "retry"; milliseconds: number };

/** How a consumer that cannot keep up holds the stream back (`events()` does): see `readEventStream`'s `demand`. */
export interface Demand {
  /** A promise to wait for before reading on; undefined when the consumer has room. */
  wait(): Promise<void> | undefined;
  /** True while reading waits for the consumer: silence then is ours, not the server's, so no timer counts it. */
  paused(): boolean;
}

export interface ResumeSettings {
  closeOn: ReadonlySet<string>;
  lastEventId: string | undefined;
  idleTimeoutMs: number;
  retry: RetryPolicy | false;
  scheduler: SchedulerLike;
  random: () => number;
  /** The consumer's demand, when it pulls (`events()`); the idle timer does not run while it waits. */
  demand?: Demand | undefined;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
export const DEFAULT_MAX_EVENT_SIZE = 1024 * 1024;
export const REPLAY_WINDOW_SIZE = 1024;

/**
 * A run's events across as many connections as it takes. `connect` opens
 * one (given the last event id to resume after); a connection that drops,
 * closes before `end` or stays silent for `idleTimeoutMs` is replaced after
 * a backoff (the server's `retry:` when it sent one). After a reconnect,
 * events whose id and content match one delivered among the last 1,024 are
 * skipped up to the first new one (an event without an id cannot be
 * recognised: it is delivered, and skipping goes on). `maxRetries`
 * reconnects in a row without a new event, and it gives up.
 *
 * ```
 * connect:  --a--b--X           (X: the connection drops)
 *                      ~backoff~ --b--c--end|   (b replayed)
 * result:   --a--b------------------c--end|
 * ```
 */
export function resumableEvents(connect: (lastEventId: string | undefined) => Observable<StreamItem>, settings: ResumeSettings): Observable<ServerEvent> {
  const { closeOn, idleTimeoutMs, retry: policy, scheduler, random, demand } = settings;
  return defer(() => {
    let lastEventId = settings.lastEventId;
    let connections = 0;
    let failuresInARow = 0;
    let serverRetryMs: number | undefined;
    const window = createReplayWindow(REPLAY_WINDOW_SIZE);

    const connection = defer(() => {
      let skipping = connections++ > 0;
      return new Observable<ServerEvent>((subscriber) =>
        connect(lastEventId)
          .pipe(idleTimeout(idleTimeoutMs, scheduler, demand))
          .subscribe({
            next(item) {
              if (item.kind === "retry") serverRetryMs = item.milliseconds;
              if (item.kind !== "frame") return;
              const { id, data } = item.frame;
              const name = item.frame.event || "message";
              if (data === undefined) {
                // An id alone still moves the stream's position; a data-less `end` still ends it.
                if (id !== undefined && !skipping) lastEventId = id;
                if (name !== "end") return;
                subscriber.next({ id, event: name, data: null });
                return subscriber.complete();
              }
              // Hashed once, and only for events with an id: the only ones the window can recognise.
              const content = id === undefined ? undefined : contentHash(name, data);
              if (skipping && content !== undefined && window.delivered(id!, content)) return;
              // Only an event with an id can prove the replay is over; one without could be replayed or new, so it
              // is delivered (never lost) and skipping goes on.
              if (id !== undefined) skipping = false;
              let parsed: unknown;
              try {
                parsed = JSON.parse(data);
              } catch {
                return subscriber.error(new EventStreamError(`Event ${id === undefined ? "(without an id)" : JSON.stringify(id.slice(0, MAX_SKIPPABLE_ID_LENGTH))} carries data that is not JSON`, id));
              }
              if (id !== undefined) {
                if (!window.knows(id)) failuresInARow = 0;
                window.remember(id, content!);
                lastEventId = id;
              }
              subscriber.next({ id, event: name, data: parsed });
              if (name === "end" || closeOn.has(name)) subscriber.complete();
            },
            error: (error: unknown) => subscriber.error(error),
            complete: () => subscriber.error(new ToolTransportError("The server closed the event stream before its end event", "network", true)),
          }),
      );
    });

    if (policy === false) return connection;
    return connection.pipe(
      retry({
        delay: (error: unknown) => {
          failuresInARow++;
          const backoff = retryDelay("GET", error, failuresInARow, policy, random);
          if (backoff === undefined) throw error;
          if (failuresInARow > policy.maxRetries) {
            throw error instanceof ToolServerError
              ? error
              : new ToolTransportError(`The event stream failed ${failuresInARow} times in a row without a new event`, (error as ToolTransportError).reason, true, { cause: error });
          }
          const serverAsked = error instanceof ToolServerError && error.retryAfterMs !== undefined;
          if (serverAsked || serverRetryMs === undefined) return timer(backoff, scheduler);
          // The server's retry: is the first wait; reconnects failing in a row still back off, so `retry: 0` from a
          // server that keeps closing at once cannot spin the client in a tight loop.
          return timer(Math.min(failuresInARow === 1 ? serverRetryMs : Math.max(serverRetryMs, backoff), policy.maxDelayMs, MAX_TIMER_MS), scheduler);
        },
      }),
    );
  });
}

/**
 * One connection to `GET /runs/{id}/events`: its frames, comments and
 * `retry:` fields as they arrive. Unsubscribing aborts the request and
 * cancels the body.
 */
export function eventStream$(transport: Transport, runId: string, lastEventId: string | undefined, maxEventSize: number, demand?: Demand): Observable<StreamItem> {
  return new Observable<StreamItem>((subscriber) => {
    const controller = new AbortController();
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const what = `events ${runId}`;

    const read = async () => {
      // Only headers a tool server's CORS preflight allows (a Cache-Control request header would be refused in browsers).
      const headers: Record<string, string> = { accept: "text/event-stream" };
      // An empty id means "from the start", as it does for a browser's EventSource. An id that cannot travel
      // in a header is not sent either: the server then replays what it kept, and the replay window skips it.
      if (lastEventId && canBeHeader(lastEventId)) headers["last-event-id"] = lastEventId;
      const response = await sendRequest(transport, { method: "GET", path: `/runs/${pathSegment(runId, "runId")}/events`, headers, what }, controller.signal);
      if (!response.headers.get("content-type")?.toLowerCase().startsWith("text/event-stream")) {
        await response.body?.cancel().catch(() => undefined);
        throw new ToolProtocolError(`${what}: the answer is not an event stream`);
      }
      if (!response.body) throw new ToolProtocolError(`${what}: the answer has no body`);
      const parser = createEventStreamParser({
        maxEventSize,
        tooLarge: (limit) => new EventStreamError(`${what}: a line or an event is larger than maxEventSize (${limit} bytes)`),
        onFrame: (frame) => subscriber.next({ kind: "frame", frame }),
        onRetry: (milliseconds) => subscriber.next({ kind: "retry", milliseconds }),
      });
      // Every chunk is a sign of life, whether or not it completes a line (a slow event, a blank keep-alive); whether
      // it leaves a frame unfinished tells the idle timer to hold that frame to its arrival deadline.
      const alive = {
        push: (bytes: Uint8Array) => (parser.push(bytes), subscriber.next({ kind: "bytes", framePending: parser.pending() })),
        end: () => parser.end(),
        pending: () => parser.pending(),
      };
      reader = response.body.getReader();
      const broken = (error: unknown) => new ToolTransportError(`${what}: the connection broke`, "network", true, { cause: error });
      if (await readEventStream(reader, alive, () => subscriber.closed, broken, demand && (() => demand.wait()))) subscriber.complete();
    };

    read().catch((error: unknown) => subscriber.error(error));
    return () => {
      controller.abort();
      reader?.cancel().catch(() => undefined);
    };
  });
}
