import { map, of } from "rxjs";
import { stopWhen } from "../../../src/operators/check/stopWhen";
import { instr } from "../../support/builders";
import { producedBeforeUnsubscribe, testScheduler } from "../../support/marbles";

const stopped = instr.stopped();

describe("stopWhen", () => {
  it("unsubscribes the source when the notifier emits, then emits a stopped turn end", () => {
    testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold("  -a-b-c-|");
      const notifier = hot(" ----x");
      expectObservable(source.pipe(stopWhen(notifier))).toBe("-a-b(s|)", { a: "a", b: "b", s: stopped });
      expectSubscriptions(source.subscriptions).toBe("^---!");
      expectSubscriptions(notifier.subscriptions).toBe("^---!");
    });
  });

  it("passes the source through untouched when the notifier never emits", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const notifier = cold("-");
      expectObservable(cold("-a-|").pipe(stopWhen(notifier))).toBe("-a-|");
      expectSubscriptions(notifier.subscriptions).toBe("^--!");
    });
  });

  it("never subscribes the source when the stop had already happened (a synchronous notifier)", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-|");
      expectObservable(source.pipe(stopWhen(of("aborted")))).toBe("(s|)", { s: stopped });
      expectSubscriptions(source.subscriptions).toBe([]);
    });
  });

  it("passes a source error through", () => {
    testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-#");
      expectObservable(source.pipe(stopWhen(hot("-----x")))).toBe("-a-#");
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source and the notifier", () => {
    testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-|");
      const notifier = hot("------x");
      const result = source.pipe(
        stopWhen(notifier),
        map((value) => {
          if (value === "b") throw new Error("bad");
          return value;
        }),
      );
      expectObservable(result).toBe("-a-#", { a: "a" }, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
      expectSubscriptions(notifier.subscriptions).toBe("^--!");
    });
  });

  it("completes with an empty source", () => {
    testScheduler().run(({ cold, hot, expectObservable }) => {
      expectObservable(cold("|").pipe(stopWhen(hot("--x")))).toBe("|");
    });
  });

  it("stays silent with a never source until the stop", () => {
    testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold("-");
      expectObservable(source.pipe(stopWhen(hot("---x")))).toBe("---(s|)", { s: stopped });
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("unsubscribes the source and the notifier when unsubscribed early", () => {
    testScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot("-a-b-c-|");
      const notifier = hot("------x");
      expectObservable(source.pipe(stopWhen(notifier)), "^--!").toBe("-a--");
      expectSubscriptions(source.subscriptions).toBe("^--!");
      expectSubscriptions(notifier.subscriptions).toBe("^--!");
    });
  });

  it("stops a synchronous source when unsubscribed", () => {
    expect(producedBeforeUnsubscribe((index) => index, stopWhen(of<never>()), 3)).toEqual([0, 1, 2]);
  });
});
