import { createServer } from "node:http";
import { EventEncoder } from "@ag-ui/encoder";
import type { RunAgentInput } from "@ag-ui/client";
import { fromAgent, type AgUiAgent } from "carbon-agui-rx";
import { listen, type RunningServer } from "./copilotkit";

/**
 * Serves an AG-UI agent object (`MastraAgent`, `LangGraphAgent`, …) as an
 * AG-UI endpoint over node http on 127.0.0.1: POST a RunAgentInput to
 * `/agent`, read server-sent events encoded by `@ag-ui/encoder`. Runs go
 * through `fromAgent`, so each runs on a clone, and a client that goes away
 * stops its run where the agent runs it. An agent that fails without
 * RUN_ERROR gets one. CORS is open for the demo page.
 */
export function serveAgent(agent: AgUiAgent, port = 0): Promise<RunningServer> {
  const run = fromAgent(agent);
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
    const gone = new AbortController();
    const subscription = run(input, { signal: gone.signal }).subscribe({
      next: (event) => response.write(encoder.encode(event as never)),
      error: (error: unknown) => {
        response.write(encoder.encode({ type: "RUN_ERROR", message: error instanceof Error ? error.message : String(error) } as never));
        response.end();
      },
      complete: () => response.end(),
    });
    response.on("close", () => {
      gone.abort();
      subscription.unsubscribe();
    });
  });
  return listen(server, port, "/agent");
}
