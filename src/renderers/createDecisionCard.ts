import type { CarbonAgUiAdapter } from "../adapter";
import type { CarbonChatInstance, CarbonEventBus } from "../carbon";
import { isExpired, TOOL_SERVER_APPROVAL_REASON, type InterruptDecision, type InterruptDecisionData } from "../hitl";
import { sentence } from "../internal/sentence";
import { buildDecisionCard, fitEditor } from "./buildDecisionCard";
import { DECISION_CARD_TEXT } from "./cardText";
import { initialCardState, nextCardState, type DecisionCardEvent, type SeenInterrupt } from "./decisionCardState";
import { decisionCardView } from "./decisionCardView";
import { editedArguments } from "./editedArguments";
import { paintDecisionCard } from "./paintDecisionCard";
import type { RenderedCard } from "./renderedCard";
import { useCardStyles } from "./useCardStyles";

export interface DecisionCardOptions {
  /** The Carbon instance (from `onBeforeRender`): the resume streams into it. */
  instance: CarbonEventBus & CarbonChatInstance;
  /** The adapter whose interrupts the cards answer (and, with `interruptAnswer`, how a restored card was answered). */
  adapter: Pick<CarbonAgUiAdapter, "respondToInterrupt" | "pendingInterrupts" | "pendingInterrupts$"> & Partial<Pick<CarbonAgUiAdapter, "interruptAnswer" | "threadId$" | "approvalRun$" | "now">>;
  /** Tells the time for `expiresAt`. Default: the adapter's clock (`adapter.now`, the one an answer is checked on), else `Date.now`. */
  now?: () => number;
}

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
 *
 * A tool server's approval's card offers a reason beside Reject (sent with
 * the rejection, optional), and follows its tool's run on the tool server
 * (`approvalRun$`): running, then the tool's result or its failure.
 *
 * The pieces: `buildDecisionCard` (its DOM), `nextCardState` (its state),
 * `decisionCardView` (what a state shows), `paintDecisionCard` (showing it).
 */
export function createDecisionCard(document: Document, data: InterruptDecisionData, options: DecisionCardOptions): RenderedCard {
  const { instance, adapter } = options;
  const now = options.now ?? (adapter.now ? () => adapter.now!() : Date.now);
  const { interruptId } = data;
  const text = DECISION_CARD_TEXT;
  const argsText = typeof data.args === "string" ? data.args : JSON.stringify(data.args ?? {}, null, 2);
  useCardStyles(document);
  const card = buildDecisionCard(document, data, argsText, text);
  const { editor, problem, buttons } = card;

  /** The card's interrupt as the adapter holds it now. */
  const pendingNow = (): SeenInterrupt | undefined => {
    const pending = adapter.pendingInterrupts.find((entry) => entry.interrupt.id === interruptId);
    const othersOpen = adapter.pendingInterrupts.some((entry) => entry.interrupt.id !== interruptId && !entry.decision);
    return pending && { ...(pending.decision && { decision: pending.decision.type }), othersOpen };
  };
  const expired = data.expiresAt !== undefined && isExpired({ id: interruptId, reason: data.reason, expiresAt: data.expiresAt }, now());
  // A card restored after its answer (a reload, a thread switched back to) says how it was answered.
  const answered = adapter.interruptAnswer?.(interruptId);
  let state = initialCardState(expired, answered && !pendingNow() ? answered : undefined);
  const dispatch = (event: DecisionCardEvent) => {
    state = nextCardState(state, event, pendingNow());
    paintDecisionCard(card, decisionCardView(state, text));
  };

  const answer = (decision: InterruptDecision) => {
    problem.textContent = "";
    // The card shows what was sent: the edited arguments once they go.
    if (decision.type === "edit") card.code.textContent = JSON.stringify(decision.args, null, 2);
    dispatch({ type: "send", decision: decision.type });
    adapter.respondToInterrupt(decision, instance, {}, interruptId).then(
      () => dispatch({ type: "sent", decision: decision.type }),
      (error: unknown) => dispatch({ type: "failed", decision: decision.type, reason: sentence(error instanceof Error ? error.message : String(error)) }),
    );
  };
  buttons.approve.addEventListener("click", () => answer({ type: "approve" }));
  buttons.reject.addEventListener("click", () => {
    const reason = card.reason?.value.trim();
    answer(reason ? { type: "reject", reason } : { type: "reject" });
  });
  buttons.edit.addEventListener("click", () => {
    fitEditor(editor);
    dispatch({ type: "edit" });
    editor.focus();
  });
  buttons.cancel.addEventListener("click", () => {
    editor.value = argsText;
    problem.textContent = "";
    dispatch({ type: "cancel-edit" });
  });
  buttons.send.addEventListener("click", () => {
    const edited = editedArguments(editor.value, data.responseSchema, text);
    if ("problem" in edited) problem.textContent = edited.problem;
    else answer({ type: "edit", args: edited.args });
  });

  const subscription = adapter.pendingInterrupts$.subscribe(() => dispatch({ type: "pending" }));
  // A tool server's approval: its tool's run, as its run's events tell it.
  if (data.reason === TOOL_SERVER_APPROVAL_REASON && adapter.approvalRun$) subscription.add(adapter.approvalRun$(interruptId).subscribe((step) => dispatch({ type: "tool", step })));
  return {
    element: card.element,
    dispose: () => {
      subscription.unsubscribe();
      card.element.remove();
    },
  };
}
