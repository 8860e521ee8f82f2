import type { TokenUsage } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";

/** What a usage note says of a run's usage. */
export type DescribeUsage = (usage: readonly TokenUsage[]) => string;

/**
 * A quiet line under the answer with the tokens its run used: each
 * `run.usage` (from `runOutcome()`) becomes a Carbon `system` item (its
 * `title`, which Carbon shows small and muted), "150 tokens (120 in, 30
 * out)" by default, before the turn ends; the `run.usage` goes on to the
 * conversation.
 *
 * ```
 * source: --u--t--|    u: run.usage [{ inputTokens: 120, outputTokens: 30, totalTokens: 150 }]; t: turn.end
 * result: --(iu)-t--|  i: item.complete { response_type: "system", title: "150 tokens (120 in, 30 out)" }
 * ```
 */
export function usageNote(describe: DescribeUsage = describeUsage): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => ({
      next(element) {
        if ("kind" in element && element.kind === "run.usage") {
          out.next({ kind: "item.complete", itemId: `usage-${element.runId}`, item: { response_type: "system", title: describe(element.usage) } });
        }
        out.next(element);
      },
    }),
    ["run.usage"],
  );
}

/** "150 tokens (120 in, 30 out)": the entries summed; a total not reported is the input and output added. */
export function describeUsage(usage: readonly TokenUsage[]): string {
  let input = 0;
  let output = 0;
  let total = 0;
  for (const entry of usage) {
    input += entry.inputTokens ?? 0;
    output += entry.outputTokens ?? 0;
    total += entry.totalTokens ?? (entry.inputTokens ?? 0) + (entry.outputTokens ?? 0);
  }
  const count = (value: number) => value.toLocaleString("en-US");
  return `${count(total)} tokens (${count(input)} in, ${count(output)} out)`;
}
