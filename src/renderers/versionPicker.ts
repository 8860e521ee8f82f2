import { asCarbonAgUiError, type CarbonAgUiError } from "../errors";
import { create, iconButton } from "./controls";
import { CHEVRON_LEFT_16, CHEVRON_RIGHT_16 } from "./icons";

/** "‹ 2 / 3 ›" for the versions of one thing (an answer, a question): its arrows call `go` with the version's index. */
export interface VersionPicker {
  /** The arrows and the position, in order, for the bar to append. */
  elements: HTMLElement[];
  /** Shows version `index` of `count` (hidden with one, or when `hidden`); the arrows usable while `usable`. */
  paint(index: number, count: number, usable: boolean, hidden?: boolean): void;
}

/** The picker for versions of `what` ("version", "version of the question"), Carbon's ghost icon buttons where the page has them. */
export function versionPicker(document: Document, what: string, go: (index: number) => void): VersionPicker {
  const previous = iconButton(document, CHEVRON_LEFT_16, `Previous ${what}`, "cagr-versions-button");
  const position = create(document, "span", "cagr-versions-position");
  const next = iconButton(document, CHEVRON_RIGHT_16, `Next ${what}`, "cagr-versions-button");
  let shown = 0;
  previous.addEventListener("click", () => go(shown - 1));
  next.addEventListener("click", () => go(shown + 1));
  return {
    elements: [previous, position, next],
    paint(index, count, usable, hidden = false) {
      shown = index;
      previous.hidden = next.hidden = position.hidden = count < 2 || hidden;
      position.textContent = `${index + 1} / ${count}`;
      previous.disabled = !usable || index === 0;
      next.disabled = !usable || index === count - 1;
    },
  };
}

/**
 * A control's actions one at a time: while one is under way the others do
 * nothing (`working()` says so, for painting), `paint` before and after, and
 * a failure goes to `warn` (the adapter's `onWarning`).
 */
export function oneAtATime(paint: () => void, warn: (warning: CarbonAgUiError) => void): { act(doing: () => Promise<void> | void): void; working(): boolean } {
  let busy = false;
  return {
    act(doing) {
      if (busy) return;
      busy = true;
      paint();
      Promise.resolve()
        .then(doing)
        .catch((error: unknown) => warn(asCarbonAgUiError(error)))
        .finally(() => {
          busy = false;
          paint();
        });
    },
    working: () => busy,
  };
}
