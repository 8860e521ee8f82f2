import type { CarbonAgUiAdapter } from "../adapter";
import type { QuestionControlData } from "../adapter/answerItems";
import type { QuestionVersionsState } from "../adapter/questionVersions";
import type { CarbonEditInstance } from "../carbon";
import { create, iconButton } from "./controls";
import { CLOSE_16, EDIT_16 } from "./icons";
import type { RenderedCard } from "./renderedCard";
import { useCardStyles } from "./useCardStyles";
import { oneAtATime, versionPicker } from "./versionPicker";

export interface QuestionControlOptions {
  /** The Carbon instance: the question's text goes into its input, the chat shows the version switched to. */
  instance: CarbonEditInstance;
  adapter: Pick<CarbonAgUiAdapter, "questionVersions$" | "startEdit" | "cancelEdit" | "switchQuestion" | "warn">;
}

/**
 * The control for the question an answer answers (the `user_defined` item
 * `editQuestions` puts first in each answer): shown with the first response
 * under its question, at its right, just below the person's message. Edit
 * puts the question's text in Carbon's input, where the person changes it
 * and sends it in the question's place; while they do, Cancel lets go of
 * the edit. "‹ 1 / 2 ›" once the question was edited, the arrows showing
 * its other versions. Offered while no card waits and no run goes on;
 * Carbon's ghost icon buttons when the page has them, else native buttons,
 * in Carbon's tokens. A refusal goes to the adapter's `onWarning`.
 */
export function createQuestionControl(document: Document, data: QuestionControlData, options: QuestionControlOptions): RenderedCard {
  const { instance, adapter } = options;
  useCardStyles(document);
  const element = create(document, "div", "cagr-question");
  element.hidden = true;
  let state: QuestionVersionsState | undefined;
  const paint = () => {
    element.hidden = state === undefined;
    if (!state) return;
    picker.paint(state.index, state.count, state.canEdit && !actions.working(), state.editing);
    edit.hidden = !state.canEdit || state.editing;
    cancel.hidden = note.hidden = !state.editing;
  };
  const actions = oneAtATime(paint, (warning) => adapter.warn(warning));
  const picker = versionPicker(document, "version of the question", (index) => state && actions.act(() => adapter.switchQuestion(index, state!.requestId, instance)));
  const edit = iconButton(document, EDIT_16, "Edit the question", "cagr-versions-button cagr-question-edit");
  const cancel = iconButton(document, CLOSE_16, "Cancel the edit", "cagr-versions-button cagr-question-cancel");
  const note = create(document, "span", "cagr-question-note", "Editing: change the question below and send it");
  edit.addEventListener("click", () => state && actions.act(() => adapter.startEdit(state!.requestId, instance)));
  cancel.addEventListener("click", () => {
    adapter.cancelEdit();
    instance.input.updateRawValue(() => "");
  });
  element.append(note, ...picker.elements, edit, cancel);
  const followed = adapter.questionVersions$.subscribe((questions) => {
    state = questions.find((question) => question.responseId === data.responseId);
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
