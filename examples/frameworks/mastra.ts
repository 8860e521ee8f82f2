import "./telemetryOff";
import { createServer } from "node:http";
import { EventEncoder } from "@ag-ui/encoder";
import type { RunAgentInput } from "@ag-ui/client";
import { MastraAgent } from "@ag-ui/mastra";
import { Mastra } from "@mastra/core";
import { Agent } from "@mastra/core/agent";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { listen, type RunningServer } from "./copilotkit";

/**
 * The tools of the example agent: a weather look-up, one that always throws,
 * and one that suspends for a person's approval (Mastra's interrupt: the
 * question travels in the suspend payload, not in the interrupt's message).
 */
export const mastraTools = {
  get_weather: createTool({
    id: "get_weather",
    description: "The weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, forecast: "sunny", celsius: 21 }),
  }),
  get_stock_price: createTool({
    id: "get_stock_price",
    description: "The price of a stock (its service is down)",
    inputSchema: z.object({ symbol: z.string() }),
    execute: async ({ symbol }) => {
      throw new Error(`The stock service is unavailable for ${symbol}`);
    },
  }),
  delete_files: createTool({
    id: "delete_files",
    description: "Deletes files; a person must approve it",
    inputSchema: z.object({ pattern: z.string() }),
    suspendSchema: z.object({ question: z.string() }),
    resumeSchema: z.object({ approved: z.boolean() }),
    execute: async ({ pattern }, context) => {
      const approval = context.agent?.resumeData;
      if (!approval) return context.agent?.suspend({ question: `Delete the files matching ${pattern}?` });
      return approval.approved ? { deleted: 3, pattern } : { deleted: 0, pattern };
    },
  }),
};

/** A model Mastra's `Agent` takes: the AI SDK's mock models among them. */
export type MastraModel = ConstructorParameters<typeof Agent>[0]["model"];

/**
 * A Mastra agent on `model` with the example tools, behind `@ag-ui/mastra`'s
 * `MastraAgent` (an AG-UI `AbstractAgent`). Suspending a tool needs storage:
 * an in-memory store, registered through a `Mastra` instance.
 */
export function createMastraAgent(model: MastraModel): MastraAgent {
  const agent = new Agent({ id: "assistant", name: "assistant", instructions: "You are a helpful assistant.", model, tools: mastraTools });
  const mastra = new Mastra({ agents: { assistant: agent }, storage: new InMemoryStore(), logger: false });
  return new MastraAgent({ agent: mastra.getAgent("assistant"), resourceId: "example-user" });
}

/**
 * Serves a Mastra agent as an AG-UI endpoint over node http on 127.0.0.1:
 * POST a RunAgentInput to `/agent`, read server-sent events encoded by
 * `@ag-ui/encoder`. Each request runs a clone, as runs may overlap; a client
 * that goes away unsubscribes its run. CORS is open for the demo page.
 */
export function serveMastra(agent: MastraAgent, port = 0): Promise<RunningServer> {
  const encoder = new EventEncoder();
  const server = createServer(async (request, response) => {
    response.setHeader("access-control-allow-origin", "*");
    if (request.method === "OPTIONS") {
      response.writeHead(204, { "access-control-allow-methods": "POST", "access-control-allow-headers": "content-type, accept" });
      return response.end();
    }
    let body = "";
    for await (const chunk of request) body += chunk;
    const input = JSON.parse(body) as RunAgentInput;
    response.writeHead(200, { "content-type": encoder.getContentType(), "cache-control": "no-cache" });
    const subscription = agent.clone().run(input).subscribe({
      next: (event) => response.write(encoder.encode(event)),
      error: (error: unknown) => {
        response.write(encoder.encode({ type: "RUN_ERROR", message: error instanceof Error ? error.message : String(error) } as never));
        response.end();
      },
      complete: () => response.end(),
    });
    response.on("close", () => subscription.unsubscribe());
  });
  return listen(server, port, "/agent");
}
