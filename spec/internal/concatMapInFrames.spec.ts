import { animationFrameScheduler, asyncScheduler, EMPTY, from, lastValueFrom, map, of, throwError, timer } from "rxjs";
import { concatMapInFrames } from "../../src/internal/concatMapInFrames";
import { testScheduler } from "../support/marbles";
import { itFollowsTheOperatorContract } from "../support/operatorContract";

/** A projection that takes 4 frames of the scheduler's time, like a chunk that keeps Carbon busy for 4 ms. */
const busyFor4 = (value: string) => timer(4, animationFrameScheduler).pipe(map(() => value));

describe("concatMapInFrames", () => {
  it("projects back to back within the budget, then waits for the next animation frame", () => {
    testScheduler().run(({ animate, cold, expectObservable, expectSubscriptions }) => {
      animate("            ----------x---------x");
      const source = cold("(abcd|)");
      // a and b take 8 frames, past the 5-frame budget, so c waits for the frame at 10; d follows c within the new budget.
      expectObservable(source.pipe(concatMapInFrames(busyFor4, animationFrameScheduler, 5))).toBe("----a---b-----c---(d|)");
      expectSubscriptions(source.subscriptions).toBe("(^!)");
    });
  });

  it("projects a value that finds nothing queued at once, whatever was spent before", () => {
    testScheduler().run(({ animate, cold, expectObservable }) => {
      animate("            ----------------------------x");
      const source = cold("a---b-------c---|");
      expectObservable(source.pipe(concatMapInFrames(busyFor4, animationFrameScheduler, 5))).toBe("----a---b-------(c|)");
    });
  });

  it("keeps the order, and unsubscribes the source when unsubscribed while a value waits for a frame", () => {
    testScheduler().run(({ animate, hot, expectObservable, expectSubscriptions }) => {
      animate("           ----------x");
      const source = hot("(abc)--------d");
      expectObservable(source.pipe(concatMapInFrames(busyFor4, animationFrameScheduler, 5)), "^--------!").toBe("----a---b");
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
  });

  it("errors when a projection errors", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const error = new Error("Carbon threw");
      const source = cold("-a-b-|");
      expectObservable(source.pipe(concatMapInFrames((value) => (value === "b" ? throwError(() => error) : of(value)), asyncScheduler))).toBe("-a-#", undefined, error);
    });
  });

  it("drains a long queue of projections that complete at once without overflowing the stack", async () => {
    let projected = 0;
    const values = Array.from({ length: 20_000 }, (_, index) => index);
    // The first projection is asynchronous, so the rest queue up behind it.
    const source = from(values).pipe(concatMapInFrames((index) => (index === 0 ? timer(1) : (projected++, EMPTY)), asyncScheduler, Infinity));
    await lastValueFrom(source, { defaultValue: undefined });
    expect(projected).toBe(values.length - 1);
  });

  itFollowsTheOperatorContract(() => concatMapInFrames((value: string) => of(value), asyncScheduler), "c");
});
