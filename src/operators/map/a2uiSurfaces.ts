import type { MonoTypeOperatorFunction } from "rxjs";
import type { PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";

/** The activity type `@ag-ui/a2ui-middleware` gives an A2UI surface. */
export const A2UI_SURFACE = "a2ui-surface";

/** The `user_defined` payload of an A2UI surface's item: the renderer draws the activity it names, and follows it. */
export interface A2uiSurfaceData {
  kind: "a2ui";
  /** The activity's message id (`adapter.activities`, `activity$`). */
  activityId: string;
}

/**
 * A person's action on an A2UI surface (a button's event), as A2UI v0.9's
 * `userAction` says it and `@ag-ui/a2ui-middleware` and CopilotKit send it
 * back, in `forwardedProps.a2uiAction.userAction`.
 */
export interface A2uiUserAction {
  name: string;
  surfaceId: string;
  sourceComponentId: string;
  /** ISO 8601. */
  timestamp: string;
  /** The action's context, its bindings resolved: what the person filled in. */
  context: Record<string, unknown>;
}

export interface A2uiSurfacesOptions {
  /** The activities the conversation held before this run: their items were shown in an earlier answer. */
  knownActivityIds?: Iterable<string>;
}

/**
 * Each A2UI surface (an activity of type `a2ui-surface`) becomes one Carbon
 * `user_defined` item (`A2uiSurfaceData`) where the answer first brings it,
 * before any text if it comes first. Its later snapshots (building, painted,
 * repainted) add no item: they change the activity, which the item's
 * renderer follows, in a finished answer too. A surface a MESSAGES_SNAPSHOT
 * brings as an activity message is shown the same way.
 *
 * ```
 * source: --a--b--|    a, b: activity.snapshot a2ui-surface "s1" (building, then painted)
 * result: --(ia)-b--|  i: item.complete user_defined { kind: "a2ui", activityId: "s1" }
 * ```
 */
export function a2uiSurfaces(options: A2uiSurfacesOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      const shown = new Set(options.knownActivityIds);
      const show = (activityId: string) => {
        if (shown.has(activityId)) return;
        shown.add(activityId);
        const user_defined: A2uiSurfaceData = { kind: "a2ui", activityId };
        out.next({ kind: "item.complete", itemId: `a2ui-${activityId}`, item: { response_type: "user_defined", user_defined } });
      };
      return {
        next(element) {
          if ("kind" in element) {
            if (element.kind === "activity.snapshot" && element.activityType === A2UI_SURFACE) show(element.messageId);
            else if (element.kind === "history.snapshot") for (const message of element.messages) if (message.role === "activity" && message.activityType === A2UI_SURFACE) show(message.id);
          }
          out.next(element);
        },
      };
    },
    ["activity.snapshot", "history.snapshot"],
  );
}
