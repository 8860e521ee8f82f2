import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../conversation";
import { isEventOfType, type PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";

/**
 * MESSAGES_SNAPSHOT replaces the conversation's history (reconciled by id, see
 * `Conversation.replaceMessages`). An assistant message in the snapshot that
 * the conversation had not seen — neither in an earlier turn nor streamed in
 * this one, as from a graph that does not stream, or the continuation after
 * a resume — is shown as a text item under its message id.
 *
 * It reads the history as recorded so far, so it goes after `trackHistory()`.
 *
 * ```
 * source: --m--|    m: MESSAGES_SNAPSHOT [user "Hi", assistant a9 "Hello"] (a9 never streamed)
 * result: --c--|    c: item.complete { text: "Hello" } under a9
 * ```
 */
export function messagesSnapshot(conversation: Conversation): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if (!isEventOfType(element, EventType.MESSAGES_SNAPSHOT)) return out.next(element);
      const unseen = element.messages.filter(
        (message) => message.role === "assistant" && typeof message.content === "string" && message.content !== "" && !conversation.hasMessage(message.id),
      );
      conversation.replaceMessages(element.messages);
      for (const message of unseen) {
        out.next({ kind: "item.complete", itemId: message.id, item: { response_type: "text", text: message.content as string } });
      }
    },
  }), [EventType.MESSAGES_SNAPSHOT]);
}
