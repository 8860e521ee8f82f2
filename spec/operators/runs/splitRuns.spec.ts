import { EventType, type BaseEvent } from "@ag-ui/core";
import { concatMap, map, mergeMap, NEVER, of, type Observable } from "rxjs";
import { splitRuns, type StreamRun } from "../../../src/operators/runs/splitRuns";
import { ev } from "../../support/builders";
import { producedBeforeUnsubscribe, testScheduler } from "../../support/marbles";

const events: Record<string, BaseEvent> = { s: ev.runStarted(), t: ev.text("m1", "x"), f: ev.runFinished(), e: ev.runError("boom"), x: ev.stateSnapshot({}) };
const letter: Record<string, string> = {
  [EventType.RUN_STARTED]: "s",
  [EventType.TEXT_MESSAGE_CONTENT]: "t",
  [EventType.RUN_FINISHED]: "f",
  [EventType.RUN_ERROR]: "e",
  [EventType.STATE_SNAPSHOT]: "x",
};
const same = { s: "s", t: "t", f: "f", e: "e", x: "x" };
/** Each run's events as letters, the runs played one after another as the adapter plays them. */
const played = (runs: Observable<StreamRun>) => runs.pipe(concatMap((run) => run.events.pipe(map((event) => letter[event.type]!))));

describe("splitRuns", () => {
  it("emits each run as it begins, its events completing at its RUN_FINISHED", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-t-f-s-f-|", events);
      const runs = source.pipe(splitRuns());
      expectObservable(runs.pipe(map((run) => letter[run.first!.type]!))).toBe("-s-----s---|", same);
      expectObservable(runs.pipe(mergeMap((run) => run.events.pipe(map((event) => letter[event.type]!))))).toBe("-s-t-f-s-f-|", same);
      expectSubscriptions(source.subscriptions).toBe(["^----------!", "^----------!"]);
    });
  });

  it("keeps a run that starts 1.5 s after the one before ended, as long as the stream stays open: no clock decides", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-s-f 1500ms s-t-f 10s |", events);
      expectObservable(played(source.pipe(splitRuns()))).toBe("-s-f 1500ms s-t-f 10s |", same);
    });
  });

  it("stays open after a run's end while the stream does: the result completes with the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-f-", events);
      expectObservable(played(source.pipe(splitRuns()))).toBe("-s-f-", same);
      expectSubscriptions(source.subscriptions).toBe("^");
    });
  });

  it("drops what comes after a run's end that starts no run (it belongs to the run that ended)", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(played(cold("-s-e-x-x-s-f-|", events).pipe(splitRuns()))).toBe("-s-e-----s-f-|", same);
    });
  });

  it("ends a run that the stream cuts short with the stream, and passes a source error to the run under way", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(played(cold("-s-t-|", events).pipe(splitRuns()))).toBe("-s-t-|", same);
      expectObservable(played(cold("-s-t-#", events).pipe(splitRuns()))).toBe("-s-t-#", same);
    });
  });

  it("gives an error that came before any event a run of its own, whose events fail at once", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<BaseEvent>("-#").pipe(splitRuns(), map((run) => run.first?.type ?? "none"))).toBe("-(r|)", { r: "none" });
      expectObservable(played(cold<BaseEvent>("-#").pipe(splitRuns()))).toBe("-#");
    });
  });

  it("holds a run's events until it is subscribed, then passes them on as they come", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const late = cold("-s-t-f------|", events).pipe(
        splitRuns(),
        // The run is taken 5 frames after it began: what came before is handed over at once.
        concatMap((run) => of(run).pipe(concatMap(() => cold("-----r|", { r: run })))),
        concatMap((run) => run.events.pipe(map((event) => letter[event.type]!))),
      );
      expectObservable(late).toBe("------(stf)-|", same);
    });
  });

  describe("the operator contract", () => {
    it("completes with an empty source, stays silent with a never one, and unsubscribes the source when unsubscribed early", () => {
      testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
        expectObservable(cold<BaseEvent>("|").pipe(splitRuns())).toBe("|");
        expectObservable(NEVER.pipe(splitRuns())).toBe("-");
        const source = hot("-s-t-f-s-|", events);
        expectObservable(played(source.pipe(splitRuns())), "^--!").toBe("-s-", same);
        expectSubscriptions(source.subscriptions).toBe("^--!");
      });
    });

    it("stops a synchronous source when unsubscribed", () => {
      expect(producedBeforeUnsubscribe((index) => (index % 2 === 0 ? ev.runStarted() : ev.runFinished()), splitRuns(), 2)).toEqual([0, 1, 2]);
    });
  });
});
