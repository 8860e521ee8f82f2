import type { CarbonAgUiAdapter } from "../adapter";
import type { AnswerVersionsData } from "../adapter/answerItems";
import type { CarbonEventBus } from "../carbon";
import { createAnswerVersions, type AnswerVersionsOptions } from "./createAnswerVersions";
import { renderSlotted } from "./renderSlotted";

export interface RenderAnswerVersionsOptions {
  /** The Carbon instance (from `onBeforeRender`). */
  instance: AnswerVersionsOptions["instance"] & CarbonEventBus;
  /** The chat element (`cds-aichat-custom-element`) the bar is slotted into. */
  host: HTMLElement;
  adapter: AnswerVersionsOptions["adapter"] & Partial<Pick<CarbonAgUiAdapter, "threadId$">>;
}

/**
 * Renders the versions bar (`answerVersions`) in Carbon AI Chat's web
 * component: each answer's `versions` item becomes a bar
 * (`createAnswerVersions`), shown while its answer is the latest. Returns a
 * function that removes everything.
 */
export function renderAnswerVersions({ instance, host, adapter }: RenderAnswerVersionsOptions): () => void {
  const versions = (document: Document, data: AnswerVersionsData) => createAnswerVersions(document, data, { instance, adapter });
  return renderSlotted({ instance, host, threadId$: adapter.threadId$, kinds: { versions } });
}
