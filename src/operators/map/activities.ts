import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";

/**
 * Maps activity events to writes, by message id: ACTIVITY_SNAPSHOT becomes
 * `activity.snapshot` (with `replace: false` it only creates an activity: an
 * existing one is left alone, as AG-UI 1.0 says), ACTIVITY_DELTA
 * `activity.delta` (an RFC 6902 patch that `applyToConversation()` applies
 * all or nothing).
 *
 * ```
 * source: --s--d--x--|    s: ACTIVITY_SNAPSHOT; d: ACTIVITY_DELTA; x: anything else
 * result: --S--D--x--|    S: activity.snapshot; D: activity.delta
 * ```
 */
export function activities(): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => ({
      next(element) {
        if (isEventOfType(element, EventType.ACTIVITY_SNAPSHOT)) {
          const { messageId, activityType, content } = element;
          return out.next({ kind: "activity.snapshot", messageId, activityType, content, replace: element.replace !== false });
        }
        if (isEventOfType(element, EventType.ACTIVITY_DELTA)) {
          const { messageId, activityType, patch } = element;
          return out.next({ kind: "activity.delta", messageId, activityType, patch });
        }
        out.next(element);
      },
    }),
    [EventType.ACTIVITY_SNAPSHOT, EventType.ACTIVITY_DELTA],
  );
}
