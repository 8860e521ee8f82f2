import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../conversation";
import type { ClarificationData } from "../hitl";
import { isEventOfType, type PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";

export interface ClarificationOptions {
  /**
   * Tells from the shared state whether the agent, ending its run normally,
   * is really asking the person something (a graph that does not use
   * interrupts). Called at most once per run, on RUN_FINISHED without
   * interrupts. Return false, or `true` / `{ question }` to show a
   * clarification card. A throw fails the turn (after its final response).
   */
  detectClarification: (state: unknown) => boolean | { question?: string } | null | undefined;
  /** Told about each clarification shown, for a host that wants the flag without rendering. */
  onClarification?: (data: ClarificationData) => void;
}

/**
 * Shows a clarification card when `detectClarification` finds the agent
 * asking: a Carbon `user_defined` item carrying `ClarificationData`
 * (`kind: "clarification"`, `question`, `threadId`). Nothing else changes: the
 * answer is an ordinary message on the same thread. A question is shown once:
 * while the state stays as it was when its card was shown (the agent left
 * the marker in place after the person answered), later runs show no card;
 * a state set anew (a STATE_SNAPSHOT or STATE_DELTA) that asks again does.
 *
 * ```
 * source: --F--|    F: RUN_FINISHED; the state says the agent needs details
 * result: --(cF)|   c: item.complete user_defined { kind: "clarification", question, threadId }
 * ```
 */
export function clarification(conversation: Conversation, options: ClarificationOptions): MonoTypeOperatorFunction<PipelineElement> {
  const { detectClarification, onClarification } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if (isEventOfType(element, EventType.RUN_FINISHED) && element.outcome?.type !== "interrupt") {
        const verdict = detectClarification(conversation.state);
        const question = typeof verdict === "object" && verdict !== null ? verdict.question : undefined;
        // Once per question: a state that still carries a question already shown is an answered one, not a new ask.
        if (verdict && !conversation.askedAlready(question ?? "")) {
          conversation.noteClarificationShown(question ?? "");
          const data: ClarificationData = { kind: "clarification", ...(question !== undefined && { question }), threadId: conversation.threadId };
          out.next({ kind: "item.complete", itemId: "clarification", item: { response_type: "user_defined", user_defined: data } });
          onClarification?.(data);
        }
      }
      out.next(element);
    },
  }), [EventType.RUN_FINISHED]);
}
