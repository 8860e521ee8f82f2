import { EventType, type BaseEvent } from "@ag-ui/core";
import { catchError, concatMap, EMPTY, ignoreElements, Observable, takeUntil, tap, type ObservableInput, type OperatorFunction, type SchedulerLike, type Subscriber, type Subscription } from "rxjs";

/**
 * Splits one event stream into its runs: a RUN_STARTED that follows a run's
 * RUN_FINISHED or RUN_ERROR begins the next run (AG-UI 1.0 lets one stream
 * carry several). Each run is an Observable emitted as it begins; its events
 * wait for it to be subscribed (as `concatMap` does once the run before is
 * done), then flow straight through. A run's subscriber may leave early (its
 * turn ended at RUN_FINISHED): the source goes on for the next run, and is
 * unsubscribed only with the result. The source's completion or error ends
 * the current run the same way.
 *
 * A stream that stays open after a run's end without starting another (a
 * server that does not close it) would keep the turn going forever: when no
 * RUN_STARTED and no end of stream follow a RUN_FINISHED within `graceMs` on
 * `scheduler`, the result completes and the source is let go. (After
 * RUN_ERROR the pipeline fails the turn, which lets the source go at once.)
 *
 * The stream's first event is announced with `RUN_BEGAN`, just before the
 * first run: whoever sent the run knows the agent has it.
 *
 * ```
 * source: --s--f--s--f--|     s: RUN_STARTED; f: RUN_FINISHED
 * result: --(Ba)--b-----|     B: RUN_BEGAN; a: --s--f|   b: --s--f--|
 * ```
 */
export function splitRuns(scheduler: SchedulerLike, graceMs: number): OperatorFunction<BaseEvent, Observable<BaseEvent> | typeof RUN_BEGAN> {
  return (source) =>
    new Observable<Observable<BaseEvent> | typeof RUN_BEGAN>((out) => {
      let current: RunWindow | undefined;
      let runEnded = false;
      let waitForNextRun: Subscription | undefined;
      const begin = (byEvent: boolean) => {
        if (!current && byEvent) out.next(RUN_BEGAN);
        current?.complete();
        current = new RunWindow();
        out.next(current.events);
      };
      // Through rxjs's own operators into `out`, so the chain stays linked: unsubscribing the result
      // stops even a synchronous source at once. A source error goes to the run, then ends the result.
      source
        .pipe(
          tap({
            next(event) {
              if (!current || (runEnded && event.type === EventType.RUN_STARTED)) {
                waitForNextRun?.unsubscribe();
                runEnded = false;
                begin(true);
              }
              if (!runEnded && event.type === EventType.RUN_ERROR) runEnded = true;
              if (!runEnded && event.type === EventType.RUN_FINISHED) {
                runEnded = true;
                waitForNextRun = scheduler.schedule(() => {
                  current!.complete();
                  out.complete();
                }, graceMs);
                out.add(waitForNextRun);
              }
              current!.next(event);
            },
            error(error: unknown) {
              if (!current) begin(false);
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

/** The stream's first event came (see `splitRuns`). */
export const RUN_BEGAN = { kind: "run.began" } as const;

/**
 * Runs `pipeline()` on each run of the stream, one after the other (see
 * `splitRuns`), after `RUN_BEGAN` once the first event came. When `stop`
 * emits, no further run starts and the source is unsubscribed; the run
 * under way stops through its own pipeline.
 */
export function eachRun<R>(stop: ObservableInput<unknown>, scheduler: SchedulerLike, pipeline: () => OperatorFunction<BaseEvent, R>): OperatorFunction<BaseEvent, R | typeof RUN_BEGAN> {
  return (source) => source.pipe(splitRuns(scheduler, NEXT_RUN_GRACE_MS), takeUntil(stop), concatMap((run) => (run instanceof Observable ? run.pipe(pipeline()) : [run])));
}

/** How long a stream still open after a run's end may take to start the next run before the turn lets it go. */
export const NEXT_RUN_GRACE_MS = 1000;

/** One run's events: held until its one subscriber comes, then passed on as they arrive. */
class RunWindow {
  private held: ({ kind: "N"; event: BaseEvent } | { kind: "E"; error: unknown } | { kind: "C" })[] | undefined = [];
  private subscriber: Subscriber<BaseEvent> | undefined;

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
    if (this.held) this.held.push({ kind: "E", error });
    else this.subscriber?.error(error);
  }

  complete(): void {
    if (this.held) this.held.push({ kind: "C" });
    else this.subscriber?.complete();
  }
}
