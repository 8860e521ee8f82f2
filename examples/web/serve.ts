/**
 * Serves the browser demo on 127.0.0.1: the scripted AG-UI agent, and a page
 * with Carbon AI Chat's web component that talks to it (or to AGUI_URL).
 */
import { EventEncoder } from "@ag-ui/encoder";
import { scriptedAgent as serveScriptedAgent, startToolServer, type ScriptedAgent, type ToolServer } from "carbon-agui-rx/testing";
import { ToolClient } from "carbon-agui-rx/tool-client";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { scriptedAgentWithTools } from "../scripted-conversation";
import { withMeetings } from "./meetingAgent";
import { demoPage } from "./pages";

export interface WebDemo {
  /** The page. */
  readonly url: string;
  /** The AG-UI endpoint the page talks to. */
  readonly agentUrl: string;
  /** The scripted agent (absent with AGUI_URL): the runs it received and its responses, for tests to watch. */
  readonly agent: ScriptedAgent | undefined;
  /** The reference tool server the scripted agent calls through `ToolClient` (absent with AGUI_URL). */
  readonly toolServer: ToolServer | undefined;
  close(): Promise<void>;
}

/** Where the agent at AGUI_URL keeps its threads (see demoAdapter.ts): CopilotKit's connect route, the demo's own thread API (serveAgent.ts). */
export type DemoThreads = "connect" | "http";

/**
 * `threads` (default: AGUI_THREADS from the environment) tells the page where the agent keeps its threads, so it
 * restores them from there; without it, the page keeps its conversations in IndexedDB only. `globals` are more of the
 * page's globals (the MCP Apps demo's `MCP_SANDBOX_URL`).
 */
export async function startWebDemo(agentUrl = process.env.AGUI_URL, threads: DemoThreads | undefined = demoThreadsOf(process.env.AGUI_THREADS), globals: Record<string, string> = {}): Promise<WebDemo> {
  const encoder = new EventEncoder();
  // The testing kit's scripted agent, speaking real SSE through the protocol's own encoder.
  // Behind the agent, the reference tool server, called as a backend would: through ToolClient. In front of it, the
  // meetings: a call of `schedule_meeting`, the page's tool the person answers.
  const toolServer = agentUrl ? undefined : await startToolServer();
  const tools = toolServer && new ToolClient({ baseUrl: toolServer.url, token: "alice-token" });
  const agent = tools ? await serveScriptedAgent(withMeetings(scriptedAgentWithTools(tools)), { encode: (event) => encoder.encodeSSE(event as Parameters<EventEncoder["encodeSSE"]>[0]) }) : undefined;
  const endpoint = agentUrl ?? agent!.url;
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (path === "/page.js" || path === "/react.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      return response.end(await readFile(join(__dirname, "dist", path.slice(1))));
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(demoPage({ title: "carbon-agui-rx demo", react: path === "/react", globals: { ...globals, AGUI_URL: endpoint, ...(agentUrl && threads && { AGUI_THREADS: threads }) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    agentUrl: endpoint,
    agent,
    toolServer,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent?.close();
      await toolServer?.close();
    },
  };
}

function demoThreadsOf(value: string | undefined): DemoThreads | undefined {
  if (value === undefined || value === "") return undefined;
  if (value === "connect" || value === "http") return value;
  throw new Error(`AGUI_THREADS is "connect" (CopilotKit's runtime) or "http" (serveAgent's thread routes), not "${value}"`);
}

if (require.main === module) {
  void startWebDemo().then((demo) =>
    console.log(`carbon-agui-rx demo: open ${demo.url}  (agent: ${demo.agentUrl}${demo.toolServer ? `, its tool server: ${demo.toolServer.url}` : ""}; Ctrl+C to stop)`),
  );
}
