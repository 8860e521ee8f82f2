import type { Observer, Subscribable } from "rxjs";
import { fromObservable } from "../../src/runners/fromObservable";
import { collect } from "../support/runs";

/** A Subscribable that is not an rxjs Observable, as a foreign rxjs copy would look to ours. */
function foreign(values: number[], log: string[]): Subscribable<number> {
  return {
    subscribe(observer: Partial<Observer<number>>) {
      log.push("subscribe");
      for (const value of values) observer.next?.(value);
      observer.complete?.();
      return { unsubscribe: () => log.push("unsubscribe") };
    },
  };
}

describe("fromObservable", () => {
  it("re-emits a foreign Subscribable as an Observable of our rxjs, subscribing lazily", async () => {
    const log: string[] = [];
    const wrapped = fromObservable(foreign([1, 2, 3], log));
    expect(log).toEqual([]);
    expect(await collect(wrapped)).toEqual([1, 2, 3]);
    expect(log).toEqual(["subscribe", "unsubscribe"]);
  });
});
