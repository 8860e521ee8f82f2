/**
 * The approvals demo: a tool server's approval decided in the chat.
 *
 *   npm run demo:approvals
 *
 * Starts, on 127.0.0.1, the reference tool server (`startToolServer()`), the AI SDK agent of approvals.ts in
 * CopilotKit's runtime (a scripted model; its tools are the tool server's, called as alice, the run's owner), and the
 * browser demo's two pages (Carbon's web component at /, React at /react) bundled with an adapter that has a
 * reviewer's `ToolClient` (approvalsAdapter.ts). Ask "send the weekly report by e-mail to ops@example.com": the
 * call of send_email waits for approval, the card decides it on the tool server, and the agent answers from the
 * tool's result.
 */
import "./telemetryOff";
import { startToolServer, type ToolServer } from "carbon-agui-rx/testing";
import { ToolClient } from "carbon-agui-rx/tool-client";
import { build, type Plugin } from "esbuild";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { approvalsReply, createApprovalsAgent } from "./approvals";
import { serveCopilotKit, type RunningServer } from "./copilotkit";
import { scriptedModel } from "./scriptedModel";
import { demoPage } from "../web/pages";

export interface ApprovalsDemo {
  /** The web-component page (`/react`: the React page). */
  readonly url: string;
  /** The agent's AG-UI endpoint. */
  readonly agentUrl: string;
  readonly toolServer: ToolServer;
  close(): Promise<void>;
}

const WEB = join(__dirname, "../web");

/** Bundles one of the demo pages with `./demoAdapter` replaced by the approvals adapter. */
async function bundle(entry: string): Promise<string> {
  const swapAdapter: Plugin = {
    name: "approvals-adapter",
    setup(plugin) {
      plugin.onResolve({ filter: /^\.\/demoAdapter$/ }, (args) => (args.importer.startsWith(WEB) ? { path: join(__dirname, "approvalsAdapter.ts") } : undefined));
    },
  };
  const result = await build({
    entryPoints: [join(WEB, entry)],
    bundle: true,
    format: "esm",
    write: false,
    minify: true,
    jsx: "automatic",
    logLevel: "error",
    define: { "process.env.NODE_ENV": '"production"' },
    tsconfig: join(__dirname, "../../tsconfig.json"),
    plugins: [swapAdapter],
  });
  return result.outputFiles[0]!.text;
}

export async function startApprovalsDemo(port = 0): Promise<ApprovalsDemo> {
  const [pageJs, reactJs] = await Promise.all([bundle("main.ts"), bundle("react.tsx")]);
  const toolServer = await startToolServer();
  let agent: RunningServer | undefined;
  try {
    const model = scriptedModel(approvalsReply, { pauseMs: 30 });
    agent = await serveCopilotKit(createApprovalsAgent(model, new ToolClient({ baseUrl: toolServer.url, token: "alice-token" })));
    const agentUrl = agent.url;
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
      if (path === "/page.js" || path === "/react.js") {
        response.writeHead(200, { "content-type": "text/javascript" });
        return response.end(path === "/page.js" ? pageJs : reactJs);
      }
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(demoPage({ title: "carbon-agui-rx approvals demo", react: path === "/react", globals: { AGUI_URL: agentUrl, TOOL_SERVER_URL: toolServer.url } }));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    const { port: bound } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${bound}/`,
      agentUrl,
      toolServer,
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await agent?.close();
        await toolServer.close();
      },
    };
  } catch (error) {
    await agent?.close();
    await toolServer.close();
    throw error;
  }
}

if (require.main === module) {
  void startApprovalsDemo(Number(process.env.PORT ?? 0)).then((demo) => {
    console.log(
      `carbon-agui-rx approvals demo: open ${demo.url} (or ${demo.url}react)\n` +
        `  agent (AI SDK in CopilotKit's runtime, scripted model): ${demo.agentUrl}\n  reference tool server: ${demo.toolServer.url}\n` +
        `Ask: "send the weekly report by e-mail to ops@example.com"   (Ctrl+C to stop)`,
    );
    process.once("SIGINT", () => void demo.close().finally(() => process.exit(0)));
  });
}
