import type { Interrupt, ResumeEntry } from "@ag-ui/core";

/** What a decision card shows: the `user_defined` payload of the Carbon item for one interrupt. */
export interface InterruptDecisionData {
  kind: "interrupt";
  interruptId: string;
  reason: string;
  /** What the card asks: the interrupt's message; without one, the question in its metadata (Mastra's suspend payload), else "Allow <action>?". */
  message?: string;
  /** The tool call the interrupt is about, when there is one. */
  toolCallId?: string;
  /** That tool call's name. */
  action?: string;
  /** That tool call's arguments, parsed (the raw string when they do not parse). */
  args?: unknown;
  /** A JSON Schema the answer's payload should match. */
  responseSchema?: object;
  /** After this moment (ISO 8601) the interrupt can only be rejected. */
  expiresAt?: string;
}

/** What a clarification card shows: the `user_defined` payload when `detectClarification` finds the agent asking. */
export interface ClarificationData {
  kind: "clarification";
  question?: string;
  threadId: string;
}

/** A person's answer to an interrupt. */
export type InterruptDecision = { type: "approve" } | { type: "edit"; args: unknown } | { type: "reject" };

/** An interrupt awaiting its resume, with the decision taken so far. */
export interface PendingInterrupt {
  readonly interrupt: Interrupt;
  readonly decision?: InterruptDecision;
}

/** How a decision travels to the agent in the resume run. */
export function toResumeEntry(interruptId: string, decision: InterruptDecision): ResumeEntry {
  switch (decision.type) {
    case "approve":
      return { interruptId, status: "resolved", payload: { approved: true } };
    case "edit":
      return { interruptId, status: "resolved", payload: { approved: true, args: decision.args } };
    case "reject":
      // No payload: AG-UI 1.0's schema rejects an explicit null on an optional field (an echo of this input would fail it).
      return { interruptId, status: "cancelled" };
  }
}

/** Whether the interrupt's `expiresAt` has passed at `now` (milliseconds since the epoch). */
export function isExpired(interrupt: Interrupt, now: number): boolean {
  return interrupt.expiresAt !== undefined && Date.parse(interrupt.expiresAt) <= now;
}
