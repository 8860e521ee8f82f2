/**
 * One A2UI surface view on a page of its own, drawn with Carbon's web components, no chat: the end-to-end specs show
 * it snapshots directly (`window.showSurface`) to see what Carbon's real components do with a surface in Chromium.
 */
import { createA2uiSurfaceView } from "carbon-agui-rx/a2ui";
import "./a2uiComponents";

declare global {
  interface Window {
    /** For the end-to-end tests: shows `content` (an `a2ui-surface` activity's content) in the page's one surface. */
    showSurface(content: Record<string, unknown>): void;
  }
}

const view = createA2uiSurfaceView(document, { activityId: "a2ui-surface-page", onAction: (action) => console.info(`action ${action.name}`) });
document.body.append(view.element);
window.showSurface = (content) => view.show(content);
