import { asyncScheduler, concatWith, from, ignoreElements, NEVER, Observable, tap, type ObservableInput, type OperatorFunction, type SchedulerLike, type Subscription } from "rxjs";

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
 *
 * With `compact`, each run after a wait starts by handing it the values
 * still queued and projecting what it returns instead (Carbon chunks: the
 * deltas of one item joined), so a queue that falls behind a fast source
 * shrinks to a few values rather than growing:
 *
 * ```
 * source: (abcd|)                  as above, with compact joining what is queued
 * result: ----a---b-----(x|)       x: c and d as one value, projected once in the frame at 10
 * ```
 */
export function concatMapInFrames<T, R>(
  project: (value: T) => ObservableInput<R>,
  scheduler: SchedulerLike,
  budgetMs = FRAME_BUDGET_MS,
  compact?: (queued: T[]) => T[],
): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((out) => {
      // A queue read from a moving head (shift() would make a long queue quadratic), compacted as it empties.
      let queue: T[] = [];
      let head = 0;
      /** The projection running, or the wait for the next frame. */
      let running: Subscription | undefined;
      let sourceDone = false;
      /** True while a projection is being started: a value it makes the source emit only joins the queue. */
      let starting = false;
      /** When the current run of back-to-back projections began. */
      let since: number | undefined;
      /**
       * Forgets `since` after the next macrotask: values that keep arriving through microtasks (a buffered body
       * read chunk by chunk) count as one run and cannot dodge the budget; a value in a later task starts afresh.
       */
      let forget: Subscription | undefined;

      // A loop rather than concatMap's recursion: a long queue of projections that complete at once would overflow the stack.
      const drain = () => {
        while (!running && !starting && !out.closed) {
          if (head === queue.length) {
            queue = [];
            head = 0;
            if (sourceDone) return out.complete();
            if (since !== undefined) forget ??= asyncScheduler.schedule(() => ((since = undefined), (forget = undefined)));
            return;
          }
          const now = scheduler.now();
          if (since !== undefined && now - since >= budgetMs) {
            running = scheduler.schedule(() => {
              running = undefined;
              since = scheduler.now();
              if (compact) {
                try {
                  queue = compact(queue.slice(head));
                } catch (error) {
                  return out.error(error);
                }
                head = 0;
              }
              drain();
            });
            return;
          }
          since ??= now;
          const value = queue[head]!;
          queue[head++] = undefined as T;
          let finished = false;
          starting = true;
          let projection: Subscription;
          try {
            projection = from(project(value)).subscribe({
              next: (result) => out.next(result),
              error: (error: unknown) => out.error(error),
              complete: () => {
                finished = true;
                if (starting) return;
                running = undefined;
                drain();
              },
            });
          } catch (error) {
            // A projection that throws (or returns what from() refuses) fails the output, wherever drain() was called from.
            return out.error(error);
          } finally {
            starting = false;
          }
          if (!finished) running = projection;
        }
      };
      out.add(() => forget?.unsubscribe());
      out.add(() => running?.unsubscribe());

      // The source's completion waits (NEVER) until the queue has drained; drain() completes the output.
      return source
        .pipe(
          tap({
            next: (value) => {
              queue.push(value);
              drain();
            },
            complete: () => {
              sourceDone = true;
              drain();
            },
          }),
          ignoreElements(),
          concatWith(NEVER),
        )
        .subscribe(out);
    });
}
