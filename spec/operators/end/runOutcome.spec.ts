import { filter, map } from "rxjs";
import { AgUiRunError } from "../../../src/errors";
import type { PipelineElement, RunToolCall } from "../../../src/instructions";
import { runOutcome } from "../../../src/operators/end/runOutcome";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;
/** Leaves `run.finished` out, for the specs about the turn's end. */
const withoutRunFinished = filter((element: PipelineElement) => !("kind" in element && element.kind === "run.finished"));

describe("runOutcome", () => {
  it("maps RUN_FINISHED to a finished turn and passes the rest through", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-c-f-----|", elements({ c: ev.custom("x"), f: ev.runFinished() }));
      expectObservable(source.pipe(runOutcome())).toBe("-c-(rt)--|", elements({ c: ev.custom("x"), r: { kind: "run.finished" }, t: instr.finished() }));
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
  });

  it("reports the tokens a RUN_FINISHED or a RUN_ERROR says its run used, with the run's id, before the turn ends", () => {
    const usage = [{ model: "m", inputTokens: 10, outputTokens: 2, totalTokens: 12 }];
    testScheduler().run(({ cold, expectObservable }) => {
      const finished = cold("-f-------|", elements({ f: ev.runFinished({ runId: "r1", usage }) }));
      expectObservable(finished.pipe(runOutcome())).toBe("-(urt)---|", elements({ u: { kind: "run.usage", runId: "r1", usage }, r: { kind: "run.finished" }, t: instr.finished() }));
      const failed = cold("-s-e------|", elements({ s: ev.runStarted("r2"), e: { ...ev.runError("overloaded"), usage } }));
      expectObservable(failed.pipe(runOutcome())).toBe("-s-(ut)---|", elements({ s: ev.runStarted("r2"), u: { kind: "run.usage", runId: "r2", usage }, t: instr.failed(new AgUiRunError("overloaded")) }));
      const none = cold("-f-----|", elements({ f: ev.runFinished({ usage: [] }) }));
      expectObservable(none.pipe(runOutcome(), withoutRunFinished)).toBe("-t-----|", { t: instr.finished() });
    });
  });

  it("shows every RUN_FINISHED's outcome and result to onRunFinished", () => {
    const seen: unknown[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-|", elements({ a: ev.runFinished({ result: { answer: 42 } }), b: ev.runFinished({ outcome: { type: "cancelled" } }) }));
      expectObservable(source.pipe(runOutcome({ onRunFinished: (finished) => seen.push(finished) }), withoutRunFinished)).toBe("-t-s-|", { t: instr.finished(), s: instr.stopped() });
    });
    expect(seen).toEqual([{ result: { answer: 42 } }, { outcome: { type: "cancelled" } }]);
  });

  it("lists the calls the run left the chat (handed over, or failed for want of a tool) as pending when a success does not list them, as @ag-ui/client derives them (CopilotKit and Mastra end a run waiting on a frontend tool so)", () => {
    const seen: unknown[] = [];
    const call = (toolCallId: string, status: RunToolCall["status"]): RunToolCall => ({ toolCallId, name: "paint", arguments: "{}", status });
    const calls = [call("t1", "handedOver"), call("t2", "answered"), call("t3", "handedOver"), call("t4", "failed"), call("t5", "held")];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-c-f-----g-----h-----|", elements({
        c: { kind: "run.toolCalls", calls },
        f: ev.runFinished(),
        g: ev.runFinished({ outcome: { type: "success", pendingToolCallIds: [] } }),
        h: ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["t3"] } }),
      }));
      expectObservable(source.pipe(runOutcome({ onRunFinished: (finished) => seen.push(finished) }))).toBe("-c-(rt)--(st)--(ut)--|", elements({
        c: { kind: "run.toolCalls", calls },
        r: { kind: "run.finished", outcome: { type: "success", pendingToolCallIds: ["t1", "t3", "t4"] } },
        s: { kind: "run.finished", outcome: { type: "success", pendingToolCallIds: ["t1", "t3", "t4"] } },
        u: { kind: "run.finished", outcome: { type: "success", pendingToolCallIds: ["t3"] } },
        t: instr.finished(),
      }));
    });
    expect(seen).toEqual([
      { outcome: { type: "success", pendingToolCallIds: ["t1", "t3", "t4"] } },
      { outcome: { type: "success", pendingToolCallIds: ["t1", "t3", "t4"] } },
      { outcome: { type: "success", pendingToolCallIds: ["t3"] } },
    ]);
  });

  it("lists no pending calls when every call got its result, nor for an interrupt", () => {
    const seen: unknown[] = [];
    const interrupt = { type: "interrupt" as const, interrupts: [{ id: "i1", reason: "approval", toolCallId: "t2" }] };
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-f-b-i-|", elements({
        a: { kind: "run.toolCalls", calls: [{ toolCallId: "t1", name: "paint", arguments: "{}", status: "answered" }] },
        f: ev.runFinished(),
        b: { kind: "run.toolCalls", calls: [{ toolCallId: "t2", name: "delete", arguments: "{}", status: "handedOver" }] },
        i: ev.runFinished({ outcome: interrupt }),
      }));
      expectObservable(source.pipe(runOutcome({ onRunFinished: (finished) => seen.push(finished) }), withoutRunFinished)).toBe("-a-t-b-t-|", elements({
        a: { kind: "run.toolCalls", calls: [{ toolCallId: "t1", name: "paint", arguments: "{}", status: "answered" }] },
        b: { kind: "run.toolCalls", calls: [{ toolCallId: "t2", name: "delete", arguments: "{}", status: "handedOver" }] },
        t: instr.finished(),
      }));
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
      expectObservable(source.pipe(runOutcome(), withoutRunFinished)).toBe("-t-|", { t: instr.stopped() });
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
