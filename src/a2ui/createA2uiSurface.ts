import { map, throttleTime, type SchedulerLike, type Subscription } from "rxjs";
import { frameScheduler } from "../internal/frameScheduler";
import type { CarbonAgUiAdapter } from "../adapter";
import type { CarbonChatInstance } from "../carbon";
import { AgUiSurfaceError, asCarbonAgUiError } from "../errors";
import type { A2uiSurfaceData, A2uiUserAction } from "../operators/map/a2uiSurfaces";
import type { RenderedCard } from "../renderers/renderedCard";
import { createA2uiSurfaceView, type A2uiSurfaceViewOptions } from "./createA2uiSurfaceView";

/** What a surface reads of the adapter: its activity, whether it is current, and where its actions and warnings go. */
export type A2uiSurfaceAdapter = Pick<CarbonAgUiAdapter, "activity$" | "messages$" | "isSurfaceCurrent" | "sendSurfaceAction" | "warn">;

export interface A2uiSurfaceOptions extends Pick<A2uiSurfaceViewOptions, "urlPolicy" | "limits" | "allowObscured"> {
  /** The Carbon instance (from `onBeforeRender`, or React's `renderUserDefinedResponse`): the agent's answer to an action streams into it. */
  instance: CarbonChatInstance;
  adapter: A2uiSurfaceAdapter;
  /**
   * Paces the repaints: the activity as it is when the surface is made is
   * drawn at once (so Carbon lays the item out once, at its height); later
   * snapshots at most once per task of it, the last of them. Default:
   * animation frames in a browser, else the async scheduler.
   */
  scheduler?: SchedulerLike;
}

/**
 * One A2UI surface, for the `user_defined` item `a2uiSurfaces()` made
 * (`{ kind: "a2ui", activityId }`): the view (`createA2uiSurfaceView`)
 * is drawn as the activity is and follows it, so every later snapshot
 * repaints it, in a finished answer too, at most once a frame. A button's action goes to the agent through
 * `adapter.sendSurfaceAction`; while it is on its way the surface waits, and
 * once a message of the person's has moved the conversation on it says so
 * and takes no more. Warnings go to the adapter's `onWarning`. React hosts
 * mount `element` from `renderUserDefinedResponse`; `renderA2uiSurfaces`
 * does it for the web component.
 */
export function createA2uiSurface(document: Document, data: A2uiSurfaceData, options: A2uiSurfaceOptions): RenderedCard {
  const { instance, adapter } = options;
  const { activityId } = data;
  let sending = false;
  let current = adapter.isSurfaceCurrent(activityId);
  const paintMode = () => view.setMode(sending ? "sending" : current ? "live" : "stale");
  const onAction = (action: A2uiUserAction) => {
    if (sending || !current) return;
    sending = true;
    paintMode();
    adapter
      .sendSurfaceAction(action, instance, { activityId })
      .catch((error: unknown) => adapter.warn(asCarbonAgUiError(error)))
      .finally(() => {
        sending = false;
        current = adapter.isSurfaceCurrent(activityId);
        paintMode();
      });
  };
  const view = createA2uiSurfaceView(document, {
    activityId,
    onAction,
    onWarning: (message) => adapter.warn(new AgUiSurfaceError(message, activityId)),
    ...(options.urlPolicy && { urlPolicy: options.urlPolicy }),
    ...(options.limits && { limits: options.limits }),
    ...(options.allowObscured !== undefined && { allowObscured: options.allowObscured }),
  });
  const followed: Subscription[] = [
    adapter
      .activity$(activityId)
      .pipe(throttleTime(0, options.scheduler ?? frameScheduler(), { leading: true, trailing: true }))
      .subscribe((activity) => activity && view.show(activity.content)),
    adapter.messages$
      .pipe(map(() => adapter.isSurfaceCurrent(activityId)))
      .subscribe((now) => {
        current = now;
        paintMode();
      }),
  ];
  return {
    element: view.element,
    dispose() {
      for (const subscription of followed) subscription.unsubscribe();
      view.dispose();
    },
  };
}
