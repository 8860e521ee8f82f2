import { EventType, type BaseEvent } from "@ag-ui/core";
import { catchError, EMPTY, ignoreElements, Observable, tap, type OperatorFunction, type Subscriber } from "rxjs";

/** One run of a stream: its first event, and its events from there, held until its one subscriber comes. */
export interface StreamRun {
  /** The run's first event: its RUN_STARTED, as a rule (with the input it echoes); none for a stream that failed before any event. */
  readonly first: BaseEvent | undefined;
  readonly events: Observable<BaseEvent>;
}

/**
 * Splits one event stream into its runs (AG-UI 1.0 lets one stream carry
 * several), by the protocol's own signals and nothing else: a run ends at
 * its RUN_FINISHED or RUN_ERROR, where its events complete, and the next
 * begins at the RUN_STARTED after it. No clock decides anything: the result
 * completes when the source does, however long the wait between two runs.
 *
 * Each run is emitted as it begins; its events wait for it to be
 * subscribed, then flow straight through. Events after a run's end that do
 * not start a run (LangGraph sends a few after a RUN_ERROR) belong to the
 * run that ended, and are dropped. A source error goes to the run under
 * way (to a run of its own when none has begun), then ends the result; the
 * source completing completes the run under way.
 *
 * ```
 * source: --s--t--f--x--s--f--|     s: RUN_STARTED; t: a text event; f: RUN_FINISHED; x: an event after f
 * result: --a-----------b-----|     a: --s--t--f|   b: --s--f|
 * ```
 */
export function splitRuns(): OperatorFunction<BaseEvent, StreamRun> {
  return (source) =>
    new Observable<StreamRun>((out) => {
      let current: RunWindow | undefined;
      let ended = false;
      const begin = (first: BaseEvent | undefined) => {
        current?.complete();
        current = new RunWindow();
        ended = false;
        out.next({ first, events: current.events });
      };
      // Through rxjs's own operators into `out`, so the chain stays linked: unsubscribing the result
      // stops even a synchronous source at once. A source error goes to the run, then ends the result.
      source
        .pipe(
          tap({
            next(event) {
              if (!current || (ended && event.type === EventType.RUN_STARTED)) begin(event);
              if (ended) return;
              current!.next(event);
              if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
                ended = true;
                current!.complete();
              }
            },
            error(error: unknown) {
              if (!current) begin(undefined);
              current!.error(error);
            },
            complete() {
              current?.complete();
            },
          }),
          ignoreElements(),
          catchError(() => EMPTY),
        )
        .subscribe(out);
    });
}

/** One run's events: held until its one subscriber comes, then passed on as they arrive. */
class RunWindow {
  private held: ({ kind: "N"; event: BaseEvent } | { kind: "E"; error: unknown } | { kind: "C" })[] | undefined = [];
  private subscriber: Subscriber<BaseEvent> | undefined;
  private done = false;

  readonly events = new Observable<BaseEvent>((subscriber) => {
    this.subscriber = subscriber;
    const held = this.held ?? [];
    this.held = undefined;
    for (const notification of held) {
      if (subscriber.closed) break;
      if (notification.kind === "N") subscriber.next(notification.event);
      else if (notification.kind === "E") subscriber.error(notification.error);
      else subscriber.complete();
    }
  });

  next(event: BaseEvent): void {
    if (this.held) this.held.push({ kind: "N", event });
    else this.subscriber?.next(event);
  }

  error(error: unknown): void {
    if (this.done) return;
    this.done = true;
    if (this.held) this.held.push({ kind: "E", error });
    else this.subscriber?.error(error);
  }

  complete(): void {
    if (this.done) return;
    this.done = true;
    if (this.held) this.held.push({ kind: "C" });
    else this.subscriber?.complete();
  }
}
