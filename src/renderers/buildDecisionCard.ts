import { TOOL_SERVER_APPROVAL_REASON, type InterruptDecisionData } from "../hitl";
import type { DecisionCardText } from "./cardText";
import { button, control, create } from "./controls";

type CardButton = HTMLElement & { disabled: boolean };

/** A decision card's elements, as `paintDecisionCard` shows them and `createDecisionCard` listens to them. */
export interface DecisionCardElements {
  readonly element: HTMLElement;
  /** The arguments as a code block (only in the card when it has arguments). */
  readonly code: HTMLElement;
  /** The arguments' editor, sized to them (only in the card when it has arguments). */
  readonly editor: HTMLElement & { value: string; rows: number; disabled: boolean };
  /** What is wrong with the edited arguments. */
  readonly problem: HTMLElement;
  /** A tool server's approval: the reason Reject sends (optional), beside the buttons. */
  readonly reason: (HTMLElement & { value: string; disabled: boolean }) | undefined;
  readonly buttons: { readonly approve: CardButton; readonly edit: CardButton; readonly send: CardButton; readonly cancel: CardButton; readonly reject: CardButton };
  /** Progress and its end (sending, answered, failed), in Carbon's inline loading. */
  readonly status: HTMLElement;
  /** A neutral note (waiting, expired, cancelled), as plain text, with no icon to misread. */
  readonly note: HTMLElement;
}

/**
 * Builds a decision card's DOM from Carbon's own web components when the page
 * has them (Carbon AI Chat registers `cds-button`, `cds-textarea` and
 * `cds-inline-loading`), else from their native counterparts: the subagent
 * that asks (when one did), what is asked (the interrupt's message, else its
 * reason), the tool, its arguments
 * (`argsText`) as code with their editor, and the buttons.
 */
export function buildDecisionCard(document: Document, data: InterruptDecisionData, argsText: string, text: DecisionCardText): DecisionCardElements {
  const { interruptId } = data;
  const hasArgs = data.args !== undefined;
  const element = create(document, "div", "cagr-card cagr-decision-card");
  element.dataset.interruptId = interruptId;
  element.setAttribute("role", "group");
  const title = create(document, "p", "cagr-card-message", data.message ?? data.reason);
  title.id = `cagr-card-${interruptId}`;
  element.setAttribute("aria-labelledby", title.id);
  if (data.subagent !== undefined) element.append(create(document, "p", "cagr-card-asked-by", text.askedBy(data.subagent)));
  element.append(title);
  if (data.action) element.append(create(document, "p", "cagr-card-action", text.action(data.action)));

  const code = create(document, "pre", "cagr-card-code");
  code.append(create(document, "code", "", argsText));
  code.tabIndex = 0;
  code.setAttribute("aria-label", text.argumentsCode);
  const editor = control(document, "cds-textarea", "textarea", "cagr-card-editor") as DecisionCardElements["editor"];
  editor.setAttribute(editor.localName === "textarea" ? "aria-label" : "label", text.argumentsEditor);
  editor.value = argsText;
  editor.hidden = true;
  editor.addEventListener("input", () => fitEditor(editor));
  if (hasArgs) element.append(code, editor);

  const problem = create(document, "p", "cagr-card-problem");
  problem.setAttribute("role", "alert");
  const buttons = {
    approve: button(document, text.buttons.approve, "approve", "primary"),
    edit: button(document, text.buttons.edit, "edit", "secondary"),
    send: button(document, text.buttons.send, "send", "primary"),
    cancel: button(document, text.buttons.cancel, "cancel", "ghost"),
    reject: button(document, text.buttons.reject, "reject", "danger-tertiary"),
  };
  // A tool server keeps a denial's reason and hands it to the agent.
  const reason = data.reason === TOOL_SERVER_APPROVAL_REASON ? reasonField(document, text.rejectReason) : undefined;
  const row = create(document, "div", "cagr-card-buttons");
  row.append(...(hasArgs ? [buttons.approve, buttons.edit, buttons.send, buttons.cancel, buttons.reject] : [buttons.approve, buttons.reject]));
  const status = control(document, "cds-inline-loading", "p", "cagr-card-status");
  status.setAttribute("aria-live", "polite");
  const note = create(document, "p", "cagr-card-note");
  note.setAttribute("aria-live", "polite");
  element.append(problem, ...(reason ? [reason] : []), row, status, note);
  return { element, code, editor, problem, reason, buttons, status, note };
}

/** A one-line text field, Carbon's `cds-text-input` when the page has it. */
function reasonField(document: Document, label: string): NonNullable<DecisionCardElements["reason"]> {
  const field = control(document, "cds-text-input", "input", "cagr-card-reason") as NonNullable<DecisionCardElements["reason"]>;
  if (field.localName === "input") {
    field.setAttribute("type", "text");
    field.setAttribute("aria-label", label);
  } else field.setAttribute("label", label);
  field.setAttribute("placeholder", label);
  return field;
}

/** Sizes the editor to its text and one line to type on, 3 to 20 rows. */
export function fitEditor(editor: DecisionCardElements["editor"]): void {
  editor.rows = Math.min(Math.max(editor.value.split("\n").length + 1, 3), 20);
}
