import type { CarbonAgUiAdapter } from "../adapter";
import type { CarbonEventBus } from "../carbon";
import type { A2uiSurfaceData } from "../operators/map/a2uiSurfaces";
import { renderSlotted } from "../renderers/renderSlotted";
import { createA2uiSurface, type A2uiSurfaceAdapter, type A2uiSurfaceOptions } from "./createA2uiSurface";

export interface RenderA2uiSurfacesOptions extends Omit<A2uiSurfaceOptions, "instance" | "adapter"> {
  /** The Carbon instance (from `onBeforeRender`): its `userDefinedResponse` events ask for the surfaces, and answers to actions stream into it. */
  instance: A2uiSurfaceOptions["instance"] & CarbonEventBus;
  /** The chat element (`cds-aichat-custom-element`) the surfaces are slotted into. */
  host: HTMLElement;
  adapter: A2uiSurfaceAdapter & Partial<Pick<CarbonAgUiAdapter, "threadId$">>;
}

/**
 * Renders A2UI surfaces in Carbon AI Chat's web component: each `a2ui` item
 * (`a2uiSurfaces()`) becomes a surface (`createA2uiSurface`) slotted where
 * Carbon asks. Surfaces are dropped when the conversation restarts or the
 * adapter leaves its thread. Returns a function that removes everything.
 */
export function renderA2uiSurfaces(options: RenderA2uiSurfacesOptions): () => void {
  const { instance, host, adapter, ...drawing } = options;
  return renderSlotted({
    instance,
    host,
    threadId$: adapter.threadId$,
    kinds: { a2ui: (document, data: A2uiSurfaceData) => createA2uiSurface(document, data, { ...drawing, instance, adapter }) },
  });
}
