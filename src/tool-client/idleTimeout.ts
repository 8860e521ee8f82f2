import { Observable, type MonoTypeOperatorFunction, type SchedulerAction, type SchedulerLike } from "rxjs";
import { ToolTransportError } from "./errors";
import { NO_TIMEOUT_FROM_MS } from "./http";

/**
 * Errors with a `timeout` ToolTransportError when `milliseconds` pass without
 * a byte, or when an event (or a line) has been arriving for `milliseconds`
 * without ending: bytes dribbled into an unfinished frame cannot hold the
 * timer off. One timer per quiet period rather than one per item: when it
 * fires early it sleeps again for what is left, so a fast stream costs a clock
 * read per item. While `demand` is paused, nothing is read, so nothing counts.
 * An item of kind `bytes` tells whether a frame is still arriving (`framePending`).
 */
export function idleTimeout<T extends { kind: string; framePending?: boolean }>(milliseconds: number, scheduler: SchedulerLike, demand: { paused(): boolean } | undefined): MonoTypeOperatorFunction<T> {
  if (milliseconds >= NO_TIMEOUT_FROM_MS) return (source) => source;
  return (source) =>
    new Observable<T>((subscriber) => {
      let lastActivity = scheduler.now();
      let frameSince: number | undefined;
      const watchdog = scheduler.schedule(function (this: SchedulerAction<unknown>) {
        const now = scheduler.now();
        if (demand?.paused()) {
          lastActivity = now;
          if (frameSince !== undefined) frameSince = now;
          return this.schedule(undefined, milliseconds);
        }
        const deadline = Math.min(lastActivity, frameSince ?? lastActivity) + milliseconds;
        if (now < deadline) return this.schedule(undefined, deadline - now);
        const message = frameSince !== undefined && frameSince + milliseconds <= now ? `An event took longer than ${milliseconds} ms to arrive whole` : `The event stream was silent for ${milliseconds} ms`;
        subscriber.error(new ToolTransportError(message, "timeout", true));
      }, milliseconds);
      const subscription = source.subscribe({
        next(item) {
          lastActivity = scheduler.now();
          if (item.kind === "bytes") frameSince = item.framePending ? (frameSince ?? lastActivity) : undefined;
          subscriber.next(item);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        watchdog.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
