import { EventType, type RunFinishedOutcome } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { AgUiRunError } from "../errors";
import type { PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";

export interface RunOutcomeOptions {
  /**
   * Sees every RUN_FINISHED: its outcome (absent means success) and result.
   * When a success does not list its `pendingToolCallIds` (absent or empty),
   * the calls of the run that got no result are listed, as AG-UI 1.0 asks the
   * consumer to derive them. A throw fails the turn.
   */
  onRunFinished?: (finished: { outcome?: RunFinishedOutcome; result?: unknown }) => void;
}

/**
 * Maps the end of the run to the end of the Carbon turn: RUN_FINISHED becomes
 * `turn.end` `finished` (or `stopped` when its outcome is `cancelled`), after
 * `onRunFinished` has seen its outcome and result; RUN_ERROR becomes
 * `turn.end` `failed` with an `AgUiRunError` carrying the event's message and
 * code.
 *
 * It reads the run's tool calls and results from the history instructions of
 * `toolCallSteps()` (so it goes after it): CopilotKit and Mastra end a run
 * that waits on a frontend tool with no outcome at all, and the calls still
 * open are the pending ones.
 *
 * ```
 * source: --a--F--|    F: RUN_FINISHED
 * result: --a--t--|    t: { kind: "turn.end", how: "finished" }
 * ```
 */
export function runOutcome(options: RunOutcomeOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onRunFinished } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => {
    /** The run's tool calls without a result yet, in the order they were made. */
    const open = new Set<string>();
    const withPendingCalls = (outcome: RunFinishedOutcome | undefined): RunFinishedOutcome | undefined => {
      if ((outcome !== undefined && outcome.type !== "success") || (outcome?.pendingToolCallIds?.length ?? 0) > 0 || open.size === 0) return outcome;
      return { ...outcome, type: "success", pendingToolCallIds: [...open] };
    };
    return {
      next(element) {
        if ("kind" in element) {
          if (element.kind === "history.message") {
            const { message } = element;
            if (message.role === "assistant") for (const call of message.toolCalls ?? []) open.add(call.id);
            if (message.role === "tool") open.delete(message.toolCallId);
          }
          return out.next(element);
        }
        switch (element.type) {
          case EventType.RUN_FINISHED: {
            const outcome = withPendingCalls(element.outcome);
            onRunFinished?.({ ...(outcome !== undefined && { outcome }), ...(element.result !== undefined && { result: element.result }) });
            return out.next({ kind: "turn.end", how: element.outcome?.type === "cancelled" ? "stopped" : "finished" });
          }
          case EventType.RUN_ERROR:
            return out.next({ kind: "turn.end", how: "failed", error: new AgUiRunError(element.message, element.code) });
          default:
            return out.next(element);
        }
      },
    };
  }, [EventType.RUN_FINISHED, EventType.RUN_ERROR, "history.message"]);
}
