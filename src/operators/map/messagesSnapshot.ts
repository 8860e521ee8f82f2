import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";

export interface MessagesSnapshotOptions {
  /** The ids of the messages the conversation held before this run (their text is on screen already). */
  knownMessageIds?: Iterable<string>;
}

/**
 * MESSAGES_SNAPSHOT becomes a `history.snapshot` write (reconciled by id, see
 * `Conversation.replaceMessages`). An assistant message in the snapshot that
 * the person has not seen — neither in an earlier turn (`knownMessageIds`),
 * nor echoed in the run's input, nor streamed in this one, as from a graph that does not stream, or the
 * continuation after a resume — is shown as a text item under its message
 * id; a subagent's (it has a `subagentRunId`) never is: its words are not the
 * answer. The messages this run streamed are learnt from their START events, or
 * from the `history.*` writes the mappings made of them, whichever reaches
 * it, so it may stand anywhere among the mapping operators.
 *
 * ```
 * source: --m--|    m: MESSAGES_SNAPSHOT [user "Hi", assistant a9 "Hello"] (a9 never streamed)
 * result: --(hc)|   h: history.snapshot; c: item.complete { text: "Hello" } under a9
 * ```
 */
export function messagesSnapshot(options: MessagesSnapshotOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      const known = new Set(options.knownMessageIds);
      return {
        next(element) {
          if (!("type" in element)) {
            if (element.kind === "history.reserve") known.add(element.messageId);
            else if (element.kind === "history.message") known.add(element.message.id);
            else if (element.kind === "history.input") for (const message of element.messages) known.add(message.id);
            return out.next(element);
          }
          switch (element.type) {
            case EventType.TEXT_MESSAGE_START:
            case EventType.REASONING_MESSAGE_START:
              known.add(element.messageId);
              return out.next(element);
            case EventType.TOOL_CALL_START:
              known.add(element.parentMessageId ?? element.toolCallId);
              return out.next(element);
            case EventType.MESSAGES_SNAPSHOT: {
              const unseen = element.messages.filter(
                (message) => message.role === "assistant" && message.subagentRunId === undefined && typeof message.content === "string" && message.content !== "" && !known.has(message.id),
              );
              for (const message of element.messages) known.add(message.id);
              out.next({ kind: "history.snapshot", messages: element.messages });
              for (const message of unseen) out.next({ kind: "item.complete", itemId: message.id, item: { response_type: "text", text: message.content as string } });
              return;
            }
            default:
              return out.next(element);
          }
        },
      };
    },
    [EventType.MESSAGES_SNAPSHOT, EventType.TEXT_MESSAGE_START, EventType.REASONING_MESSAGE_START, EventType.TOOL_CALL_START, "history.reserve", "history.message", "history.input"],
  );
}
