import type { InterruptDecision } from "../hitl";

/** What a person chose for an interrupt. */
export type DecisionType = InterruptDecision["type"];

/**
 * Every word a decision card shows, in one place: a card for another kind of
 * request (an interrupt the adapter makes for a tool call the app declared
 * without a handler) can be given its own.
 */
export interface DecisionCardText {
  readonly buttons: { readonly approve: string; readonly edit: string; readonly send: string; readonly cancel: string; readonly reject: string };
  /** A decision as done ("Approved"), without its full stop. */
  readonly decided: Readonly<Record<DecisionType, string>>;
  readonly action: (name: string) => string;
  /** Who asks, when a subagent raised the interrupt. */
  readonly askedBy: (subagent: string) => string;
  /** The accessible names of the arguments' code block and of their editor. */
  readonly argumentsCode: string;
  readonly argumentsEditor: string;
  readonly notJson: (error: string) => string;
  readonly doesNotFit: (errors: readonly string[]) => string;
  readonly sending: string;
  readonly expired: string;
  readonly cancelled: string;
  readonly waiting: (decided: string) => string;
  /** `reason` is a sentence; `retry` when the card can be answered again. */
  readonly failed: (decided: string, reason: string, retry: boolean) => string;
  /** A tool server's approval: its tool runs, has run (`result`, shortened JSON, when the card has it), or failed (`kind`, the tool server's problem kind). */
  readonly toolRunning: (decided: string) => string;
  readonly toolFinished: (decided: string, result: string | undefined) => string;
  readonly toolFailed: (decided: string, kind: string | undefined) => string;
  /** The accessible name of a tool server's approval's reason field, beside Reject. */
  readonly rejectReason: string;
}

/**
 * Each decision as done. Not typed by `DecisionType`, so the list may name a
 * decision before `InterruptDecision` has it: `answer`, a value of the app's
 * own (an interrupt's `responseSchema` payload, a tool call's result).
 */
const DECIDED = { approve: "Approved", edit: "Approved with your changes", reject: "Rejected", answer: "Answered" };

/** The words of a decision card for an approval. */
export const DECISION_CARD_TEXT: DecisionCardText = {
  buttons: { approve: "Approve", edit: "Approve with changes", send: "Send with changes", cancel: "Cancel", reject: "Reject" },
  decided: DECIDED,
  action: (name) => `Action: ${name}`,
  askedBy: (subagent) => `Asked by ${subagent}`,
  argumentsCode: "Arguments",
  argumentsEditor: "Arguments (JSON)",
  notJson: (error) => `The arguments are not valid JSON: ${error}`,
  doesNotFit: (errors) => `The arguments do not fit: ${errors.join("; ")}.`,
  sending: "Sending your answer…",
  expired: "This request has expired, so it can only be rejected.",
  cancelled: "Not answered: a message sent instead cancelled this request.",
  waiting: (decided) => `${decided}. It will be sent once every open request is answered.`,
  failed: (decided, reason, retry) => `${decided}, but the agent could not go on: ${reason}${retry ? " You can answer again." : ""}`,
  toolRunning: (decided) => `${decided}. Running…`,
  toolFinished: (decided, result) => `${decided}. The tool has run${result === undefined ? "." : `: ${result}`}`,
  toolFailed: (decided, kind) => `${decided}, but the tool failed${kind === undefined ? "" : ` (${kind})`}.`,
  rejectReason: "Reason for rejecting (optional)",
};

/** The words of a clarification card. */
export const CLARIFICATION_CARD_TEXT = {
  /** Shown when the agent's clarification has no question. */
  question: "The assistant needs more details.",
  hint: "Answer in the message box.",
} as const;
