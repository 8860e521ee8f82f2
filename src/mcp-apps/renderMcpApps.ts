import type { CarbonAgUiAdapter } from "../adapter";
import type { CarbonEventBus } from "../carbon";
import type { McpAppData } from "../operators/map/mcpApps";
import { renderSlotted } from "../renderers/renderSlotted";
import { createMcpApp, type McpAppAdapter, type McpAppOptions } from "./createMcpApp";

export interface RenderMcpAppsOptions extends Omit<McpAppOptions, "instance" | "adapter"> {
  /** The Carbon instance (from `onBeforeRender`): its `userDefinedResponse` events ask for the apps; an app's messages are sent through it. */
  instance: McpAppOptions["instance"] & CarbonEventBus;
  /** The chat element (`cds-aichat-custom-element`) the apps are slotted into. */
  host: HTMLElement;
  adapter: McpAppAdapter & Partial<Pick<CarbonAgUiAdapter, "threadId$">>;
}

/**
 * Draws MCP Apps in Carbon AI Chat's web component: each `mcp-app` item
 * (`mcpApps()`) becomes an app tile (`createMcpApp`) slotted where Carbon
 * asks, its app run in the sandbox at `sandboxUrl`. Apps are let go of when
 * the conversation restarts or the adapter leaves its thread. Returns a
 * function that removes everything.
 */
export function renderMcpApps(options: RenderMcpAppsOptions): () => void {
  const { instance, host, adapter, ...drawing } = options;
  return renderSlotted({
    instance,
    host,
    threadId$: adapter.threadId$,
    kinds: { "mcp-app": (document, data: McpAppData) => createMcpApp(document, data, { ...drawing, instance, adapter }) },
  });
}
