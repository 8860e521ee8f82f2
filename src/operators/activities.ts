import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Activity, Conversation } from "../conversation";
import { AgUiPatchError } from "../errors";
import { isEventOfType, type PipelineElement } from "../instructions";
import { patchWarning } from "../internal/jsonPatch";
import { createOperator } from "../internal/operator";
import { warnOnConsole } from "../internal/warnings";
import type { SharedStateOptions } from "./sharedState";

export interface ActivitiesOptions extends SharedStateOptions {
  /** Called with each activity after it changes. A throw fails the turn. */
  onActivity?: (activity: Activity) => void;
}

/**
 * Keeps the conversation's activities, by message id: ACTIVITY_SNAPSHOT sets
 * an activity (with `replace: false` it only creates one: an existing activity
 * is left alone, as AG-UI 1.0 says),
 * ACTIVITY_DELTA applies an RFC 6902 patch to it, all or nothing. Each change
 * goes to `onActivity`; a delta that fails, or that names no known activity,
 * goes to `onWarning`. The events go no further.
 *
 * ```
 * source: --s--d--x--|    s: ACTIVITY_SNAPSHOT; d: ACTIVITY_DELTA; x: anything else
 * result: --------x--|    onActivity after s and after d
 * ```
 */
export function activities(conversation: Conversation, options: ActivitiesOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onActivity, onWarning = warnOnConsole } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if (isEventOfType(element, EventType.ACTIVITY_SNAPSHOT)) {
        if (element.replace === false && conversation.activities.has(element.messageId)) return;
        const activity = conversation.setActivity(element.messageId, element.activityType, element.content, element.replace !== false);
        return onActivity?.(activity);
      }
      if (!isEventOfType(element, EventType.ACTIVITY_DELTA)) return out.next(element);
      const target = `activity ${element.messageId}`;
      const result = conversation.patchActivity(element.messageId, element.activityType, element.patch);
      if (!result) return onWarning(new AgUiPatchError(`An ACTIVITY_DELTA for the ${target} came before any ACTIVITY_SNAPSHOT of it, and was skipped`, target, element.patch));
      const warning = patchWarning(result.outcome, "ACTIVITY_DELTA", target, element.patch);
      if (warning) onWarning(warning);
      if (result.outcome.error === undefined) onActivity?.(result.activity);
    },
  }), [EventType.ACTIVITY_SNAPSHOT, EventType.ACTIVITY_DELTA]);
}
