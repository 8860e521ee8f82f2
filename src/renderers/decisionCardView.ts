import type { DecisionCardText, DecisionType } from "./cardText";
import { decisionWaitingForOthers, isArmed, type DecisionCardState } from "./decisionCardState";

/** What the card says: progress or its end (`active`, `finished`, `error`) in Carbon's inline loading, a neutral `note` as plain text; empty text says nothing. */
export interface CardSays {
  readonly text: string;
  readonly status: "active" | "finished" | "error" | "note";
}

/** What a decision card shows in a state. */
export interface DecisionCardView {
  /** The editor with Send with changes and Cancel, instead of the code with Approve and Approve with changes. */
  readonly editing: boolean;
  /** Whether Reject, Cancel and the editor take input. */
  readonly armed: boolean;
  /** Whether Approve, Approve with changes and Send with changes take input (not once the interrupt expired). */
  readonly approvable: boolean;
  readonly says: CardSays;
}

/** What a card in `state` shows, in the words of `text`. */
export function decisionCardView(state: DecisionCardState, text: DecisionCardText): DecisionCardView {
  const armed = isArmed(state);
  return { editing: state.editing, armed, approvable: armed && !state.expired, says: saying(state, text) };
}

/** What a card says once its interrupt was answered: a decision that let it go on as a finished status, a rejection or a cancellation as a note (no success mark for a "no"). */
export const answeredAs = (answer: DecisionType | "cancelled", text: DecisionCardText): CardSays =>
  answer === "cancelled" ? { text: text.cancelled, status: "note" } : { text: `${text.decided[answer]}.`, status: answer === "reject" ? "note" : "finished" };

/** The longest result a card quotes. */
const RESULT_LENGTH = 200;

/** What a card says of its tool run (a tool server's approval), once approved: a failure of the tool over the answer's own. */
function sayingToolRun(state: DecisionCardState, text: DecisionCardText): CardSays | undefined {
  const { phase, toolRun } = state;
  const decision = phase.name === "sending" || phase.name === "failed" ? phase.decision : phase.name === "answered" ? phase.answer : undefined;
  if (!toolRun || decision === undefined || decision === "cancelled" || decision === "reject") return undefined;
  const decided = text.decided[decision];
  if (toolRun.step === "failed") return { text: text.toolFailed(decided, toolRun.kind), status: "error" };
  if (phase.name === "failed") return undefined;
  if (toolRun.step === "running") return { text: text.toolRunning(decided), status: "active" };
  return { text: text.toolFinished(decided, toolRun.result && shortened(toolRun.result.value)), status: "finished" };
}

const shortened = (value: unknown): string => {
  const json = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return json.length > RESULT_LENGTH ? `${json.slice(0, RESULT_LENGTH)}…` : json;
};

function saying(state: DecisionCardState, text: DecisionCardText): CardSays {
  const { phase } = state;
  const toolRun = sayingToolRun(state, text);
  if (toolRun) return toolRun;
  if (phase.name === "sending") return { text: text.sending, status: "active" };
  const waiting = decisionWaitingForOthers(state);
  if (waiting) return { text: text.waiting(text.decided[waiting]), status: "note" };
  switch (phase.name) {
    case "open":
      return { text: state.expired ? text.expired : "", status: "note" };
    case "answered":
      return answeredAs(phase.answer, text);
    case "failed":
      return { text: text.failed(text.decided[phase.decision], phase.reason, phase.retry), status: "error" };
  }
}
