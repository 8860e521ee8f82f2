import type { CarbonAgUiAdapter } from "../adapter";
import type { AnswerVersionsData } from "../adapter/answerItems";
import type { AnswerVersionsState } from "../adapter/answerVersions";
import type { CarbonVersionsInstance } from "../carbon";
import { asCarbonAgUiError } from "../errors";
import { control, create } from "./controls";
import { CHEVRON_LEFT_16, CHEVRON_RIGHT_16, iconElement, RENEW_16, type CarbonIcon } from "./icons";
import type { RenderedCard } from "./renderedCard";
import { useCardStyles } from "./useCardStyles";

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
  const previous = iconButton(document, CHEVRON_LEFT_16, "Previous version");
  const position = create(document, "span", "cagr-versions-position");
  const next = iconButton(document, CHEVRON_RIGHT_16, "Next version");
  const regenerate = iconButton(document, RENEW_16, "Regenerate");
  element.append(previous, position, next, regenerate);

  let state: AnswerVersionsState | undefined;
  let working = false;
  const paint = () => {
    element.hidden = state?.responseId !== data.responseId;
    if (!state || element.hidden) return;
    const several = state.count > 1;
    previous.hidden = next.hidden = position.hidden = !several;
    position.textContent = `${state.index + 1} / ${state.count}`;
    regenerate.hidden = !state.canRegenerate;
    previous.disabled = working || state.index === 0;
    next.disabled = working || state.index === state.count - 1;
    regenerate.disabled = working;
  };
  const act = (doing: () => Promise<void>) => {
    if (working) return;
    working = true;
    paint();
    doing()
      .catch((error: unknown) => adapter.warn(asCarbonAgUiError(error)))
      .finally(() => {
        working = false;
        paint();
      });
  };
  previous.addEventListener("click", () => state && act(() => adapter.switchVersion(state!.index - 1, instance)));
  next.addEventListener("click", () => state && act(() => adapter.switchVersion(state!.index + 1, instance)));
  regenerate.addEventListener("click", () => act(() => adapter.regenerate(instance)));
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

/** Carbon's small ghost icon button (`cds-icon-button`, its label the tooltip and aria-label), else a native button with the icon and the label. */
function iconButton(document: Document, icon: CarbonIcon, label: string): HTMLElement & { disabled: boolean } {
  const button = control(document, "cds-icon-button", "button", "cagr-versions-button") as HTMLElement & { disabled: boolean };
  button.append(iconElement(document, icon, button.localName === "button" ? undefined : "icon"));
  if (button.localName === "button") {
    button.setAttribute("type", "button");
    button.setAttribute("aria-label", label);
    button.title = label;
  } else {
    for (const [name, value] of Object.entries({ kind: "ghost", size: "sm", align: "top" })) button.setAttribute(name, value);
    const tip = create(document, "span", "", label);
    tip.slot = "tooltip-content";
    button.append(tip);
  }
  return button;
}
