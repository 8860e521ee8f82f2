import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What a hostile server saw of one request. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
}

export interface HostileServer {
  /** `http://127.0.0.1:PORT/api`, the base URL a client is given. */
  url: string;
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A purpose-built server on 127.0.0.1: `handle` answers each request
 * (`index` counts from 0). Closing destroys every socket it still holds.
 */
export async function hostileServer(handle: (request: IncomingMessage, response: ServerResponse, index: number) => void): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers });
    request.resume();
    handle(request, response, requests.length - 1);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (one that was just freed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": status < 400 ? "application/json" : "application/problem+json", ...headers });
  response.end(JSON.stringify(body));
};

export const eventStreamHead = (response: ServerResponse) => response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers an `afterEach` that closes every server `serve` started in the test; returns `serve`. */
export function closedAfterEach(): typeof hostileServer {
  const servers: HostileServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (handle) => {
    const server = await hostileServer(handle);
    servers.push(server);
    return server;
  };
}
