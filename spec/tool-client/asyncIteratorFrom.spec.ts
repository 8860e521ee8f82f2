import { EMPTY, NEVER, Observable, of, concat, throwError } from "rxjs";
import { asyncIteratorFrom } from "../../src/tool-client/asyncIteratorFrom";
import type { Demand } from "../../src/tool-client/events";
import { flush, watched } from "../support/watched";

/** A producer of `total` numbers that reads on only when the demand lets it, as `readEventStream` does. */
function producer(demand: Demand, total: number, produced: { count: number }) {
  return new Observable<number>((subscriber) => {
    let stopped = false;
    void (async () => {
      while (!stopped && produced.count < total) {
        const room = demand.wait();
        if (room) await room;
        if (stopped) return;
        subscriber.next(produced.count++);
      }
      subscriber.complete();
    })();
    return () => (stopped = true);
  });
}

async function collect<T>(iterator: AsyncIterableIterator<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterator) values.push(value);
  return values;
}

describe("asyncIteratorFrom", () => {
  it("gives the values in order, then is done; it subscribes on the first step, not before", async () => {
    const { source, counts } = watched(of(1, 2, 3));
    const iterator = asyncIteratorFrom(() => source, 64);
    expect(counts.subscribed).toBe(0);
    expect(await collect(iterator)).toEqual([1, 2, 3]);
    expect(counts).toEqual({ subscribed: 1, unsubscribed: 1 });
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it("builds the source at once, so its errors are thrown when the iterator is made", () => {
    expect(() =>
      asyncIteratorFrom(() => {
        throw new TypeError("bad option");
      }, 64),
    ).toThrow("bad option");
  });

  it("holds the source back once `limit` values wait, and lets it read on as the loop takes them", async () => {
    const produced = { count: 0 };
    let demand!: Demand;
    const iterator = asyncIteratorFrom((given) => producer((demand = given), 1_000, produced), 4);
    await expect(iterator.next()).resolves.toEqual({ value: 0, done: false });
    await flush();
    // The step taken, then four waiting: the producer waits for room.
    expect(produced.count).toBe(5);
    expect(demand.paused()).toBe(true);
    await flush();
    expect(produced.count).toBe(5);
    await expect(iterator.next()).resolves.toEqual({ value: 1, done: false });
    await flush();
    expect(produced.count).toBe(6);
    const rest = await collect(iterator);
    expect(rest).toEqual(Array.from({ length: 998 }, (_, index) => index + 2));
    expect(demand.wait()).toBeUndefined();
  });

  it("never asks a source to wait while fewer than `limit` values wait", async () => {
    let demand!: Demand;
    const iterator = asyncIteratorFrom((given) => ((demand = given), concat(of(1, 2, 3), NEVER)), 4);
    const first = iterator.next();
    await expect(first).resolves.toEqual({ value: 1, done: false });
    expect(demand.wait()).toBeUndefined();
    expect(demand.paused()).toBe(false);
    await iterator.return!();
  });

  it("rejects the step that reaches a source error, after the values before it, and is done after that", async () => {
    const failure = new Error("connection lost");
    const { source, counts } = watched(concat(of("a", "b"), throwError(() => failure)));
    const iterator = asyncIteratorFrom(() => source, 64);
    await expect(iterator.next()).resolves.toEqual({ value: "a", done: false });
    await expect(iterator.next()).resolves.toEqual({ value: "b", done: false });
    await expect(iterator.next()).rejects.toBe(failure);
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    expect(counts.unsubscribed).toBe(1);
  });

  it("break unsubscribes at once", async () => {
    const { source, counts } = watched(concat(of(1, 2, 3), NEVER));
    const seen: number[] = [];
    for await (const value of asyncIteratorFrom(() => source, 64)) {
      seen.push(value);
      if (value === 2) break;
    }
    expect(seen).toEqual([1, 2]);
    expect(counts).toEqual({ subscribed: 1, unsubscribed: 1 });
  });

  it("return() while a step waits unsubscribes and ends that step as done", async () => {
    const { source, counts } = watched(NEVER);
    const iterator = asyncIteratorFrom(() => source, 64);
    const pending = iterator.next();
    await flush();
    expect(counts).toEqual({ subscribed: 1, unsubscribed: 0 });
    await expect(iterator.return!()).resolves.toEqual({ value: undefined, done: true });
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
    expect(counts.unsubscribed).toBe(1);
  });

  it("an empty source is done at the first step", async () => {
    await expect(asyncIteratorFrom(() => EMPTY, 64).next()).resolves.toEqual({ value: undefined, done: true });
  });

  it("a source that never emits keeps the step waiting until the signal aborts: it rejects with the reason and unsubscribes", async () => {
    const { source, counts } = watched(NEVER);
    const controller = new AbortController();
    const iterator = asyncIteratorFrom(() => source, 64, controller.signal);
    const pending = iterator.next();
    let settled = false;
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await flush();
    expect(settled).toBe(false);
    controller.abort("stopped by the user");
    await expect(pending).rejects.toBe("stopped by the user");
    expect(counts.unsubscribed).toBe(1);
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it("aborting drops the values that wait", async () => {
    const controller = new AbortController();
    const iterator = asyncIteratorFrom(() => concat(of(1, 2, 3), NEVER), 64, controller.signal);
    await expect(iterator.next()).resolves.toEqual({ value: 1, done: false });
    controller.abort("stop");
    await expect(iterator.next()).rejects.toBe("stop");
  });

  it("an already aborted signal rejects the first step without subscribing", async () => {
    const { source, counts } = watched(of(1));
    const iterator = asyncIteratorFrom(() => source, 64, AbortSignal.abort("too late"));
    await expect(iterator.next()).rejects.toBe("too late");
    expect(counts.subscribed).toBe(0);
  });

  it("aborting after the source completed changes nothing", async () => {
    const controller = new AbortController();
    const iterator = asyncIteratorFrom(() => of(1), 64, controller.signal);
    await expect(iterator.next()).resolves.toEqual({ value: 1, done: false });
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    controller.abort("late");
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });
});
