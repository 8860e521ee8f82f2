/**
 * `carbon-agui-rx/a2ui`: A2UI surfaces drawn with Carbon's web components, on
 * `@a2ui/web_core` (an optional peer, as `@carbon/web-components` is). The
 * main entry's `a2uiSurfaces()` makes each surface an item; this entry draws
 * it and sends its actions back (docs/a2ui.md).
 */
export { createA2uiSurface, type A2uiSurfaceAdapter, type A2uiSurfaceOptions } from "./createA2uiSurface";
export { createA2uiSurfaceView, DEFAULT_A2UI_LIMITS } from "./createA2uiSurfaceView";
export type { A2uiLimits, A2uiSurfaceMode, A2uiSurfaceView, A2uiSurfaceViewOptions } from "./createA2uiSurfaceView";
export { renderA2uiSurfaces, type RenderA2uiSurfacesOptions } from "./renderA2uiSurfaces";
