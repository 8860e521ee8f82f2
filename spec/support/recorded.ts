import { defer, type MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../../src/conversation";
import type { PipelineElement } from "../../src/instructions";
import { applyToConversation, type ApplyToConversationOptions } from "../../src/operators/record/applyToConversation";

/**
 * A mapping operator made from what `conversation` holds as it is
 * subscribed, followed by the one writer of the conversation: what the
 * conversation ends up holding, and what goes on past the writer.
 */
export function recorded(
  conversation: Conversation,
  mapping: (conversation: Conversation) => MonoTypeOperatorFunction<PipelineElement>,
  options: ApplyToConversationOptions = {},
): MonoTypeOperatorFunction<PipelineElement> {
  return (source) => defer(() => source.pipe(mapping(conversation), applyToConversation(conversation, options)));
}

/** What `clarification()` knows of `conversation` as a run begins. */
export const clarificationContext = (conversation: Conversation) => ({
  threadId: conversation.threadId,
  state: conversation.state,
  ...(conversation.clarificationShownForState !== undefined && { shownForState: conversation.clarificationShownForState }),
});
