import { JSDOM } from "jsdom";
import { createA2uiSurfaceView, type A2uiSurfaceViewOptions } from "../../src/a2ui";
import type { A2uiUserAction } from "../../src/operators/map/a2uiSurfaces";

// The A2UI view's specs run in node with a JSDOM document (jest-environment-jsdom is not installed).

/** The basic catalog's id as `@ag-ui/a2ui-middleware` 0.0.10 and CopilotKit send it. */
export const MIDDLEWARE_CATALOG = "https://a2ui.org/specification/v0_9/basic_catalog.json";

export type Component = Record<string, unknown> & { id: string; component: string };

/** Operations as the middleware sends them: createSurface, the whole component list, then the data. */
export function operations(components: Component[], data: unknown = {}, catalogId = MIDDLEWARE_CATALOG, surfaceId = "booking") {
  return [
    { version: "v0.9", createSurface: { surfaceId, catalogId } },
    { version: "v0.9", updateComponents: { surfaceId, components } },
    { version: "v0.9", updateDataModel: { surfaceId, path: "/", value: data } },
  ];
}

/** A view in a fresh JSDOM page, its actions and warnings kept, with ways to find and show what it draws. */
export function surfaceView(options: Partial<A2uiSurfaceViewOptions> = {}) {
  const window = new JSDOM("<!doctype html><div id=chat></div>").window;
  const { document } = window;
  const actions: A2uiUserAction[] = [];
  const warnings: string[] = [];
  const view = createA2uiSurfaceView(document, { activityId: "a2ui-surface-call-1", onAction: (action) => actions.push(action), onWarning: (message) => warnings.push(message), ...options });
  document.body.append(view.element);
  const $ = <T extends Element = HTMLElement>(selector: string) => view.element.querySelector(selector) as unknown as T;
  const byId = <T extends Element = HTMLElement>(id: string) => $<T>(`[data-a2ui-id="${id}"]`);
  const show = (components: Component[], data?: unknown) => view.show({ a2ui_operations: operations(components, data) });
  return { window, document, view, actions, warnings, $, byId, show };
}
