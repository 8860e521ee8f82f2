import type { MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../conversation";
import type { PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";

/**
 * Records every `history.message` in the conversation, holds the place of
 * every message that started (`history.reserve`), and attaches every
 * `history.encryptedValue` to its message or tool call, so the next run sends
 * them to the agent. Passes everything through unchanged.
 *
 * ```
 * source: --h--a--|    h: history.message (recorded in the conversation)
 * result: --h--a--|
 * ```
 */
export function trackHistory(conversation: Conversation): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if ("kind" in element) {
        if (element.kind === "history.message") conversation.upsertMessage(element.message);
        else if (element.kind === "history.reserve") conversation.reserveMessage(element.messageId, element.role);
        else if (element.kind === "history.encryptedValue") conversation.attachEncryptedValue(element.subtype, element.entityId, element.encryptedValue);
      }
      out.next(element);
    },
  }), ["history.message", "history.reserve", "history.encryptedValue"]);
}
