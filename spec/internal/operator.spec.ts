import { createOperator } from "../../src/internal/operator";
import { producedBeforeUnsubscribe, testScheduler } from "../support/marbles";

/** Emits each value twice, and a closing value on complete or error. */
const twiceThenClose = createOperator<string, string>((out) => ({
  next: (value) => {
    out.next(value);
    out.next(value);
  },
  complete: () => out.next("c"),
  error: () => out.next("e"),
}));

describe("createOperator", () => {
  it("emits any number of values per input, and may emit on complete and on error before they go on", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a---|");
      expectObservable(source.pipe(twiceThenClose)).toBe("-(aa)(c|)");
      expectSubscriptions(source.subscriptions).toBe("^----!");
      expectObservable(cold("-a---#").pipe(twiceThenClose)).toBe("-(aa)(e#)");
    });
  });

  it("makes a handler that throws error the stream, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-|");
      const throwing = createOperator<string, string>((out) => ({
        next: (value) => {
          if (value === "b") throw new Error("bad");
          out.next(value);
        },
      }));
      expectObservable(source.pipe(throwing)).toBe("-a-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("keeps state per subscription", () => {
    const counting = createOperator<string, number>((out) => {
      let count = 0;
      return { next: () => out.next(++count) };
    });
    testScheduler().run(({ cold, expectObservable }) => {
      const counted = cold("-a-a-|").pipe(counting);
      expectObservable(counted).toBe("-1-2-|", { 1: 1, 2: 2 });
      expectObservable(counted).toBe("-1-2-|", { 1: 1, 2: 2 });
    });
  });

  it("stops a synchronous source as soon as the consumer unsubscribes", () => {
    expect(producedBeforeUnsubscribe((index) => `${index}`, twiceThenClose, 4)).toEqual([0, 1]);
  });
});
