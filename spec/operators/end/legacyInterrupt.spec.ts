import { EventType, type BaseEvent } from "@ag-ui/core";
import { AgUiInterruptError, type CarbonAgUiError } from "../../../src/errors";
import type { PipelineElement } from "../../../src/instructions";
import { LEGACY_INTERRUPT_WARNING, legacyInterrupt } from "../../../src/operators/end/legacyInterrupt";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const onInterrupt = { type: EventType.CUSTOM, name: "on_interrupt", value: '{"message":"Delete?"}' } as BaseEvent as PipelineElement;
const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;

describe("legacyInterrupt", () => {
  it("warns when a run announced an interrupt with on_interrupt and finished without the interrupt outcome, passing everything on", () => {
    const warnings: CarbonAgUiError[] = [];
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = elements({ c: onInterrupt, f: ev.runFinished(), s: ev.runStarted(), g: ev.runFinished() });
      const source = cold("-c-f-s-g-|", values);
      expectObservable(source.pipe(legacyInterrupt({ onWarning: (warning) => void warnings.push(warning) }))).toBe("-c-f-s-g-|", values);
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
    expect(warnings).toEqual([new AgUiInterruptError(LEGACY_INTERRUPT_WARNING)]);
  });

  it("says nothing when the outcome carries the interrupt (emitInterruptOutcome: true)", () => {
    const warnings: CarbonAgUiError[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ c: onInterrupt, f: ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "langgraph:interrupt" }] } }) });
      expectObservable(cold("-c-f-|", values).pipe(legacyInterrupt({ onWarning: (warning) => void warnings.push(warning) }))).toBe("-c-f-|", values);
    });
    expect(warnings).toEqual([]);
  });

  it("errors when onWarning throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = elements({ c: onInterrupt, f: ev.runFinished() });
      const source = cold("-c-f-|", values);
      const onWarning = () => {
        throw new Error("host bug");
      };
      expectObservable(source.pipe(legacyInterrupt({ onWarning }))).toBe("-c-#", values, new Error("host bug"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  itFollowsTheOperatorContract(() => legacyInterrupt({ onWarning: () => undefined }), onInterrupt);
});
