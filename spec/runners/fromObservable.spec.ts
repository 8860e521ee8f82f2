import { HttpAgent } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import type { Observable, Observer, Subscribable } from "rxjs";
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

  it("infers the event type from an rxjs Observable, such as HttpAgent.run's (checked by the type-check)", () => {
    const agent = new HttpAgent({ url: "http://127.0.0.1:9/never-called" });
    const wrap = (input: Parameters<HttpAgent["run"]>[0]) => fromObservable(agent.run(input));
    // Fails to compile if the element type is inferred as `unknown` (or anything but BaseEvent).
    const typed: (input: Parameters<HttpAgent["run"]>[0]) => Observable<BaseEvent> = wrap;
    const notUnknown: ReturnType<typeof wrap> extends Observable<infer T> ? (unknown extends T ? never : true) : never = true;
    expect([typeof typed, notUnknown]).toEqual(["function", true]);
  });
});
