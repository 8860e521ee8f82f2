import type { Observable, Subscription } from "rxjs";
import type { Demand } from "./events";

/**
 * An Observable as an async iterator that holds its source back. Values wait
 * in a queue until the loop takes them; the source is built with a `Demand`
 * that asks it to stop reading while `limit` or more wait, and to read on
 * once the loop has taken enough. The source is subscribed on the first
 * `next()`. `return()` (a `break`, a throw in the loop) unsubscribes at once,
 * even while a `next()` is pending, which it resolves as done. Aborting
 * `signal` drops what waits, unsubscribes and rejects with the signal's
 * reason, unless the stream had already ended. A source error rejects the
 * step that reaches it, after the values before it.
 *
 * ```ts
 * for await (const event of asyncIteratorFrom((demand) => events$(demand), 64, signal)) render(event);
 * ```
 */
export function asyncIteratorFrom<T>(makeSource: (demand: Demand) => Observable<T>, limit: number, signal?: AbortSignal): AsyncIterableIterator<T> {
  const queue: T[] = [];
  const waiting: { resolve(result: IteratorResult<T, undefined>): void; reject(error: unknown): void }[] = [];
  let ended: { error: unknown } | "done" | undefined;
  let subscription: Subscription | undefined;
  let room: { promise: Promise<void>; open(): void } | undefined;
  const demand: Demand = {
    wait() {
      if (queue.length < limit || ended) return undefined;
      if (!room) {
        let open!: () => void;
        room = { promise: new Promise<void>((resolve) => (open = resolve)), open };
      }
      return room.promise;
    },
    paused: () => room !== undefined,
  };
  // Called whenever the queue shrinks or the stream ends: a paused reader reads on (or sees that it stopped).
  const openRoom = () => {
    if (room && (queue.length < limit || ended)) {
      room.open();
      room = undefined;
    }
  };
  // Built at once, so the caller's options are checked (a TypeError) when the iterator is made, not on the first step.
  const source = makeSource(demand);

  const settle = () => {
    while (waiting.length > 0) {
      if (queue.length > 0) waiting.shift()!.resolve({ value: queue.shift()!, done: false });
      else if (ended === "done") waiting.shift()!.resolve({ value: undefined, done: true });
      else if (ended) {
        waiting.shift()!.reject(ended.error);
        ended = "done";
      } else break;
    }
    openRoom();
  };
  const stop = (end: typeof ended) => {
    ended ??= end;
    subscription?.unsubscribe();
    signal?.removeEventListener("abort", onAbort);
    settle();
  };
  const onAbort = () => {
    if (ended) return;
    queue.length = 0;
    stop({ error: signal?.reason });
  };
  const start = () => {
    if (subscription || ended) return;
    if (signal?.aborted) return stop({ error: signal.reason });
    signal?.addEventListener("abort", onAbort, { once: true });
    subscription = source.subscribe({
      next: (value) => (queue.push(value), settle()),
      error: (error: unknown) => stop({ error }),
      complete: () => stop("done"),
    });
  };

  return {
    next() {
      start();
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        settle();
      });
    },
    return() {
      queue.length = 0;
      ended = "done";
      stop("done");
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
