import type { DecisionCardElements } from "./buildDecisionCard";
import type { DecisionCardView } from "./decisionCardView";

/** Shows `view` in the card's elements. */
export function paintDecisionCard({ code, editor, reason, buttons, status, note }: DecisionCardElements, view: DecisionCardView): void {
  const { editing, armed, approvable, says } = view;
  buttons.approve.hidden = buttons.edit.hidden = editing;
  buttons.send.hidden = buttons.cancel.hidden = !editing;
  code.hidden = editing;
  editor.hidden = !editing;
  buttons.approve.disabled = buttons.edit.disabled = buttons.send.disabled = !approvable;
  buttons.reject.disabled = buttons.cancel.disabled = !armed;
  editor.disabled = !armed;
  if (reason) reason.hidden = reason.disabled = editing || !armed;
  const isNote = says.status === "note";
  status.textContent = isNote ? "" : says.text;
  status.hidden = isNote || says.text === "";
  if (!isNote) status.setAttribute("status", says.status);
  note.textContent = isNote ? says.text : "";
  note.hidden = !isNote || says.text === "";
}
