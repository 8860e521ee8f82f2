import type { CarbonItem } from "../carbon";

/** The `user_defined` payload of the versions bar under an answer: the renderer draws it under the latest answer only. */
export interface AnswerVersionsData {
  kind: "versions";
  /** The response (Carbon's message id) the bar is under. */
  responseId: string;
}

/** Carbon's feedback options for an answer (its `message_item_options.feedback`), as the host may set them; `is_on` and `id` are the adapter's. */
export interface FeedbackOptions {
  show_positive_details?: boolean;
  show_negative_details?: boolean;
  show_text_area?: boolean;
  show_prompt?: boolean;
  title?: string;
  prompt?: string;
  categories?: string[] | { positive?: string[]; negative?: string[] };
  placeholder?: string;
  disclaimer?: string;
}

/** The Carbon id of the versions bar's item. */
export const VERSIONS_ITEM_ID = "carbon-agui-rx:versions";

/** The `user_defined` payload of the control for the question an answer answers (edit it, its versions): the renderer draws it with the first response under each question. */
export interface QuestionControlData {
  kind: "question";
  /** The response (Carbon's message id) the control is at the top of. */
  responseId: string;
}

/** The Carbon id of the question control's item. */
export const QUESTION_ITEM_ID = "carbon-agui-rx:question";

/**
 * What each answer's final response shows beyond the agent's items (the
 * pipeline's `finishAnswer`): with `questions`, the control for the question
 * first (just under it in the chat); Carbon's thumbs on its last item with
 * text (else its last item), their feedback id the response's id, when
 * `feedback` is on; and the versions bar after it, when `versions` is on.
 * None of them: undefined, and the items are left as they are.
 */
export function answerItems(feedback: boolean | FeedbackOptions | undefined, versions: boolean, questions = false): ((responseId: string, items: CarbonItem[]) => CarbonItem[]) | undefined {
  if (!feedback && !versions && !questions) return undefined;
  const feedbackOptions = feedback === true ? {} : feedback;
  return (responseId, items) => {
    const shown = [...items];
    if (feedbackOptions) {
      const textAt = shown.map((item) => item.response_type).lastIndexOf("text");
      const at = textAt === -1 ? shown.length - 1 : textAt;
      const item = shown[at]!;
      const options = (item.message_item_options ?? {}) as Record<string, unknown>;
      shown[at] = { ...item, message_item_options: { ...options, feedback: { ...feedbackOptions, is_on: true, id: responseId } } };
    }
    if (versions) {
      const user_defined: AnswerVersionsData = { kind: "versions", responseId };
      shown.push({ response_type: "user_defined", user_defined, streaming_metadata: { id: VERSIONS_ITEM_ID } });
    }
    if (questions) {
      const user_defined: QuestionControlData = { kind: "question", responseId };
      shown.unshift({ response_type: "user_defined", user_defined, streaming_metadata: { id: QUESTION_ITEM_ID } });
    }
    return shown;
  };
}
