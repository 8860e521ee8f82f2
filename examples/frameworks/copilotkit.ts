import "./telemetryOff";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BuiltInAgent, CopilotRuntime, defineTool } from "@copilotkit/runtime/v2";
import { createCopilotNodeListener } from "@copilotkit/runtime/v2/node";
import type { LanguageModel } from "ai";
import type { RunAgent } from "carbon-agui-rx";
import { defer, finalize, from, tap } from "rxjs";
import { z } from "zod";

/**
 * The backend tools of the example agent: a weather look-up, one that always
 * throws (the framework hands its error to the model), and one that needs a
 * person's approval (an interrupt) before it runs.
 */
export const copilotKitTools = [
  defineTool({
    name: "get_weather",
    description: "The weather in a city",
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, forecast: "sunny", celsius: 21 }),
  }),
  defineTool({
    name: "get_stock_price",
    description: "The price of a stock (its service is down)",
    parameters: z.object({ symbol: z.string() }),
    execute: async ({ symbol }) => {
      throw new Error(`The stock service is unavailable for ${symbol}`);
    },
  }),
  defineTool({
    name: "delete_files",
    description: "Deletes files; a person must approve it",
    parameters: z.object({ pattern: z.string() }),
    interrupt: true,
    interruptMessage: "Delete these files?",
  }),
];

/** A CopilotKit `BuiltInAgent` on `model` with the example tools; several model calls per run, as tool results come back. */
export function createCopilotKitAgent(model: LanguageModel): BuiltInAgent {
  return new BuiltInAgent({ model, tools: copilotKitTools, maxSteps: 5 });
}

export interface RunningServer {
  /** The AG-UI endpoint of the agent (POST a RunAgentInput, read server-sent events). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves a CopilotKit runtime with one agent, "assistant", over node http on
 * 127.0.0.1 (`port` 0: one the OS picks). Its AG-UI endpoint is
 * `<base>/agent/assistant/run`; CORS is open so a page on another port can call it.
 */
export async function serveCopilotKit(agent: BuiltInAgent, port = 0): Promise<RunningServer> {
  const runtime = new CopilotRuntime({ agents: { assistant: agent } });
  const listener = createCopilotNodeListener({ runtime, basePath: "/api/copilotkit", cors: true });
  return listen(createServer(listener), port, "/api/copilotkit/agent/assistant/run");
}

export function listen(server: Server, port: number, path: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${bound}${path}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/**
 * Makes the stop button stop a CopilotKit runtime's agent too. The runtime
 * keeps the agent (and its model) running when the client goes away, and
 * answers the thread's next run with an empty stream until it is done; its
 * own client asks it to stop instead, with a POST to
 * `<base>/agent/<agentId>/stop/<threadId>`. This wraps any `RunAgent` on
 * `runUrl` (`<base>/agent/<agentId>/run`) to send that request when a run is
 * let go of before its RUN_FINISHED or RUN_ERROR.
 */
export function stoppingCopilotKitRuns(run: RunAgent, runUrl: string): RunAgent {
  const stopUrl = (threadId: string) => runUrl.replace(/\/run$/, `/stop/${encodeURIComponent(threadId)}`);
  return (input, options) =>
    defer(() => {
      let ended = false;
      return from(run(input, options)).pipe(
        tap((event) => (ended ||= event.type === "RUN_FINISHED" || event.type === "RUN_ERROR")),
        finalize(() => {
          if (ended) return;
          const request = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ runId: input.runId }) };
          fetch(stopUrl(input.threadId), request).catch(() => undefined);
        }),
      );
    });
}

/**
 * The connect route of the agent whose run route is `runUrl`
 * (`<base>/agent/<agentId>/run`, as `serveCopilotKit` gives it):
 * `<base>/agent/<agentId>/connect`, where the runtime replays a thread's
 * recorded events, then the run still going on it.
 */
export function copilotKitConnectUrl(runUrl: string): string {
  return runUrl.replace(/\/run$/, "/connect");
}

/**
 * CopilotKit's own client agent (`@copilotkit/core`'s
 * `ProxiedCopilotRuntimeAgent`, an `@ag-ui/client` `HttpAgent` that
 * implements AG-UI's `connect`) for the agent whose run route is `runUrl`.
 */
export async function copilotKitClientAgent(runUrl: string, agentId = "assistant"): Promise<import("@copilotkit/core").ProxiedCopilotRuntimeAgent> {
  const { ProxiedCopilotRuntimeAgent } = await import("@copilotkit/core");
  return new ProxiedCopilotRuntimeAgent({ runtimeUrl: runUrl.replace(new RegExp(`/agent/${agentId}/run$`), ""), agentId, transport: "rest" });
}
