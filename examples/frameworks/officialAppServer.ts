/**
 * The official MCP Apps example server `@modelcontextprotocol/server-basic-vanillajs` (its `get-time` tool and its
 * vanilla-JS app on the ext-apps `App` SDK), served on 127.0.0.1 by `serveMcpServer` rather than by its own entry
 * point (which listens on every interface). An ES module only, so it runs in a child process of its own
 * (`startOfficialAppServer`): it prints `{"url": …}` once it listens, and exits when its parent goes.
 */
import { serveMcpServer } from "./mcpAppServer";

async function main(): Promise<void> {
  const { createServer } = (await import("@modelcontextprotocol/server-basic-vanillajs")) as typeof import("@modelcontextprotocol/server-basic-vanillajs");
  const served = await serveMcpServer(createServer, Number(process.env.PORT ?? 0));
  console.log(JSON.stringify({ url: served.url }));
  // Tied to the parent by its IPC channel: gone with it.
  process.on("disconnect", () => void served.close().finally(() => process.exit(0)));
  process.on("SIGTERM", () => void served.close().finally(() => process.exit(0)));
}

void main();
