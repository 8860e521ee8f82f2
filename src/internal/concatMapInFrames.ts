import { concatMap, defer, finalize, from, tap, timer, type ObservableInput, type OperatorFunction, type SchedulerLike } from "rxjs";

/** How long deliveries may run back to back: most of a 60 Hz frame (16.7 ms), leaving the rest for layout and paint. */
export const FRAME_BUDGET_MS = 10;

/**
 * `concatMap(project)` that lets the browser paint and handle input (Carbon's
 * stop button) while a long queue drains: projections run back to back until
 * `budgetMs` of the scheduler's time has passed since the first of them; the
 * next then waits for the scheduler's next task (an animation frame in a
 * browser) and starts a new run. A value that finds nothing queued is
 * projected at once, so a lone chunk is never delayed.
 *
 * ```
 * source: (abcd|)                  each projection takes 4 ms; budgetMs 5; an animation frame at 10
 * result: ----a---b-----c---(d|)    c waits for the frame (a and b took 8 ms); d fits in the new budget
 * ```
 */
export function concatMapInFrames<T, R>(project: (value: T) => ObservableInput<R>, scheduler: SchedulerLike, budgetMs = FRAME_BUDGET_MS): OperatorFunction<T, R> {
  return (source) =>
    defer(() => {
      let queued = 0;
      /** When the current run of back-to-back projections began; undefined while nothing is queued. */
      let since: number | undefined;
      const done = () => {
        if (--queued === 0) since = undefined;
      };
      return source.pipe(
        tap(() => queued++),
        concatMap((value) => {
          const now = scheduler.now();
          if (since === undefined || now - since < budgetMs) {
            since ??= now;
            return from(project(value)).pipe(finalize(done));
          }
          return timer(0, scheduler).pipe(
            concatMap(() => {
              since = scheduler.now();
              return project(value);
            }),
            finalize(done),
          );
        }),
      );
    });
}
