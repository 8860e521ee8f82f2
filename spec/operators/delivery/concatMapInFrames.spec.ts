import { animationFrameScheduler, asyncScheduler, EMPTY, from, lastValueFrom, map, Observable, of, Subject, throwError, timer } from "rxjs";
import { concatMapInFrames } from "../../../src/operators/delivery/concatMapInFrames";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

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

  it("errors when a projection throws, even when it starts from the previous one's completion", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const error = new Error("addMessageChunk threw");
      const source = cold("(ab)|");
      const project = (value: string) => {
        if (value === "b") throw error;
        return cold("--x|", { x: value });
      };
      expectObservable(source.pipe(concatMapInFrames(project, asyncScheduler))).toBe("--a#", undefined, error);
    });
  });

  it("starts one projection at a time, even when a projection makes the source emit", () => {
    const log: string[] = [];
    let inFlight = 0;
    const source = new Subject<string>();
    const project = (value: string) =>
      new Observable<string>((subscriber) => {
        log.push(`start ${value} (${++inFlight} running)`);
        if (value === "a") source.next("b");
        inFlight--;
        subscriber.next(value);
        subscriber.complete();
      });
    const out: string[] = [];
    source.pipe(concatMapInFrames(project, asyncScheduler)).subscribe((value) => out.push(value));
    source.next("a");
    expect(log).toEqual(["start a (1 running)", "start b (1 running)"]);
    expect(out).toEqual(["a", "b"]);
  });

  it("keeps the budget for values that arrive through microtasks, yielding a macrotask between runs", async () => {
    const busy = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    };
    let macrotasks = 0;
    const ticker = setInterval(() => macrotasks++, 0);
    const source = new Subject<number>();
    const done = lastValueFrom(source.pipe(concatMapInFrames((value: number) => (busy(1), of(value)), asyncScheduler, 5)));
    for (let value = 0; value < 60; value++) {
      await Promise.resolve();
      source.next(value);
    }
    source.complete();
    await done;
    clearInterval(ticker);
    // 60 ms of work in 5 ms runs: the timer got its turns in between (without the budget, none).
    expect(macrotasks).toBeGreaterThanOrEqual(5);
  });

  it("drains a long queue of projections that complete at once without overflowing the stack", async () => {
    let projected = 0;
    const values = Array.from({ length: 20_000 }, (_, index) => index);
    // The first projection is asynchronous, so the rest queue up behind it.
    const source = from(values).pipe(concatMapInFrames((index) => (index === 0 ? timer(1) : (projected++, EMPTY)), asyncScheduler, Infinity));
    await lastValueFrom(source, { defaultValue: undefined });
    expect(projected).toBe(values.length - 1);
  });

  describe("compacting a queue that fell behind", () => {
    const joinAll = (queued: string[]) => [queued.join("")];

    it("projects what compact makes of the values still queued once a run had to wait", () => {
      testScheduler().run(({ animate, cold, expectObservable }) => {
        animate("            ----------x---------x");
        const source = cold("(abcd|)");
        expectObservable(source.pipe(concatMapInFrames(busyFor4, animationFrameScheduler, 5, joinAll))).toBe("----a---b-----(x|)", { a: "a", b: "b", x: "cd" });
      });
    });

    it("compacts the values that arrived during the wait with those that waited", () => {
      testScheduler().run(({ animate, hot, expectObservable }) => {
        animate("           ----------x---------x");
        const source = hot("(abc)---de----|");
        // c waits from 8; d and e arrive before the frame at 10, so c, d and e go as one.
        expectObservable(source.pipe(concatMapInFrames(busyFor4, animationFrameScheduler, 5, joinAll))).toBe("----a---b-----(x|)", { a: "a", b: "b", x: "cde" });
      });
    });

    it("leaves a queue that drains within its budget as it is", () => {
      const compacted: string[][] = [];
      const out: string[] = [];
      from(["a", "b", "c"])
        .pipe(concatMapInFrames((value: string) => of(value), asyncScheduler, Infinity, (queued) => (compacted.push(queued), queued)))
        .subscribe((value) => out.push(value));
      expect([out, compacted]).toEqual([["a", "b", "c"], []]);
    });

    it("errors when compact throws", () => {
      testScheduler().run(({ animate, cold, expectObservable }) => {
        animate("            ----------x");
        const error = new Error("cannot join");
        const refuse = () => {
          throw error;
        };
        expectObservable(cold("(abcd|)").pipe(concatMapInFrames(busyFor4, animationFrameScheduler, 5, refuse))).toBe("----a---b-#", undefined, error);
      });
    });
  });

  itFollowsTheOperatorContract(() => concatMapInFrames((value: string) => of(value), asyncScheduler), "c");
  describe("with compact", () => {
    itFollowsTheOperatorContract(() => concatMapInFrames((value: string) => of(value), asyncScheduler, 5, (queued) => [queued.join("")]), "c");
  });
});
