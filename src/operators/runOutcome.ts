import { EventType, type RunFinishedOutcome } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { AgUiRunError } from "../errors";
import type { PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";

/**
 * Maps the end of the run to the end of the Carbon turn: RUN_FINISHED becomes
 * `turn.end` `finished` (or `stopped` when its outcome is `cancelled`), after
 * `onRunFinished` has seen its outcome and result; RUN_ERROR becomes
 * `turn.end` `failed` with an `AgUiRunError` carrying the event's message and
 * code.
 *
 * ```
 * source: --a--F--|    F: RUN_FINISHED
 * result: --a--t--|    t: { kind: "turn.end", how: "finished" }
 * ```
 */
export interface RunOutcomeOptions {
  /** Sees every RUN_FINISHED: its outcome (absent means success) and result. A throw fails the turn. */
  onRunFinished?: (finished: { outcome?: RunFinishedOutcome; result?: unknown }) => void;
}

export function runOutcome(options: RunOutcomeOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onRunFinished } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if (!("type" in element)) return out.next(element);
      switch (element.type) {
        case EventType.RUN_FINISHED:
          onRunFinished?.({ ...(element.outcome !== undefined && { outcome: element.outcome }), ...(element.result !== undefined && { result: element.result }) });
          return out.next({ kind: "turn.end", how: element.outcome?.type === "cancelled" ? "stopped" : "finished" });
        case EventType.RUN_ERROR:
          return out.next({ kind: "turn.end", how: "failed", error: new AgUiRunError(element.message, element.code) });
        default:
          return out.next(element);
      }
    },
  }), [EventType.RUN_FINISHED, EventType.RUN_ERROR]);
}
