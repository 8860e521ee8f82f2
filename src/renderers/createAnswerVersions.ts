import type { CarbonAgUiAdapter } from "../adapter";
import type { AnswerVersionsData } from "../adapter/answerItems";
import type { AnswerVersionsState } from "../adapter/answerVersions";
import type { CarbonVersionsInstance } from "../carbon";
import { create, iconButton } from "./controls";
import { RENEW_16 } from "./icons";
import type { RenderedCard } from "./renderedCard";
import { useCardStyles } from "./useCardStyles";
import { oneAtATime, versionPicker } from "./versionPicker";

export interface AnswerVersionsOptions {
  /** The Carbon instance: the new answer streams into it, versions are switched in it. */
  instance: CarbonVersionsInstance;
  adapter: Pick<CarbonAgUiAdapter, "answerVersions$" | "regenerate" | "switchVersion" | "warn">;
}

/**
 * The versions bar under an answer (the `user_defined` item
 * `answerVersions` adds): shown only while its answer is the latest.
 * "‹ 2 / 2 ›" once the answer was asked again, the arrows switching
 * versions, and Regenerate while no card waits for an answer; Carbon's
 * ghost icon buttons when the page has them, else native buttons, in
 * Carbon's tokens. Buttons wait while a regenerate or a switch is under
 * way; a refusal goes to the adapter's `onWarning`.
 */
export function createAnswerVersions(document: Document, data: AnswerVersionsData, options: AnswerVersionsOptions): RenderedCard {
  const { instance, adapter } = options;
  useCardStyles(document);
  const element = create(document, "div", "cagr-versions");
  element.hidden = true;
  let state: AnswerVersionsState | undefined;
  const paint = () => {
    element.hidden = state?.responseId !== data.responseId;
    if (!state || element.hidden) return;
    picker.paint(state.index, state.count, !actions.working());
    regenerate.hidden = !state.canRegenerate;
    regenerate.disabled = actions.working();
  };
  const actions = oneAtATime(paint, (warning) => adapter.warn(warning));
  const picker = versionPicker(document, "version", (index) => actions.act(() => adapter.switchVersion(index, instance)));
  const regenerate = iconButton(document, RENEW_16, "Regenerate", "cagr-versions-button");
  regenerate.addEventListener("click", () => actions.act(() => adapter.regenerate(instance)));
  element.append(...picker.elements, regenerate);
  const followed = adapter.answerVersions$.subscribe((now) => {
    state = now;
    paint();
  });
  return {
    element,
    dispose() {
      followed.unsubscribe();
      element.remove();
    },
  };
}
