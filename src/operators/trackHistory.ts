import type { MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../conversation";
import type { PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";

/**
 * Records every `history.message` in the conversation, so the next run sends
 * it to the agent. Passes everything through unchanged.
 *
 * ```
 * source: --h--a--|    h: history.message (recorded in the conversation)
 * result: --h--a--|
 * ```
 */
export function trackHistory(conversation: Conversation): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if ("kind" in element && element.kind === "history.message") conversation.upsertMessage(element.message);
      out.next(element);
    },
  }));
}
