import { EventType, type BaseEvent } from "@ag-ui/core";
import { asyncScheduler, filter, map, NEVER, pipe, takeWhile, type OperatorFunction } from "rxjs";
import { eachRun, NEXT_RUN_GRACE_MS, RUN_BEGAN } from "../../../src/operators/runs/splitRuns";
import { ev } from "../../support/builders";
import { producedBeforeUnsubscribe, testScheduler } from "../../support/marbles";

const events: Record<string, BaseEvent> = { s: ev.runStarted(), t: ev.text("m1", "x"), f: ev.runFinished(), e: ev.runError("boom") };
const letter: Record<string, string> = { [EventType.RUN_STARTED]: "s", [EventType.TEXT_MESSAGE_CONTENT]: "t", [EventType.RUN_FINISHED]: "f", [EventType.RUN_ERROR]: "e" };
/** A turn as the adapter's pipeline ends one: done at its run's RUN_FINISHED (or RUN_ERROR). */
const turn = (): OperatorFunction<BaseEvent, string> => (run) =>
  run.pipe(
    takeWhile((event) => event.type !== EventType.RUN_FINISHED && event.type !== EventType.RUN_ERROR, true),
    map((event) => letter[event.type]!),
  );
const same = { s: "s", t: "t", f: "f", e: "e" };
/** eachRun without its RUN_BEGAN, for the specs about the runs. */
const runs = <R>(stop: Parameters<typeof eachRun>[0], scheduler: Parameters<typeof eachRun>[1], pipeline: () => OperatorFunction<BaseEvent, R>) =>
  pipe(eachRun(stop, scheduler, pipeline), filter((value): value is R => value !== RUN_BEGAN));

describe("eachRun (splitRuns)", () => {
  it("runs the pipeline on each run of the stream in turn, each a subscription of its own", () => {
    let pipelines = 0;
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-t-f-s-t-f-|", events);
      const result = source.pipe(runs(NEVER, asyncScheduler, () => (pipelines++, turn())));
      expectObservable(result).toBe("-s-t-f-s-t-f-|", same);
      expectSubscriptions(source.subscriptions).toBe("^------------!");
    });
    expect(pipelines).toBe(2);
  });

  it("lets a stream that stays open after RUN_FINISHED go once no run starts within the grace time", () => {
    expect(NEXT_RUN_GRACE_MS).toBe(1000);
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-f-", events);
      expectObservable(source.pipe(runs(NEVER, asyncScheduler, turn))).toBe("-s-f 999ms |", same);
      expectSubscriptions(source.subscriptions).toBe("^-- 1000ms !");
    });
  });

  it("on stop, starts no further run and lets the source go", () => {
    testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-f-s-t-f-|", events);
      const stop = hot("----x");
      expectObservable(source.pipe(runs(stop, asyncScheduler, turn))).toBe("-s-f|", same);
      expectSubscriptions(source.subscriptions).toBe("^---!");
    });
  });

  it("passes a source error to the run under way", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-s-t-#", events).pipe(runs(NEVER, asyncScheduler, turn))).toBe("-s-t-#", same);
    });
  });

  it("ends with the pipeline's error, letting the source go (a RUN_ERROR fails the turn)", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-e-s-f-|", events);
      const failing = (): OperatorFunction<BaseEvent, string> => (run) =>
        run.pipe(
          map((event) => {
            if (event.type === EventType.RUN_ERROR) throw new Error("boom");
            return letter[event.type]!;
          }),
        );
      expectObservable(source.pipe(runs(NEVER, asyncScheduler, failing))).toBe("-s-#", same, new Error("boom"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("completes with an empty source, and stops a synchronous source when unsubscribed", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<BaseEvent>("|").pipe(runs(NEVER, asyncScheduler, turn))).toBe("|");
    });
    expect(producedBeforeUnsubscribe(() => ev.text("m1", "x"), runs(NEVER, asyncScheduler, turn), 2)).toEqual([0, 1]);
  });

  it("announces the stream's first event with RUN_BEGAN, before the first run, and not an error that came first", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-s---f---|", events).pipe(eachRun(NEVER, asyncScheduler, turn))).toBe("-(bs)f---|", { ...same, b: RUN_BEGAN });
      expectObservable(cold("-#", events).pipe(eachRun(NEVER, asyncScheduler, turn))).toBe("-#");
    });
  });
});
