import type { OperatorFunction } from "rxjs";
import { producedBeforeUnsubscribe, testScheduler } from "./marbles";

/**
 * The cases every operator's spec covers, as RxJS's own specs do, for an
 * operator that passes `passThrough` along unchanged: a source error goes
 * through, an empty source completes, a never source stays silent and
 * subscribed, early unsubscription reaches the source, and a synchronous
 * source stops as soon as the consumer unsubscribes.
 */
export function itFollowsTheOperatorContract<T>(makeOperator: () => OperatorFunction<T, unknown>, passThrough: T): void {
  describe("the operator contract", () => {
    it("passes a source error through", () => {
      testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold<T>("-c-#", { c: passThrough });
        expectObservable(source.pipe(makeOperator())).toBe("-c-#", { c: passThrough });
        expectSubscriptions(source.subscriptions).toBe("^--!");
      });
    });

    it("completes with an empty source", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        expectObservable(cold<T>("|").pipe(makeOperator())).toBe("|");
      });
    });

    it("stays silent, and subscribed, with a never source", () => {
      testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold<T>("-");
        expectObservable(source.pipe(makeOperator())).toBe("-");
        expectSubscriptions(source.subscriptions).toBe("^");
      });
    });

    it("unsubscribes the source when unsubscribed early", () => {
      testScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
        const source = hot<T>("-c-c-|", { c: passThrough });
        expectObservable(source.pipe(makeOperator()), "^--!").toBe("-c--", { c: passThrough });
        expectSubscriptions(source.subscriptions).toBe("^--!");
      });
    });

    it("stops a synchronous source when unsubscribed", () => {
      expect(producedBeforeUnsubscribe(() => passThrough, makeOperator(), 3)).toEqual([0, 1, 2]);
    });
  });
}
