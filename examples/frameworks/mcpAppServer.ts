import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** The app's HTML: a clock that shows the time the tool returned (an MCP App, SEP-1865). */
export const CLOCK_APP_HTML = `<!doctype html><html><body><p id="time">…</p></body></html>`;
export const CLOCK_APP_URI = "ui://clock/app.html";

/** An MCP server's tools and app, made anew for each request (the SDK's stateless Streamable HTTP). */
function clockServer(): McpServer {
  const server = new McpServer({ name: "clock", version: "1.0.0" });
  server.registerTool(
    "show_clock",
    { description: "Shows the time in a city, with a clock app", inputSchema: { city: z.string() }, _meta: { ui: { resourceUri: CLOCK_APP_URI } } },
    async ({ city }) => ({ content: [{ type: "text", text: `It is 12:00 in ${city}` }], structuredContent: { city, time: "12:00" } }),
  );
  // A tool only the app may call (visibility "app"): the model is never offered it.
  server.registerTool("tick", { description: "The clock's next second", inputSchema: {}, _meta: { ui: { resourceUri: CLOCK_APP_URI, visibility: ["app"] } } }, async () => ({ content: [{ type: "text", text: "12:00:01" }] }));
  server.registerResource("clock app", CLOCK_APP_URI, { mimeType: "text/html;profile=mcp-app" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/html;profile=mcp-app", text: CLOCK_APP_HTML }] }));
  return server;
}

export interface McpAppServer {
  /** Its Streamable HTTP endpoint. */
  url: string;
  close(): Promise<void>;
}

/** Serves the clock's MCP server over Streamable HTTP on 127.0.0.1, an ephemeral port, `/mcp`. */
export function startMcpAppServer(): Promise<McpAppServer> {
  return serveMcpServer(clockServer);
}

/**
 * Serves the MCP server `make` makes (anew for each request: the SDK's stateless Streamable HTTP) on 127.0.0.1,
 * `port` (0: an ephemeral one), `/mcp`. `make` may be another copy of the SDK's `McpServer` (an example server's own).
 */
export async function serveMcpServer(make: () => Pick<McpServer, "connect" | "close">, port = 0): Promise<McpAppServer> {
  const http: Server = createServer(async (request, response) => {
    if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") return void response.writeHead(404).end();
    const server = make();
    // Stateless: no sessions (the option is the SDK's way to say so).
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined } as never);
    response.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
