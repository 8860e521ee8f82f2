import { Observable, Subject, type SchedulerLike, type Subscription } from "rxjs";

/** Times what handing chunks to Carbon costs the page, for `coalesceDeltas()`'s adaptive window. */
export interface RenderCostMeter {
  /** Call right after a chunk was handed over. */
  handedOver(): void;
  /** One cost per measurement, in milliseconds of the scheduler's time. */
  readonly cost$: Observable<number>;
  /** Drops the measurement under way and completes `cost$`. */
  stop(): void;
}

/**
 * Measures from a hand-over to the scheduler's next task: in a browser the
 * next animation frame, which comes once the render the chunk set off (Carbon
 * re-renders in a task of its own) is done, so the figure grows with what
 * Carbon redraws. One measurement at a time: hand-overs before the frame
 * share it, so measuring costs one scheduled task per frame at most.
 */
export function renderCostMeter(scheduler: SchedulerLike): RenderCostMeter {
  const costs = new Subject<number>();
  let measuring: Subscription | undefined;
  let stopped = false;
  return {
    handedOver() {
      if (measuring || stopped) return;
      const since = scheduler.now();
      measuring = scheduler.schedule(() => {
        measuring = undefined;
        costs.next(scheduler.now() - since);
      });
    },
    cost$: costs.asObservable(),
    stop() {
      stopped = true;
      measuring?.unsubscribe();
      costs.complete();
    },
  };
}
