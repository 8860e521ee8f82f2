import "./telemetryOff";
import { MastraAgent } from "@ag-ui/mastra";
import { Mastra } from "@mastra/core";
import { Agent } from "@mastra/core/agent";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import type { RunningServer } from "./copilotkit";
import { serveAgent } from "./serveAgent";

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
 * POST a RunAgentInput to `/agent`, read server-sent events (see `serveAgent`).
 */
export function serveMastra(agent: MastraAgent, port = 0): Promise<RunningServer> {
  return serveAgent(agent, port);
}
