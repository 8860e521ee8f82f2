/**
 * Where the person is in a surface: the drawn component (its id, and which
 * of its drawings, for a template's), the element in its drawing that has
 * the focus (its place among the drawing's descendants, -1 for the drawing
 * itself), and the caret in its text.
 */
export interface KeptFocus {
  id: string;
  drawing: number;
  at: number;
  caret?: { start: number; end: number };
}

const TEXT_FIELD = "input, textarea";
const CONTROL = "input, textarea, select, button";

const drawingsOf = (within: HTMLElement, id: string) => Array.from(within.querySelectorAll<HTMLElement>("[data-a2ui-id]")).filter((drawn) => drawn.dataset.a2uiId === id);

/** The text field the focus is in: `active` itself, or the one inside a Carbon component's shadow root. */
function textFieldOf(active: Element): HTMLInputElement | HTMLTextAreaElement | undefined {
  const field = active.matches(TEXT_FIELD) ? active : active.shadowRoot?.activeElement;
  return field?.matches(TEXT_FIELD) ? (field as HTMLInputElement | HTMLTextAreaElement) : undefined;
}

/** Where the focus is in `surface`, or nothing when it is elsewhere. */
export function focusIn(surface: HTMLElement): KeptFocus | undefined {
  const active = surface.ownerDocument.activeElement;
  const drawn = active && surface.contains(active) ? active.closest<HTMLElement>("[data-a2ui-id]") : null;
  if (!active || !drawn) return undefined;
  const id = drawn.dataset.a2uiId!;
  const field = textFieldOf(active);
  // Inputs without a caret (a number, a date) have no selection.
  const caret = field && field.selectionStart !== null && field.selectionEnd !== null ? { start: field.selectionStart, end: field.selectionEnd } : undefined;
  return { id, drawing: drawingsOf(surface, id).indexOf(drawn), at: Array.from(drawn.querySelectorAll("*")).indexOf(active), ...(caret && { caret }) };
}

/**
 * Puts the focus (and the caret) back where `kept` says, in the form as
 * redrawn in `surface`. A Carbon component draws its shadow root after it
 * is connected, so the focus goes in once it has (`updateComplete`).
 */
export function refocus(surface: HTMLElement, kept: KeptFocus): void {
  const drawn = drawingsOf(surface, kept.id)[kept.drawing];
  const holder = kept.at === -1 ? drawn : drawn?.querySelectorAll<HTMLElement>("*")[kept.at];
  if (!holder) return;
  void Promise.resolve((holder as { updateComplete?: unknown }).updateComplete).then(() => {
    if (!holder.isConnected) return;
    const control = holder.matches(CONTROL) ? holder : (holder.shadowRoot?.querySelector<HTMLElement>(CONTROL) ?? holder);
    control.focus();
    if (kept.caret && control.matches(TEXT_FIELD)) (control as HTMLInputElement).setSelectionRange(kept.caret.start, kept.caret.end);
  });
}
