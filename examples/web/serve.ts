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

const page = (agentUrl: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>carbon-agui-rx demo</title>
<style>
  html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
  body { display: grid; grid-template-columns: 1fr 16rem; }
  .chat { display: block; height: 100vh; width: 100%; order: 1; }
  .side { order: 2; background: #f4f4f4; overflow: auto; min-width: 0; }
  .state-panel, .threads-panel { padding: 1rem; }
  .state-panel h2, .threads-panel h2 { margin: 0 0 0.5rem; font-size: 0.875rem; font-weight: 600; }
  .notice { margin: 0; padding: 0.75rem 1rem; background: #fcf4d6; border-left: 3px solid #f1c21b; font-size: 0.8rem; }
  .threads { list-style: none; margin: 0.5rem 0 0; padding: 0; font-size: 0.8rem; }
  .threads li { display: flex; gap: 0.25rem; margin-bottom: 0.25rem; }
  .threads .thread { flex: 1; text-align: left; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .threads .thread[aria-current] { font-weight: 600; }
  .state { margin: 0; font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; }
</style>
<script>window.AGUI_URL = ${JSON.stringify(agentUrl)};</script>
</head>
<body><script type="module" src="/page.js"></script></body>
</html>`;

/** The same demo in React: Carbon's ChatContainer, the cards through renderUserDefinedResponse. */
const reactPage = (agentUrl: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>carbon-agui-rx demo (React)</title>
<style>html, body, #root { margin: 0; height: 100%; font-family: system-ui, sans-serif; }</style>
<script>window.AGUI_URL = ${JSON.stringify(agentUrl)};</script>
</head>
<body><div id="root"></div><script type="module" src="/react.js"></script></body>
</html>`;

export async function startWebDemo(agentUrl = process.env.AGUI_URL): Promise<WebDemo> {
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
    response.end(path === "/react" ? reactPage(endpoint) : page(endpoint));
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

if (require.main === module) {
  void startWebDemo().then((demo) =>
    console.log(`carbon-agui-rx demo: open ${demo.url}  (agent: ${demo.agentUrl}${demo.toolServer ? `, its tool server: ${demo.toolServer.url}` : ""}; Ctrl+C to stop)`),
  );
}
