import { Validator } from "@cfworker/json-schema";
import type { Subscription } from "rxjs";
import type { CarbonAgUiAdapter } from "../adapter";
import type { CarbonChatInstance, CarbonItem } from "../carbon";
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
export interface CarbonEventBus {
  on(handlers: any): unknown;
  off?(handlers: any): unknown;
}

export interface DecisionCardsOptions {
  /** The Carbon instance (from `onBeforeRender`): its `userDefinedResponse` events ask for the cards, and the resume streams into it. */
  instance: CarbonEventBus & CarbonChatInstance;
  /** The chat element (`cds-aichat-custom-element` or the container) the cards are slotted into. */
  host: HTMLElement;
  /** The adapter whose interrupts the cards answer. */
  adapter: Pick<CarbonAgUiAdapter, "respondToInterrupt" | "pendingInterrupts" | "pendingInterrupts$">;
  /** Tells the time for `expiresAt`. Default `Date.now`. */
  now?: () => number;
}

const DECISION_LABELS: Record<InterruptDecision["type"], string> = { approve: "Approved", edit: "Approved with your changes", reject: "Rejected" };

/**
 * Renders decision cards (interrupts) and clarification cards in Carbon AI
 * Chat's web component: listens for `userDefinedResponse` and appends a card,
 * slotted where Carbon asks, to `host`. A decision card offers Approve,
 * Approve with changes (a JSON editor for the tool arguments, checked against
 * the interrupt's `responseSchema` when it has one) and Reject, each calling
 * `adapter.respondToInterrupt`. Its buttons are disabled while an answer is
 * sent and once the interrupt is answered, and re-armed when a resume fails
 * in a way that can be retried (the interrupt is pending again). An expired
 * interrupt can only be rejected. Cards are dropped when the conversation
 * restarts. Returns a function that removes everything.
 */
export function renderDecisionCards(options: DecisionCardsOptions): () => void {
  const { instance, host, adapter, now = Date.now } = options;
  const cards = new Map<string, { element: HTMLElement; subscription?: Subscription }>();

  const onUserDefined = (event: CarbonBusEvent) => {
    const slot = event.data?.slot;
    const payload = event.data?.message?.user_defined as InterruptDecisionData | ClarificationData | undefined;
    if (!slot || cards.has(slot) || (payload?.kind !== "interrupt" && payload?.kind !== "clarification")) return;
    const card = payload.kind === "interrupt" ? decisionCard(host.ownerDocument, payload, options.instance, adapter, now) : { element: clarificationCard(host.ownerDocument, payload) };
    card.element.slot = slot;
    host.appendChild(card.element);
    cards.set(slot, card);
  };
  const clear = () => {
    for (const { element, subscription } of cards.values()) {
      subscription?.unsubscribe();
      element.remove();
    }
    cards.clear();
  };
  const handlers: BusHandler[] = [
    { type: "userDefinedResponse", handler: onUserDefined },
    { type: "restartConversation", handler: clear },
  ];
  instance.on(handlers);
  return () => {
    instance.off?.(handlers);
    clear();
  };
}

function decisionCard(
  document: Document,
  data: InterruptDecisionData,
  instance: DecisionCardsOptions["instance"],
  adapter: DecisionCardsOptions["adapter"],
  now: () => number,
): { element: HTMLElement; subscription: Subscription } {
  const { interruptId } = data;
  const element = create(document, "div", "cagr-card cagr-decision-card");
  element.dataset.interruptId = interruptId;
  element.append(create(document, "p", "cagr-card-message", data.message ?? data.reason));
  if (data.action) element.append(create(document, "p", "cagr-card-action", `Action: ${data.action}`));

  const editor = create(document, "textarea", "cagr-card-args") as HTMLTextAreaElement;
  editor.value = JSON.stringify(data.args ?? {}, null, 2);
  editor.setAttribute("aria-label", "Arguments");
  if (data.args !== undefined) element.append(editor);

  const problem = create(document, "p", "cagr-card-problem");
  problem.setAttribute("role", "alert");
  const status = create(document, "p", "cagr-card-status");
  status.setAttribute("aria-live", "polite");
  const expired = data.expiresAt !== undefined && isExpired({ id: interruptId, reason: data.reason, expiresAt: data.expiresAt }, now());
  const buttons = {
    approve: button(document, "Approve", "approve"),
    edit: button(document, "Approve with changes", "edit"),
    reject: button(document, "Reject", "reject"),
  };
  element.append(...(data.args !== undefined ? [buttons.approve, buttons.edit, buttons.reject] : [buttons.approve, buttons.reject]), problem, status);

  let sending = false;
  let outcome = expired ? "This request has expired: it can only be rejected." : "";
  const render = () => {
    const pending = adapter.pendingInterrupts.find((entry) => entry.interrupt.id === interruptId);
    const armed = pending !== undefined && !sending;
    buttons.approve.disabled = buttons.edit.disabled = !armed || expired;
    buttons.reject.disabled = !armed;
    editor.disabled = !armed || expired;
    const othersOpen = adapter.pendingInterrupts.some((entry) => entry.interrupt.id !== interruptId && !entry.decision);
    const waiting = pending?.decision && othersOpen && !sending ? `${DECISION_LABELS[pending.decision.type]}: sent once every open request is answered.` : "";
    status.textContent = sending ? "Sending…" : waiting || outcome;
  };

  const answer = (decision: InterruptDecision) => {
    sending = true;
    problem.textContent = "";
    render();
    adapter.respondToInterrupt(decision, instance, {}, interruptId).then(
      () => {
        sending = false;
        outcome = DECISION_LABELS[decision.type];
        render();
      },
      (error: unknown) => {
        sending = false;
        const retry = adapter.pendingInterrupts.some((entry) => entry.interrupt.id === interruptId);
        outcome = `${DECISION_LABELS[decision.type]}, but it could not be completed: ${error instanceof Error ? error.message : String(error)}${retry ? " You can answer again." : ""}`;
        render();
      },
    );
  };
  buttons.approve.addEventListener("click", () => answer({ type: "approve" }));
  buttons.reject.addEventListener("click", () => answer({ type: "reject" }));
  buttons.edit.addEventListener("click", () => {
    const edited = editedArguments(editor.value, data.responseSchema);
    if ("problem" in edited) problem.textContent = edited.problem;
    else answer({ type: "edit", args: edited.args });
  });

  const subscription = adapter.pendingInterrupts$.subscribe(render);
  return { element, subscription };
}

function clarificationCard(document: Document, data: ClarificationData): HTMLElement {
  const element = create(document, "div", "cagr-card cagr-clarification-card");
  element.append(create(document, "p", "cagr-card-message", data.question ?? "The assistant needs more details."), create(document, "p", "cagr-card-hint", "Answer in the message box."));
  return element;
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
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

function button(document: Document, label: string, decision: InterruptDecision["type"]): HTMLButtonElement {
  const element = create(document, "button", `cagr-card-button cagr-card-${decision}`, label) as HTMLButtonElement;
  element.type = "button";
  return element;
}
