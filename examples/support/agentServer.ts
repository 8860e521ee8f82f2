import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One open SSE response, for a script to write to. */
export interface SseResponse {
  /** Writes one AG-UI event, encoded by `@ag-ui/encoder`. */
  send(event: BaseEvent): void;
  /** Writes raw SSE text as it is (comments, malformed frames, CRLF framing…). */
  raw(text: string): void;
  end(): void;
  /** Resolves when the connection closes, whoever closed it. */
  readonly closed: Promise<void>;
  readonly request: IncomingMessage;
}

/** What a script does with one run: write its answer. It may return before the response ends. */
export type AgentScript = (input: RunAgentInput, response: SseResponse) => void | Promise<void>;

export interface AgentServer {
  /** The endpoint, on 127.0.0.1 and a port the OS chose. */
  readonly url: string;
  /** The run inputs received, in order. */
  readonly inputs: RunAgentInput[];
  /** The responses opened, in order (to await `closed`, read headers). */
  readonly responses: SseResponse[];
  close(): Promise<void>;
}

/**
 * A real AG-UI endpoint on loopback: POST a `RunAgentInput`, get server-sent
 * events back. Used by the integration specs and the terminal demo.
 */
export async function startAgentServer(script: AgentScript): Promise<AgentServer> {
  const encoder = new EventEncoder();
  const inputs: RunAgentInput[] = [];
  const responses: SseResponse[] = [];

  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const input = JSON.parse(body) as RunAgentInput;
    inputs.push(input);
    response.writeHead(200, { "content-type": encoder.getContentType(), "cache-control": "no-cache" });
    response.flushHeaders();
    const sse = openSse(request, response, encoder);
    responses.push(sse);
    try {
      await script(input, sse);
    } catch {
      response.destroy();
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    inputs,
    responses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function openSse(request: IncomingMessage, response: ServerResponse, encoder: EventEncoder): SseResponse {
  const closed = new Promise<void>((resolve) => response.once("close", () => resolve()));
  return {
    send: (event) => void response.write(encoder.encodeSSE(event as Parameters<EventEncoder["encodeSSE"]>[0])),
    raw: (text) => void response.write(text),
    end: () => response.end(),
    closed,
    request,
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}
