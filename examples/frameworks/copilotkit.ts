import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BuiltInAgent, CopilotRuntime, defineTool } from "@copilotkit/runtime/v2";
import { createCopilotNodeListener } from "@copilotkit/runtime/v2/node";
import type { LanguageModel } from "ai";
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
