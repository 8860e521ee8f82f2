import type { Thread } from "../thread/thread";
import { lastAnswerMessage } from "./answerVersions";
import type { AnswerFeedback } from "./options";

/** The feedback bus event fields read. */
export interface CarbonFeedbackEvent {
  interactionType?: string;
  message?: { id?: string };
  messageItem?: { message_item_options?: { feedback?: { id?: string } } };
  isPositive?: boolean;
  text?: string;
  categories?: string[];
}

/**
 * The feedback a person submitted with Carbon's thumbs (its `feedback` bus
 * event), into the thread's log (a restored answer shows it), and as
 * `onFeedback` hears it, with what the log knows of the answer (the run
 * that made it, its last words' message); none for other interactions
 * (opening, closing the form).
 */
export function feedbackOf(thread: Thread, event: CarbonFeedbackEvent): AnswerFeedback | undefined {
  const responseId = event.message?.id;
  if (event.interactionType !== "submitted" || responseId === undefined) return undefined;
  const isPositive = event.isPositive === true;
  const text = event.text !== undefined && event.text !== "" ? event.text : undefined;
  const categories = event.categories && event.categories.length > 0 ? event.categories : undefined;
  const feedbackId = event.messageItem?.message_item_options?.feedback?.id;
  const run = thread.branch().find((entry) => entry.kind === "run" && entry.responseId === responseId);
  if (feedbackId !== undefined && run) {
    thread.act({ type: "feedback", responseId, feedbackId, feedback: { is_positive: isPositive, ...(event.text !== undefined && { text: event.text }), ...(event.categories && { categories: event.categories }) } });
  }
  const messageId = run?.kind === "run" ? lastAnswerMessage(thread.conversation.messages, run.requestId) : undefined;
  return {
    threadId: thread.threadId,
    responseId,
    ...(run?.kind === "run" && { runId: run.runId }),
    ...(messageId !== undefined && { messageId }),
    isPositive,
    ...(text !== undefined && { text }),
    ...(categories && { categories }),
  };
}
