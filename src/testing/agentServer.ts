import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createSseRunner, type ObservableRunAgent } from "carbon-agui-rx";

/** One open SSE response, for a script to write to. */
export interface SseResponse {
  /** Writes one AG-UI event as an SSE frame. */
  send(event: BaseEvent): void;
  /** Writes raw SSE text as it is (comments, malformed frames, CRLF framing…). */
  raw(text: string): void;
  end(): void;
  /** Resolves when the connection closes, whoever closed it. */
  readonly closed: Promise<void>;
  /** Whether the client went away before the script ended the response (a run it stopped); false while open. */
  readonly closedByClient: boolean;
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

export interface AgentServerOptions {
  /** How an event becomes an SSE frame. Default: `data: <JSON>\n\n`, as `@ag-ui/encoder`'s `encodeSSE` writes it; pass that to test against it. */
  encode?: (event: BaseEvent) => string;
}

const encodeSse = (event: BaseEvent) => `data: ${JSON.stringify(event)}\n\n`;

/**
 * A real AG-UI endpoint on loopback: POST a `RunAgentInput`, get server-sent
 * events back, written by `script`. Used by the integration specs and the
 * terminal demo.
 */
export async function startAgentServer(script: AgentScript, options: AgentServerOptions = {}): Promise<AgentServer> {
  const { encode = encodeSse } = options;
  const inputs: RunAgentInput[] = [];
  const responses: SseResponse[] = [];

  const server = createServer(async (request, response) => {
    // Pages under test are served from another loopback port.
    response.setHeader("access-control-allow-origin", "*");
    if (request.method === "OPTIONS") {
      response.writeHead(204, { "access-control-allow-methods": "POST", "access-control-allow-headers": "content-type, accept, authorization" });
      return response.end();
    }
    const body = await readBody(request);
    const input = JSON.parse(body) as RunAgentInput;
    inputs.push(input);
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.flushHeaders();
    const sse = openSse(request, response, encode);
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

function openSse(request: IncomingMessage, response: ServerResponse, encode: (event: BaseEvent) => string): SseResponse {
  let closedByClient = false;
  const closed = new Promise<void>((resolve) =>
    response.once("close", () => {
      closedByClient = !response.writableEnded;
      resolve();
    }),
  );
  return {
    send: (event) => void response.write(encode(event)),
    raw: (text) => void response.write(text),
    end: () => response.end(),
    closed,
    get closedByClient() {
      return closedByClient;
    },
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

/** What a scripted agent answers one run with: a list of events, or a script that writes them. */
export type Scenario = readonly BaseEvent[] | AgentScript;

export interface ScriptedAgent extends AgentServer {
  /** A runner for the adapter (`createSseRunner` on this endpoint). */
  readonly run: ObservableRunAgent;
}

/**
 * A real AG-UI SSE endpoint on 127.0.0.1 that answers the n-th run with the
 * n-th scenario (a run past the last gets a RUN_ERROR saying so), or every run
 * with one script (an agent that answers by keyword, say).
 */
export async function scriptedAgent(scenarios: readonly Scenario[] | AgentScript, options: AgentServerOptions = {}): Promise<ScriptedAgent> {
  let served = 0;
  const server = await startAgentServer(async (input, sse) => {
    const scenario = typeof scenarios === "function" ? scenarios : scenarios[served++];
    if (typeof scenario === "function") return scenario(input, sse);
    const events = scenario ?? [{ type: EventType.RUN_ERROR, message: `The scripted agent has no scenario for run ${served}` }];
    for (const event of events) sse.send(event);
    sse.end();
  }, options);
  return { url: server.url, inputs: server.inputs, responses: server.responses, close: server.close, run: createSseRunner({ url: server.url }) };
}
