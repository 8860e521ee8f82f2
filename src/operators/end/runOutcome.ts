import { EventType, type RunFinishedOutcome, type TokenUsage } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { AgUiRunError } from "../../errors";
import type { PipelineElement, RunToolCall } from "../../instructions";
import { createOperator } from "../fusion";

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
 * `run.finished` (its outcome and result), then
 * `turn.end` `finished` (or `stopped` when its outcome is `cancelled`), after
 * `onRunFinished` has seen its outcome and result; RUN_ERROR becomes
 * `turn.end` `failed` with an `AgUiRunError` carrying the event's message and
 * code. The tokens either reports it used (`usage`) go before, as
 * `run.usage` (with the run's id, from its RUN_STARTED for a RUN_ERROR).
 *
 * CopilotKit and Mastra end a run that waits on a frontend tool with no
 * outcome at all: a success that lists no `pendingToolCallIds` gets the calls
 * the run left without a result, as `@ag-ui/client` derives them (its
 * `run.toolCalls`, from `toolCallSteps()`: handed over, or failed for want of
 * a tool).
 *
 * ```
 * source: --a--c--F--|    c: run.toolCalls; F: RUN_FINISHED
 * result: --a-----(rt)|   r: run.finished; t: { kind: "turn.end", how: "finished" }
 * ```
 */
export function runOutcome(options: RunOutcomeOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onRunFinished } = options;
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      /** The calls the run left the chat to answer, as `toolCallSteps` closed them. */
      let leftToChat: readonly RunToolCall[] = [];
      let runId = "";
      const reportUsage = (usage: readonly TokenUsage[] | undefined) => {
        if (usage !== undefined && usage.length > 0) out.next({ kind: "run.usage", runId, usage });
      };
      const withPendingCalls = (outcome: RunFinishedOutcome | undefined): RunFinishedOutcome | undefined => {
        if ((outcome !== undefined && outcome.type !== "success") || (outcome?.pendingToolCallIds?.length ?? 0) > 0 || leftToChat.length === 0) return outcome;
        return { ...outcome, type: "success", pendingToolCallIds: leftToChat.map((call) => call.toolCallId) };
      };
      return {
        next(element) {
          if ("kind" in element) {
            // A successful run that lists none leaves the chat every call it left without a result (see fatesAtFinish).
            if (element.kind === "run.toolCalls") leftToChat = element.calls.filter((call) => call.status === "handedOver" || call.status === "failed");
            return out.next(element);
          }
          switch (element.type) {
            case EventType.RUN_STARTED:
              runId = element.runId;
              return out.next(element);
            case EventType.RUN_FINISHED: {
              runId = element.runId;
              reportUsage(element.usage);
              const outcome = withPendingCalls(element.outcome);
              const { result } = element;
              onRunFinished?.({ ...(outcome !== undefined && { outcome }), ...(result !== undefined && { result }) });
              out.next({ kind: "run.finished", ...(outcome !== undefined && { outcome }), ...(result !== undefined && { result }) });
              return out.next({ kind: "turn.end", how: element.outcome?.type === "cancelled" ? "stopped" : "finished" });
            }
            case EventType.RUN_ERROR:
              reportUsage(element.usage);
              return out.next({ kind: "turn.end", how: "failed", error: new AgUiRunError(element.message, element.code) });
            default:
              return out.next(element);
          }
        },
      };
    },
    [EventType.RUN_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR, "run.toolCalls"],
  );
}
