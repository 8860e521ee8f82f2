import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A tiny AG-UI SSE endpoint on loopback that answers every run with the same text. */
export async function startServer(text: string): Promise<{ url: string; server: Server }> {
  const events = [
    { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: text },
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
  ];
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

export const input = { threadId: "t1", runId: "r1", messages: [], tools: [], context: [], state: {} };
