import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";

/**
 * Maps the shared state's events to writes: STATE_SNAPSHOT becomes
 * `state.snapshot` (any JSON value), STATE_DELTA `state.delta` (its RFC 6902
 * patch, which `applyToConversation()` applies all or nothing). The state
 * reaches the agent with the next run.
 *
 * ```
 * source: --s--d--x--|    s: STATE_SNAPSHOT; d: STATE_DELTA; x: anything else
 * result: --S--D--x--|    S: state.snapshot; D: state.delta
 * ```
 */
export function sharedState(): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => ({
      next(element) {
        if (isEventOfType(element, EventType.STATE_SNAPSHOT)) return out.next({ kind: "state.snapshot", snapshot: element.snapshot });
        if (isEventOfType(element, EventType.STATE_DELTA)) return out.next({ kind: "state.delta", delta: element.delta });
        out.next(element);
      },
    }),
    [EventType.STATE_SNAPSHOT, EventType.STATE_DELTA],
  );
}
