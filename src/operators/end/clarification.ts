import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { ClarificationData } from "../../hitl";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { applyPatchAtomically } from "../../internal/jsonPatch";
import { createOperator } from "../fusion";

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

/** What `clarification()` knows of the thread as the run begins. */
export interface ClarificationContext {
  /** The thread the card belongs to. */
  threadId: string;
  /** The shared state as the run begins. Default `{}`. */
  state?: unknown;
  /** The question of a card already shown for exactly this state (the person answered it; the agent left its marker in place). */
  shownForState?: string;
}

/**
 * Shows a clarification card when `detectClarification` finds the agent
 * asking: a Carbon `user_defined` item carrying `ClarificationData`
 * (`kind: "clarification"`, `question`, `threadId`), and a
 * `clarification.shown` write. Nothing else changes: the answer is an
 * ordinary message on the same thread. A question is shown once: while the
 * state stays as it was when its card was shown, no card shows again; a
 * state set anew (a `state.snapshot`, or a `state.delta` that applies) that
 * asks again does. It follows the state from `context.state` through the
 * `state.*` writes of `sharedState()`, on a copy of its own.
 *
 * ```
 * source: --F--|    F: RUN_FINISHED; the state says the agent needs details
 * result: --(cwF)|  c: item.complete user_defined { kind: "clarification", question, threadId }; w: clarification.shown
 * ```
 */
export function clarification(options: ClarificationOptions, context: ClarificationContext): MonoTypeOperatorFunction<PipelineElement> {
  const { detectClarification, onClarification } = options;
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      let state: unknown = structuredClone(context.state ?? {});
      let shownForState = context.shownForState;
      const changed = (document: unknown) => {
        state = document;
        shownForState = undefined;
      };
      return {
        next(element) {
          if ("kind" in element) {
            if (element.kind === "state.snapshot") changed(structuredClone(element.snapshot));
            else if (element.kind === "state.delta") {
              const outcome = applyPatchAtomically(state, element.delta);
              if (outcome.error === undefined) changed(outcome.document);
              else state = outcome.document;
            }
          } else if (isEventOfType(element, EventType.RUN_FINISHED) && element.outcome?.type !== "interrupt") {
            const verdict = detectClarification(state);
            const question = typeof verdict === "object" && verdict !== null ? verdict.question : undefined;
            if (verdict && shownForState !== (question ?? "")) {
              shownForState = question ?? "";
              const data: ClarificationData = { kind: "clarification", ...(question !== undefined && { question }), threadId: context.threadId };
              out.next({ kind: "item.complete", itemId: "clarification", item: { response_type: "user_defined", user_defined: data } });
              out.next({ kind: "clarification.shown", question: shownForState });
              onClarification?.(data);
            }
          }
          out.next(element);
        },
      };
    },
    [EventType.RUN_FINISHED, "state.snapshot", "state.delta"],
  );
}
