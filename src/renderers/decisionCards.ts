import { Validator } from "@cfworker/json-schema";
import { skip } from "rxjs";
import type { CarbonAgUiAdapter } from "../adapter";
import type { CarbonChatInstance, CarbonEventBus, CarbonItem } from "../carbon";
import { sentence } from "../internal/sentence";
import { isExpired, type ClarificationData, type InterruptDecision, type InterruptDecisionData } from "../hitl";

/** A Carbon web-component event, as much of it as the renderer reads. */
interface CarbonBusEvent {
  type: string;
  data?: { message?: CarbonItem; slot?: string };
}

type BusHandler = { type: string; handler: (event: CarbonBusEvent) => unknown };

/**
 * The part of Carbon's `ChatInstance` the renderer uses: its event bus. Carbon
 * types the event `type` as its `BusEventType` enum, which plain strings (its
 * runtime values) cannot be assigned to, so the handlers are typed loosely
 * here; `spec/carbon.spec.ts` checks that a real `ChatInstance` fits.
 */
export interface DecisionCardsOptions {
  /** The Carbon instance (from `onBeforeRender`): its `userDefinedResponse` events ask for the cards, and the resume streams into it. */
  instance: CarbonEventBus & CarbonChatInstance;
  /** The chat element (`cds-aichat-custom-element` or the container) the cards are slotted into. */
  host: HTMLElement;
  /** The adapter whose interrupts the cards answer (and, with `interruptAnswer`, how a restored card was answered). */
  adapter: Pick<CarbonAgUiAdapter, "respondToInterrupt" | "pendingInterrupts" | "pendingInterrupts$"> & Partial<Pick<CarbonAgUiAdapter, "interruptAnswer" | "threadId$">>;
  /** Tells the time for `expiresAt`. Default `Date.now`. */
  now?: () => number;
}

const DECISION_LABELS: Record<InterruptDecision["type"], string> = { approve: "Approved", edit: "Approved with your changes", reject: "Rejected" };
const CANCELLED_NOTE = "Not answered: a message sent instead cancelled this request.";

/** What a card says once its interrupt was answered: the decision as a finished status, a cancellation as a note. */
const answeredAs = (answer: InterruptDecision["type"] | "cancelled"): { text: string; status: "finished" | "note" } =>
  answer === "cancelled" ? { text: CANCELLED_NOTE, status: "note" } : { text: `${DECISION_LABELS[answer]}.`, status: "finished" };

/**
 * Renders decision cards (interrupts) and clarification cards in Carbon AI
 * Chat's web component: listens for `userDefinedResponse` and appends a card,
 * slotted where Carbon asks, to `host`. Cards are dropped when the
 * conversation restarts or the adapter leaves its thread (`threadId$`: Carbon
 * asks again for the cards of a thread switched back to). Returns a function
 * that removes everything. Each
 * card is `createDecisionCard` / `createClarificationCard`, which React hosts
 * can mount themselves.
 */
export function renderDecisionCards(options: DecisionCardsOptions): () => void {
  const { instance, host, adapter, now } = options;
  const cards = new Map<string, RenderedCard>();

  const onUserDefined = (event: CarbonBusEvent) => {
    const slot = event.data?.slot;
    const payload = event.data?.message?.user_defined as InterruptDecisionData | ClarificationData | undefined;
    if (!slot || cards.has(slot) || (payload?.kind !== "interrupt" && payload?.kind !== "clarification")) return;
    const document = host.ownerDocument;
    const card = payload.kind === "interrupt" ? createDecisionCard(document, payload, { instance, adapter, ...(now && { now }) }) : createClarificationCard(document, payload);
    card.element.slot = slot;
    host.appendChild(card.element);
    cards.set(slot, card);
  };
  const clear = () => {
    for (const card of cards.values()) card.dispose();
    cards.clear();
  };
  const handlers: BusHandler[] = [
    { type: "userDefinedResponse", handler: onUserDefined },
    { type: "restartConversation", handler: clear },
  ];
  instance.on(handlers);
  const threadsLeft = adapter.threadId$?.pipe(skip(1)).subscribe(clear);
  return () => {
    instance.off?.(handlers);
    threadsLeft?.unsubscribe();
    clear();
  };
}

/** A card's element, and what lets go of it (its subscription, the element itself). */
export interface RenderedCard {
  element: HTMLElement;
  dispose(): void;
}

export type DecisionCardOptions = Pick<DecisionCardsOptions, "instance" | "adapter" | "now">;

/**
 * One decision card, built from Carbon's own web components when the page
 * has them (Carbon AI Chat registers `cds-button`, `cds-textarea` and
 * `cds-inline-loading`), else from their native counterparts, styled with
 * Carbon's theme tokens either way, so it follows the chat's light or dark
 * theme.
 *
 * It shows what is asked (the interrupt's message, else its reason), the tool
 * and its arguments as a code block, and Approve, Approve with changes and
 * Reject. Approve with changes opens the arguments in an editor sized to them,
 * checked (JSON, then the interrupt's `responseSchema`) before they are sent.
 * Buttons are disabled while an answer is sent and once the interrupt is
 * answered, and re-armed when a resume fails in a way that can be retried.
 * An expired interrupt can only be rejected.
 */
export function createDecisionCard(document: Document, data: InterruptDecisionData, options: DecisionCardOptions): RenderedCard {
  const { instance, adapter, now = Date.now } = options;
  const { interruptId } = data;
  const hasArgs = data.args !== undefined;
  const argsText = typeof data.args === "string" ? data.args : JSON.stringify(data.args ?? {}, null, 2);
  useCardStyles(document);

  const element = create(document, "div", "cagr-card cagr-decision-card");
  element.dataset.interruptId = interruptId;
  element.setAttribute("role", "group");
  const title = create(document, "p", "cagr-card-message", data.message ?? data.reason);
  title.id = `cagr-card-${interruptId}`;
  element.setAttribute("aria-labelledby", title.id);
  element.append(title);
  if (data.action) element.append(create(document, "p", "cagr-card-action", `Action: ${data.action}`));

  const code = create(document, "pre", "cagr-card-code");
  code.append(create(document, "code", "", argsText));
  code.tabIndex = 0;
  code.setAttribute("aria-label", "Arguments");
  const editor = control(document, "cds-textarea", "textarea", "cagr-card-editor") as HTMLElement & { value: string; rows: number; disabled: boolean };
  editor.setAttribute(editor.localName === "textarea" ? "aria-label" : "label", "Arguments (JSON)");
  editor.value = argsText;
  editor.hidden = true;
  const fitEditor = () => (editor.rows = Math.min(Math.max(editor.value.split("\n").length + 1, 3), 20));
  editor.addEventListener("input", fitEditor);
  if (hasArgs) element.append(code, editor);

  const problem = create(document, "p", "cagr-card-problem");
  problem.setAttribute("role", "alert");
  const buttons = {
    approve: button(document, "Approve", "approve", "primary"),
    edit: button(document, "Approve with changes", "edit", "secondary"),
    send: button(document, "Send with changes", "send", "primary"),
    cancel: button(document, "Cancel", "cancel", "ghost"),
    reject: button(document, "Reject", "reject", "danger-tertiary"),
  };
  const row = create(document, "div", "cagr-card-buttons");
  row.append(...(hasArgs ? [buttons.approve, buttons.edit, buttons.send, buttons.cancel, buttons.reject] : [buttons.approve, buttons.reject]));
  // Progress and its end (sending, answered, failed) in Carbon's inline loading; a neutral note (waiting, expired, cancelled) as plain text, with no icon to misread.
  const status = control(document, "cds-inline-loading", "p", "cagr-card-status");
  status.setAttribute("aria-live", "polite");
  const note = create(document, "p", "cagr-card-note");
  note.setAttribute("aria-live", "polite");
  element.append(problem, row, status, note);

  const expired = data.expiresAt !== undefined && isExpired({ id: interruptId, reason: data.reason, expiresAt: data.expiresAt }, now());
  let editing = false;
  let sending = false;
  /** What the card last came to: a `cds-inline-loading` status, or a neutral note. */
  let outcome: { text: string; status: "finished" | "error" | "note" } = expired
    ? { text: "This request has expired, so it can only be rejected.", status: "note" }
    : { text: "", status: "note" };
  /** The interrupt as last seen pending, to tell how it left when it is gone. */
  let lastSeen: (typeof adapter.pendingInterrupts)[number] | undefined;
  /** What the card said when the interrupt went without this card sending it. */
  let goneWithout: typeof outcome | undefined;
  /** A card restored after its answer (a reload, a thread switched back to) says how it was answered. */
  const answered = adapter.interruptAnswer?.(interruptId);
  if (answered && !adapter.pendingInterrupts.some((entry) => entry.interrupt.id === interruptId)) {
    outcome = answeredAs(answered);
  }
  const render = () => {
    const pending = adapter.pendingInterrupts.find((entry) => entry.interrupt.id === interruptId);
    if (!pending && lastSeen && !sending && outcome.text === "") {
      // Gone without this card sending it: sent with the others' answers, or cancelled by a message sent instead.
      outcome = goneWithout = answeredAs(lastSeen.decision?.type ?? "cancelled");
    }
    // Back (the run that took it never reached the agent): open as before it went.
    if (pending && outcome === goneWithout) outcome = { text: "", status: "note" };
    lastSeen = pending;
    const armed = pending !== undefined && !sending;
    if (!armed) editing = false;
    buttons.approve.hidden = buttons.edit.hidden = editing;
    buttons.send.hidden = buttons.cancel.hidden = !editing;
    code.hidden = editing;
    editor.hidden = !editing;
    buttons.approve.disabled = buttons.edit.disabled = buttons.send.disabled = !armed || expired;
    buttons.reject.disabled = buttons.cancel.disabled = !armed;
    editor.disabled = !armed;
    const othersOpen = adapter.pendingInterrupts.some((entry) => entry.interrupt.id !== interruptId && !entry.decision);
    const waiting = pending?.decision && othersOpen && !sending ? `${DECISION_LABELS[pending.decision.type]}. It will be sent once every open request is answered.` : "";
    const shown = sending ? { text: "Sending your answer…", status: "active" } : waiting ? { text: waiting, status: "note" } : outcome;
    const isNote = shown.status === "note";
    status.textContent = isNote ? "" : shown.text;
    status.hidden = isNote || shown.text === "";
    if (!isNote) status.setAttribute("status", shown.status);
    note.textContent = isNote ? shown.text : "";
    note.hidden = !isNote || shown.text === "";
  };

  const answer = (decision: InterruptDecision) => {
    sending = true;
    problem.textContent = "";
    render();
    adapter.respondToInterrupt(decision, instance, {}, interruptId).then(
      () => {
        sending = false;
        outcome = answeredAs(decision.type);
        render();
      },
      (error: unknown) => {
        sending = false;
        const retry = adapter.pendingInterrupts.some((entry) => entry.interrupt.id === interruptId);
        const reason = sentence(error instanceof Error ? error.message : String(error));
        outcome = { text: `${DECISION_LABELS[decision.type]}, but the agent could not go on: ${reason}${retry ? " You can answer again." : ""}`, status: "error" };
        render();
      },
    );
  };
  buttons.approve.addEventListener("click", () => answer({ type: "approve" }));
  buttons.reject.addEventListener("click", () => answer({ type: "reject" }));
  buttons.edit.addEventListener("click", () => {
    editing = true;
    fitEditor();
    render();
    editor.focus();
  });
  buttons.cancel.addEventListener("click", () => {
    editing = false;
    editor.value = argsText;
    problem.textContent = "";
    render();
  });
  buttons.send.addEventListener("click", () => {
    const edited = editedArguments(editor.value, data.responseSchema);
    if ("problem" in edited) problem.textContent = edited.problem;
    else answer({ type: "edit", args: edited.args });
  });

  const subscription = adapter.pendingInterrupts$.subscribe(render);
  return {
    element,
    dispose: () => {
      subscription.unsubscribe();
      element.remove();
    },
  };
}

/** A clarification card: the agent's question, and where to answer it. */
export function createClarificationCard(document: Document, data: ClarificationData): RenderedCard {
  useCardStyles(document);
  const element = create(document, "div", "cagr-card cagr-clarification-card");
  element.append(create(document, "p", "cagr-card-message", data.question ?? "The assistant needs more details."), create(document, "p", "cagr-card-hint", "Answer in the message box."));
  return { element, dispose: () => element.remove() };
}

/** The edited arguments, parsed and checked against the interrupt's schema, or what is wrong with them. */
function editedArguments(text: string, schema: object | undefined): { args: unknown } | { problem: string } {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch (error) {
    return { problem: `The arguments are not valid JSON: ${(error as Error).message}` };
  }
  if (schema === undefined) return { args };
  const result = new Validator(schema as ConstructorParameters<typeof Validator>[0], "2020-12", false).validate(args);
  const errors = result.errors.filter((error) => error.keyword !== "properties" && error.keyword !== "items").map((error) => `${error.instanceLocation.replace(/^#\/?/, "") || "arguments"}: ${error.error}`);
  return result.valid ? { args } : { problem: `The arguments do not fit: ${errors.join("; ")}` };
}

function create(document: Document, tag: string, className: string, text?: string): HTMLElement {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Carbon's web component `tag` when the page has it registered, else the native `fallback`. */
function control(document: Document, tag: string, fallback: string, className: string): HTMLElement {
  const registered = document.defaultView?.customElements?.get(tag) !== undefined;
  return create(document, registered ? tag : fallback, className);
}

function button(document: Document, label: string, name: string, kind: string): HTMLElement & { disabled: boolean } {
  const element = control(document, "cds-button", "button", `cagr-card-button cagr-card-${name}`) as HTMLElement & { disabled: boolean };
  element.textContent = label;
  element.setAttribute(element.localName === "button" ? "type" : "size", element.localName === "button" ? "button" : "sm");
  element.setAttribute("kind", kind);
  element.dataset.kind = kind;
  return element;
}

const STYLE_ID = "cagr-card-styles";

/**
 * The cards' look, in Carbon's theme tokens (with the white theme's values as
 * fallbacks), added to the page once. The cards live in the chat element's
 * light DOM, slotted into Carbon's shadow tree, so they inherit its tokens.
 */
function useCardStyles(document: Document): void {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.textContent = CARD_CSS;
  document.head.append(style);
}

const CARD_CSS = `
.cagr-card { display: grid; gap: 0.75rem; padding: 1rem; margin: 0.25rem 0; background: var(--cds-layer-01, #f4f4f4); color: var(--cds-text-primary, #161616); border: 1px solid var(--cds-border-subtle-01, #c6c6c6); font-family: var(--cds-body-01-font-family, "IBM Plex Sans", system-ui, sans-serif); font-size: 0.875rem; line-height: 1.25rem; }
.cagr-card p { margin: 0; }
.cagr-card .cagr-card-message { font-weight: 600; }
.cagr-card .cagr-card-action, .cagr-card .cagr-card-hint { color: var(--cds-text-secondary, #525252); }
.cagr-card .cagr-card-code { margin: 0; padding: 0.75rem 1rem; max-height: 16rem; overflow: auto; background: var(--cds-layer-02, #ffffff); color: var(--cds-text-primary, #161616); font-family: "IBM Plex Mono", ui-monospace, monospace; font-size: 0.75rem; line-height: 1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.cagr-card .cagr-card-editor { width: 100%; box-sizing: border-box; font-family: "IBM Plex Mono", ui-monospace, monospace; font-size: 0.75rem; }
.cagr-card textarea.cagr-card-editor { padding: 0.5rem 1rem; background: var(--cds-field-02, #ffffff); color: var(--cds-text-primary, #161616); border: 0; border-bottom: 1px solid var(--cds-border-strong-01, #8d8d8d); resize: vertical; }
.cagr-card .cagr-card-buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.cagr-card [hidden] { display: none !important; }
.cagr-card button.cagr-card-button { min-height: 2rem; padding: 0 1rem; border: 1px solid transparent; font: inherit; cursor: pointer; color: var(--cds-text-on-color, #ffffff); background: var(--cds-button-primary, #0f62fe); }
.cagr-card button.cagr-card-button[data-kind="secondary"] { background: var(--cds-button-secondary, #393939); }
.cagr-card button.cagr-card-button[data-kind="ghost"] { background: transparent; color: var(--cds-link-primary, #0f62fe); }
.cagr-card button.cagr-card-button[data-kind="danger-tertiary"] { background: transparent; color: var(--cds-button-danger-secondary, #da1e28); border-color: var(--cds-button-danger-secondary, #da1e28); }
.cagr-card button.cagr-card-button:disabled { cursor: not-allowed; color: var(--cds-text-on-color-disabled, #8d8d8d); background: var(--cds-button-disabled, #c6c6c6); border-color: transparent; }
.cagr-card .cagr-card-problem:empty { display: none; }
.cagr-card .cagr-card-problem { color: var(--cds-text-error, #da1e28); }
.cagr-card .cagr-card-note { color: var(--cds-text-secondary, #525252); }
.cagr-card p.cagr-card-status { color: var(--cds-text-secondary, #525252); }
`;
