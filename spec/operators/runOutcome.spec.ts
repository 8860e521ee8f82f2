import { map } from "rxjs";
import { AgUiRunError } from "../../src/errors";
import type { PipelineElement } from "../../src/instructions";
import { runOutcome } from "../../src/operators/runOutcome";
import { ev, instr } from "../support/builders";
import { testScheduler } from "../support/marbles";
import { itFollowsTheOperatorContract } from "../support/operatorContract";

const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;

describe("runOutcome", () => {
  it("maps RUN_FINISHED to a finished turn and passes the rest through", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-c-f-|", elements({ c: ev.custom("x"), f: ev.runFinished() }));
      expectObservable(source.pipe(runOutcome())).toBe("-c-t-|", elements({ c: ev.custom("x"), t: instr.finished() }));
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  it("shows every RUN_FINISHED's outcome and result to onRunFinished", () => {
    const seen: unknown[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-|", elements({ a: ev.runFinished({ result: { answer: 42 } }), b: ev.runFinished({ outcome: { type: "cancelled" } }) }));
      expectObservable(source.pipe(runOutcome({ onRunFinished: (finished) => seen.push(finished) }))).toBe("-t-s-|", { t: instr.finished(), s: instr.stopped() });
    });
    expect(seen).toEqual([{ result: { answer: 42 } }, { outcome: { type: "cancelled" } }]);
  });

  it("errors when onRunFinished throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const onRunFinished = () => {
        throw new Error("host bug");
      };
      expectObservable(cold("-f-|", elements({ f: ev.runFinished() })).pipe(runOutcome({ onRunFinished }))).toBe("-#", undefined, new Error("host bug"));
    });
  });

  it("maps a cancelled outcome to a stopped turn", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-f-|", elements({ f: ev.runFinished({ outcome: { type: "cancelled" } }) }));
      expectObservable(source.pipe(runOutcome())).toBe("-t-|", { t: instr.stopped() });
    });
  });

  it("maps RUN_ERROR to a failed turn carrying an AgUiRunError with the event's message and code", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-e-|", elements({ e: ev.runError("rate limited", "429") }));
      expectObservable(source.pipe(runOutcome())).toBe("-t-|", { t: instr.failed(new AgUiRunError("rate limited", "429")) });
    });
    const error = new AgUiRunError("rate limited", "429");
    expect([error.name, error.message, error.code]).toEqual(["AgUiRunError", "rate limited", "429"]);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: "AgUiRunError", message: "rate limited", code: "429" });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-f-f-|", elements({ f: ev.runFinished() }));
      const result = source.pipe(
        runOutcome(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  itFollowsTheOperatorContract(() => runOutcome(), ev.custom("x") as PipelineElement);
});
