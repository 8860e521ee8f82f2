/**
 * `carbon-agui-rx/mcp-apps`: the MCP Apps tools bring (SEP-1865), drawn in
 * Carbon AI Chat behind a sandbox proxy on another origin, on
 * `@modelcontextprotocol/ext-apps`'s host bridge (an optional peer). The main
 * entry's `mcpApps()` makes each app an item; this entry draws it, and
 * `carbon-agui-rx/mcp-apps/sandbox.html` is the proxy page (docs/mcp-apps.md).
 */
export { createMcpApp, type McpAppAdapter, type McpAppOptions } from "./createMcpApp";
export type { McpAppLogEntry } from "./connectMcpApp";
export { renderMcpApps, type RenderMcpAppsOptions } from "./renderMcpApps";
export { DEFAULT_MCP_APP_LIMITS, type McpAppLimits } from "./appLimits";
