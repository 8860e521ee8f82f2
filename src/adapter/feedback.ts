import type { CarbonFeedbackEvent } from "./chatPersistence";
import type { AnswerFeedback } from "./options";

/** The feedback a person submitted with Carbon's thumbs (its `feedback` bus event), for `onFeedback`: none for other interactions (opening, closing the form). */
export function feedbackOf(event: CarbonFeedbackEvent, threadId: string, about: { runId?: string; messageId?: string } = {}): AnswerFeedback | undefined {
  const responseId = event.message?.id;
  if (event.interactionType !== "submitted" || responseId === undefined) return undefined;
  return {
    threadId,
    responseId,
    ...about,
    isPositive: event.isPositive === true,
    ...(event.text !== undefined && event.text !== "" && { text: event.text }),
    ...(event.categories && event.categories.length > 0 && { categories: event.categories }),
  };
}
