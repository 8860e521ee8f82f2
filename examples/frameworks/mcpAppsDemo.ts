/**
 * MCP Apps in Carbon, with a real MCP App server behind the real middleware:
 *
 *   npm run demo:mcp-apps
 *
 * serves the official example server `@modelcontextprotocol/server-basic-vanillajs` (a child process) and a hostile
 * probe app (probeAppServer.ts), a scripted agent behind `@ag-ui/mcp-apps-middleware` with both, the demo page on one
 * loopback origin (127.0.0.1) and the sandbox proxy (`src/mcp-apps/sandbox.html`, as it ships) on another (localhost). Ask "What time is it?":
 * the app shows, its "Get Server Time" calls the server, its "Send Message" asks the agent. "probe <url>" runs the
 * probe against that URL.
 */
import { AbstractAgent, EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { MCPAppsMiddleware } from "@ag-ui/mcp-apps-middleware";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Observable } from "rxjs";
import { startWebDemo } from "../web/serve";
import { startChildServer } from "./childServer";
import { startProbeAppServer } from "./probeAppServer";
import { serveAgent } from "./serveAgent";

/** The agent's script: "time" calls the example server's `get-time`, "probe <url>" the probe; anything else is echoed. */
class AppsAgent extends AbstractAgent {
  override run(input: RunAgentInput): Observable<BaseEvent> {
    const { runId, threadId } = input;
    const last = input.messages[input.messages.length - 1];
    const said = last?.role === "user" && typeof last.content === "string" ? last.content : "";
    const offered = (name: string) => input.tools.some((tool) => tool.name === name);
    const target = /probe\s+(\S+)/i.exec(said)?.[1];
    const call = /time/i.test(said) && offered("get-time") ? { name: "get-time", args: {} } : target && offered("probe") ? { name: "probe", args: { target } } : undefined;
    const messageId = `m-${runId}`;
    const events: BaseEvent[] = call
      ? [
          { type: EventType.TOOL_CALL_START, toolCallId: `call-${runId}`, toolCallName: call.name, parentMessageId: messageId } as BaseEvent,
          { type: EventType.TOOL_CALL_ARGS, toolCallId: `call-${runId}`, delta: JSON.stringify(call.args) } as BaseEvent,
          { type: EventType.TOOL_CALL_END, toolCallId: `call-${runId}` } as BaseEvent,
        ]
      : [
          { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent,
          { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: `You said: ${said || "(nothing)"}` } as BaseEvent,
          { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
        ];
    return new Observable<BaseEvent>((subscriber) => {
      for (const event of [{ type: EventType.RUN_STARTED, runId, threadId } as BaseEvent, ...events, { type: EventType.RUN_FINISHED, runId, threadId } as BaseEvent]) subscriber.next(event);
      subscriber.complete();
    });
  }
}

export interface McpAppsDemo {
  /** The AG-UI endpoint (the agent behind the middleware). */
  readonly url: string;
  /** The sandbox proxy, on its own loopback origin. */
  readonly sandboxUrl: string;
  close(): Promise<void>;
}

/**
 * Serves the sandbox proxy page as it ships, a static file, on 127.0.0.1, an ephemeral port, and names it by
 * `localhost`: another origin than the page's (on 127.0.0.1), and another site too, as another host name is in a
 * deployment, so the browser runs the app in a process of its own as it would there.
 */
async function serveSandbox(): Promise<{ url: string; close(): Promise<void> }> {
  const page = await readFile(join(__dirname, "../../src/mcp-apps/sandbox.html"));
  const server = createServer((request, response) => {
    if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/sandbox.html") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/sandbox.html`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The MCP App servers, the agent behind the middleware, and the sandbox. */
export async function serveMcpAppsDemo(port = 0): Promise<McpAppsDemo> {
  const official = await startChildServer("officialAppServer.ts", "The MCP App example server");
  const probe = await startProbeAppServer();
  const agent = new AppsAgent().use(
    new MCPAppsMiddleware({
      mcpServers: [
        { type: "http", url: official.url, serverId: "time" },
        { type: "http", url: probe.url, serverId: "probe" },
      ],
    }),
  );
  const endpoint = await serveAgent(agent, port);
  const sandbox = await serveSandbox();
  return {
    url: endpoint.url,
    sandboxUrl: sandbox.url,
    close: () => Promise.all([endpoint.close(), sandbox.close(), probe.close(), official.close()]).then(() => undefined),
  };
}

if (require.main === module) {
  void serveMcpAppsDemo(Number(process.env.PORT ?? 0)).then(async (demo) => {
    const page = await startWebDemo(demo.url, undefined, { MCP_SANDBOX_URL: demo.sandboxUrl });
    console.log(`MCP Apps demo: open ${page.url}  (agent: ${demo.url}; the sandbox proxy: ${demo.sandboxUrl}; Ctrl+C to stop)`);
    process.once("SIGINT", () => void Promise.all([page.close(), demo.close()]).finally(() => process.exit(0)));
  });
}
