import type { ApprovalRunStep } from "../adapter/approvals/approvalRuns";
import type { DecisionType } from "./cardText";

/** The card's interrupt as the adapter holds it while it is pending. */
export interface SeenInterrupt {
  /** The decision taken for it, kept until every open interrupt has one. */
  readonly decision?: DecisionType;
  /** Whether another pending interrupt still has no decision. */
  readonly othersOpen: boolean;
}

/** Where the card's answer stands. */
export type DecisionCardPhase =
  /** Not answered: the card offers its answers (an expired one only Reject). */
  | { readonly name: "open" }
  /** The card's answer is on its way. */
  | { readonly name: "sending"; readonly decision: DecisionType }
  /**
   * Answered: `here` by this card; `elsewhere` without it (sent with the other
   * cards' answers, or cancelled by a message sent instead); `before` the card
   * was built (a restored card).
   */
  | { readonly name: "answered"; readonly answer: DecisionType | "cancelled"; readonly where: "here" | "elsewhere" | "before" }
  /** Sent, but the agent could not go on; `retry` when the interrupt was still pending, so the card is re-armed. */
  | { readonly name: "failed"; readonly decision: DecisionType; readonly reason: string; readonly retry: boolean };

/** Where the tool run of a tool server's approval stands, as the run's events tell it: it only goes forward. */
export type ToolRun =
  | { readonly step: "running" }
  /** `result`: the tool's result, when the card has it (from the tool server's answer to a decide sent from here). */
  | { readonly step: "finished"; readonly result?: { readonly value: unknown } }
  | { readonly step: "failed"; readonly kind?: string };

/** A decision card's state: what its buttons, editor and status show follows from it alone (`decisionCardView`). */
export interface DecisionCardState {
  readonly phase: DecisionCardPhase;
  /** Fixed when the card is built: an expired interrupt can only be rejected. */
  readonly expired: boolean;
  /** Whether the arguments' editor is open (Approve with changes). */
  readonly editing: boolean;
  /** The interrupt as last seen pending; `undefined` while it is not (not yet, or not any more). */
  readonly seen: SeenInterrupt | undefined;
  /** A tool server's approval: its tool's run, once its run's events tell of it. */
  readonly toolRun?: ToolRun;
}

/** What happens to a card: the person's clicks, the answer's fate, and (`pending`) any change of the adapter's pending interrupts. */
export type DecisionCardEvent =
  | { readonly type: "pending" }
  | { readonly type: "edit" }
  | { readonly type: "cancel-edit" }
  | { readonly type: "send"; readonly decision: DecisionType }
  | { readonly type: "sent"; readonly decision: DecisionType }
  | { readonly type: "failed"; readonly decision: DecisionType; readonly reason: string }
  /** A step of a tool server's approval's tool run (`approvalRun$`). */
  | { readonly type: "tool"; readonly step: ApprovalRunStep };

const OPEN: DecisionCardPhase = { name: "open" };

/** A new card's state; `answeredBefore` is how a restored card's interrupt, no longer pending, was answered. */
export function initialCardState(expired: boolean, answeredBefore?: DecisionType | "cancelled"): DecisionCardState {
  return { phase: answeredBefore ? { name: "answered", answer: answeredBefore, where: "before" } : OPEN, expired, editing: false, seen: undefined };
}

/** Whether the card takes an answer: its interrupt is pending and no answer of its own is on its way. */
export const isArmed = (state: DecisionCardState): boolean => state.seen !== undefined && state.phase.name !== "sending";

/** The decision the card's interrupt holds while it waits to be sent with the other open interrupts' answers; `undefined` when it does not wait. */
export const decisionWaitingForOthers = (state: DecisionCardState): DecisionType | undefined =>
  state.seen?.othersOpen && state.phase.name !== "sending" ? state.seen.decision : undefined;

/**
 * The card's state after `event`, given its interrupt as the adapter holds it
 * now (`pending`, `undefined` once it is no longer pending).
 */
export function nextCardState(state: DecisionCardState, event: DecisionCardEvent, pending: SeenInterrupt | undefined): DecisionCardState {
  return seeing(applying(state, event, pending), pending);
}

function applying(state: DecisionCardState, event: DecisionCardEvent, pending: SeenInterrupt | undefined): DecisionCardState {
  switch (event.type) {
    case "pending":
      return state;
    case "edit":
      return { ...state, editing: true };
    case "cancel-edit":
      return { ...state, editing: false };
    case "send":
      return { ...state, phase: { name: "sending", decision: event.decision } };
    case "sent":
      return { ...state, phase: { name: "answered", answer: event.decision, where: "here" } };
    case "failed":
      return { ...state, phase: { name: "failed", decision: event.decision, reason: event.reason, retry: pending !== undefined } };
    case "tool": {
      const toolRun = toolRunAfter(state.toolRun, event.step);
      return toolRun === undefined || toolRun === state.toolRun ? state : { ...state, toolRun };
    }
  }
}

/**
 * The tool run after `step`. It only goes forward: started, then finished
 * or failed; a step seen again (a replay after a reconnect) or out of order
 * changes nothing. The tool's result (the tool server's answer to `decide`,
 * which may come before the run's events) means it finished.
 */
function toolRunAfter(run: ToolRun | undefined, step: ApprovalRunStep): ToolRun | undefined {
  switch (step.step) {
    case "started":
      return run ?? { step: "running" };
    case "finished":
      return run?.step === "finished" || run?.step === "failed" ? run : { step: "finished" };
    case "failed":
      return run?.step === "finished" || run?.step === "failed" ? run : step.kind === undefined ? { step: "failed" } : { step: "failed", kind: step.kind };
    case "result":
      return run?.step === "failed" || (run?.step === "finished" && run.result) ? run : { step: "finished", result: { value: step.result } };
  }
}

/** Follows the interrupt's coming and going: gone from an open card, it was answered elsewhere; back, the card is open again; the editor closes while the card is not armed. */
function seeing(state: DecisionCardState, pending: SeenInterrupt | undefined): DecisionCardState {
  const { phase, seen: last } = state;
  // Gone from an open card (an expired one keeps saying so): sent with the others' answers, or cancelled by a message sent instead.
  const answeredElsewhere = !pending && last !== undefined && phase.name === "open" && !state.expired;
  // Back: the run that took it never reached the agent.
  const back = pending !== undefined && phase.name === "answered" && phase.where === "elsewhere";
  const next: DecisionCardState = {
    ...state,
    phase: answeredElsewhere ? { name: "answered", answer: last.decision ?? "cancelled", where: "elsewhere" } : back ? OPEN : phase,
    seen: pending,
  };
  return next.editing && !isArmed(next) ? { ...next, editing: false } : next;
}
