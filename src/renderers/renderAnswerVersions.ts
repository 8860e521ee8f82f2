import type { CarbonAgUiAdapter } from "../adapter";
import type { AnswerVersionsData, QuestionControlData } from "../adapter/answerItems";
import type { CarbonEventBus } from "../carbon";
import { createAnswerVersions, type AnswerVersionsOptions } from "./createAnswerVersions";
import { createQuestionControl, type QuestionControlOptions } from "./createQuestionControl";
import { renderSlotted } from "./renderSlotted";

export interface RenderAnswerVersionsOptions {
  /** The Carbon instance (from `onBeforeRender`). */
  instance: AnswerVersionsOptions["instance"] & QuestionControlOptions["instance"] & CarbonEventBus;
  /** The chat element (`cds-aichat-custom-element`) the bar is slotted into. */
  host: HTMLElement;
  adapter: AnswerVersionsOptions["adapter"] & QuestionControlOptions["adapter"] & Partial<Pick<CarbonAgUiAdapter, "threadId$">>;
}

/**
 * Renders the branches of a thread in Carbon AI Chat's web component: each
 * answer's `versions` item becomes the versions bar (`answerVersions`,
 * `createAnswerVersions`), shown while its answer is the latest, and each
 * `question` item the control for its question (`editQuestions`,
 * `createQuestionControl`). Returns a function that removes everything.
 */
export function renderAnswerVersions({ instance, host, adapter }: RenderAnswerVersionsOptions): () => void {
  const versions = (document: Document, data: AnswerVersionsData) => createAnswerVersions(document, data, { instance, adapter });
  const question = (document: Document, data: QuestionControlData) => createQuestionControl(document, data, { instance, adapter });
  return renderSlotted({ instance, host, threadId$: adapter.threadId$, kinds: { versions, question } });
}
