import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { AgUiInterruptError, type CarbonAgUiError } from "../../errors";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { warnOnConsole } from "../../internal/warnings";
import { createOperator } from "../fusion";

export interface LegacyInterruptOptions {
  /** Told when a run ends without the interrupt outcome its legacy `on_interrupt` event announced. Default: `console.warn`. A throw fails the turn. */
  onWarning?: (warning: CarbonAgUiError) => void;
}

/** What `onWarning` is told. */
export const LEGACY_INTERRUPT_WARNING =
  "LangGraph sent its legacy on_interrupt event but no interrupt outcome: the interrupt is not shown, and the thread waits on it. Create LangGraphAgent with emitInterruptOutcome: true";

/**
 * `@ag-ui/langgraph` announces a graph's `interrupt()` with a CUSTOM
 * `on_interrupt` event, and, only with `emitInterruptOutcome: true`, ends
 * the run with the interrupt outcome that decision cards and resumes need.
 * A run that sent `on_interrupt` and finished without that outcome is told
 * to `onWarning` (it has no interrupt id to resume, so no card is made of
 * it); everything passes unchanged.
 *
 * ```
 * source: --c--F--|    c: CUSTOM on_interrupt; F: RUN_FINISHED with no interrupt outcome
 * result: --c--F--|    onWarning(AgUiInterruptError) at F
 * ```
 */
export function legacyInterrupt(options: LegacyInterruptOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onWarning = warnOnConsole } = options;
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      let announced = false;
      return {
        next(element) {
          if (isEventOfType(element, EventType.CUSTOM)) announced ||= element.name === "on_interrupt";
          else if (isEventOfType(element, EventType.RUN_FINISHED)) {
            if (announced && element.outcome?.type !== "interrupt") onWarning(new AgUiInterruptError(LEGACY_INTERRUPT_WARNING));
            announced = false;
          }
          out.next(element);
        },
      };
    },
    [EventType.CUSTOM, EventType.RUN_FINISHED],
  );
}
