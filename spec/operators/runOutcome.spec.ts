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

  it("lists the run's calls still without a result as pending when a success does not list them (as CopilotKit and Mastra end a run waiting on a frontend tool)", () => {
    const seen: unknown[] = [];
    const call = (id: string) => ({ id, type: "function" as const, function: { name: "paint", arguments: "{}" } });
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-r-f-g-h-|", elements({
        a: instr.history({ id: "m1", role: "assistant", toolCalls: [call("t1"), call("t2"), call("t3")] }),
        r: instr.history({ id: "r2", role: "tool", toolCallId: "t2", content: "done" }),
        f: ev.runFinished(),
        g: ev.runFinished({ outcome: { type: "success", pendingToolCallIds: [] } }),
        h: ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["t3"] } }),
      }));
      expectObservable(source.pipe(runOutcome({ onRunFinished: (finished) => seen.push(finished) }))).toBe("-a-r-t-t-t-|", {
        a: instr.history({ id: "m1", role: "assistant", toolCalls: [call("t1"), call("t2"), call("t3")] }),
        r: instr.history({ id: "r2", role: "tool", toolCallId: "t2", content: "done" }),
        t: instr.finished(),
      });
    });
    expect(seen).toEqual([
      { outcome: { type: "success", pendingToolCallIds: ["t1", "t3"] } },
      { outcome: { type: "success", pendingToolCallIds: ["t1", "t3"] } },
      { outcome: { type: "success", pendingToolCallIds: ["t3"] } },
    ]);
  });

  it("lists no pending calls when every call got its result, nor for an interrupt", () => {
    const seen: unknown[] = [];
    const interrupt = { type: "interrupt" as const, interrupts: [{ id: "i1", reason: "approval", toolCallId: "t2" }] };
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-r-f-b-i-|", elements({
        a: instr.history({ id: "m1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "paint", arguments: "{}" } }] }),
        r: instr.history({ id: "r1", role: "tool", toolCallId: "t1", content: "done" }),
        f: ev.runFinished(),
        b: instr.history({ id: "m2", role: "assistant", toolCalls: [{ id: "t2", type: "function", function: { name: "delete", arguments: "{}" } }] }),
        i: ev.runFinished({ outcome: interrupt }),
      }));
      expectObservable(source.pipe(runOutcome({ onRunFinished: (finished) => seen.push(finished) }))).toBe("-a-r-t-b-t-|", {
        a: instr.history({ id: "m1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "paint", arguments: "{}" } }] }),
        r: instr.history({ id: "r1", role: "tool", toolCallId: "t1", content: "done" }),
        b: instr.history({ id: "m2", role: "assistant", toolCalls: [{ id: "t2", type: "function", function: { name: "delete", arguments: "{}" } }] }),
        t: instr.finished(),
      });
    });
    expect(seen).toEqual([{}, { outcome: interrupt }]);
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
