import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestFault } from "./faults";
import { CORS_HEADERS, PREFLIGHT_HEADERS, readBody, replyFor, send, sendOversized, toWire, type WireReply } from "./http";
import { ProblemError, type ProblemKind, type Reply } from "./problems";
import { cost, decide, events, getApproval, invoke, listTools, type Call } from "./routes";
import { ServerState, type Principal } from "./state";
import type { ToolServer, ToolServerOptions, ToolServerRequest, ToolServerRoute } from "./types";

interface Route {
  name: ToolServerRoute;
  method: "GET" | "POST";
  pattern: RegExp;
  /** Idempotency-Key: required (invoke), honoured when sent (decide), or not looked at. */
  idempotency?: "required" | "optional";
  handle?: (state: ServerState, call: Call) => Reply | Promise<Reply>;
}

const ROUTES: Route[] = [
  { name: "tools", method: "GET", pattern: /^\/tools$/, handle: listTools },
  { name: "invoke", method: "POST", pattern: /^\/tools\/([^/]+)\/invoke$/, idempotency: "required", handle: invoke },
  { name: "approval", method: "GET", pattern: /^\/approvals\/([^/]+)$/, handle: getApproval },
  { name: "decide", method: "POST", pattern: /^\/approvals\/([^/]+)\/decide$/, idempotency: "optional", handle: decide },
  { name: "cost", method: "GET", pattern: /^\/runs\/([^/]+)\/cost$/, handle: cost },
  { name: "events", method: "GET", pattern: /^\/runs\/([^/]+)\/events$/ },
];

const DEFAULT_FAULT_KINDS: Record<500 | 502 | 503 | 504, ProblemKind> = { 500: "internal", 502: "tool-failed", 503: "unavailable", 504: "tool-timeout" };

/**
 * The reference tool server on 127.0.0.1 and a port the OS chose: the wire
 * protocol of docs/tool-server-protocol.md, with faults to inject, for the
 * tool client's integration tests and the demo.
 */
export async function startToolServer(options: ToolServerOptions = {}): Promise<ToolServer> {
  const state = new ServerState(options);
  const requests: ToolServerRequest[] = [];

  const server = createServer((request, response) => {
    // A kept-alive socket may carry the first request after a refusal was queued: it goes the same way as a new one.
    if (state.faults.takeRefusal()) return void request.socket.destroy();
    requests.push({ method: request.method ?? "", path: request.url ?? "", headers: flatten(request) });
    handle(state, request, response).catch(() => response.destroy());
  });
  server.on("connection", (socket) => {
    if (state.faults.takeRefusal()) socket.destroy();
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${state.prefix}`,
    requests,
    inject: (fault, injectOptions) => {
      state.faults.add(fault, injectOptions);
      // So that the next request needs a new connection, which the refusal can meet.
      if (fault.type === "refuse") server.closeIdleConnections();
    },
    toolRuns: (name) => state.toolRuns(name),
    emit: (runId, event, data) => state.run(runId).emit(event, data).id,
    endRun: (runId, data = {}) => state.run(runId).end(data),
    recordCost: (runId, entry) => state.run(runId).ledger.add(entry),
    dropEventStreams: (runId) => {
      const runs = runId === undefined ? [...state.runs.values()] : [state.runs.get(runId)].filter((run) => run !== undefined);
      for (const run of runs) for (const stream of run.streams) stream.response.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        state.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(state: ServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  for (const [name, value] of Object.entries(CORS_HEADERS)) response.setHeader(name, value);
  if (request.method === "OPTIONS") {
    response.writeHead(204, PREFLIGHT_HEADERS);
    return void response.end();
  }
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const match = matchRoute(state.prefix, request.method, url.pathname);
  if (match === undefined) return send(response, toWire(new ProblemError("not-found", `No route for ${request.method} ${url.pathname}`).toReply()));
  const { route, param } = match;
  try {
    const fault = state.faults.takeRequestFault(route.name);
    if (fault?.type === "slow") await state.delay(fault.delayMs);
    else if (fault !== undefined && (await misbehave(fault, request, response))) return;
    const principal = state.authenticate(headerOf(request, "authorization"));
    const key = idempotencyKey(request, route);
    const body = route.method === "POST" ? await readBody(request) : "";
    const call: Call = { principal, param: decodeParam(param), query: url.searchParams, headers: request.headers, body };
    if (route.handle === undefined) {
      if (fault?.type === "reset-after-tool") return void response.destroy();
      return events(state, call, response);
    }
    const handler = route.handle;
    const answer = () => answered(() => handler(state, call));
    const { wire, replayed } = key === undefined ? { wire: await answer(), replayed: false } : await idempotent(state, principal, key, fingerprint(request, url, body), answer);
    // The answer is kept under the key already: the retry will get it, though this socket never does.
    if (fault?.type === "reset-after-tool") return void response.destroy();
    send(response, wire, replayed ? { "idempotent-replayed": "true" } : {});
  } catch (error) {
    send(response, toWire(replyFor(error)));
  }
}

/** Applies a fault that replaces handling; false for one that only bends it (reset-after-tool). */
async function misbehave(fault: Exclude<RequestFault, { type: "slow" }>, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  switch (fault.type) {
    case "reset-before-tool":
      if (request.method === "POST") await readBody(request).catch(() => "");
      response.destroy();
      return true;
    case "reset-after-tool":
      return false;
    case "status": {
      const kind = fault.kind ?? DEFAULT_FAULT_KINDS[fault.status];
      const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { "retry-after": fault.retryAfter };
      send(response, toWire(new ProblemError(kind as ProblemKind, `Injected ${fault.status}`, {}, headers, fault.status).toReply()));
      return true;
    }
    case "oversized-body":
      await sendOversized(response, fault.bytes);
      return true;
    case "non-problem-error":
      send(response, { status: fault.status, headers: { "content-type": fault.contentType ?? "text/html; charset=utf-8" }, body: fault.body, storable: false });
      return true;
  }
}

/** Answers once per (principal, key): replays a stored answer, refuses a reused or in-flight key, or handles and stores. */
async function idempotent(state: ServerState, principal: Principal, key: string, print: string, answer: () => Promise<WireReply>): Promise<{ wire: WireReply; replayed: boolean }> {
  const found = state.idempotency.begin(principal.id, key, print);
  if (found.state === "done") return { wire: found.reply, replayed: true };
  if (found.state === "reused") throw new ProblemError("idempotency-key-reused", "This Idempotency-Key was used with another request");
  if (found.state === "in-flight") throw new ProblemError("idempotency-key-in-flight", "A request with this Idempotency-Key is still being handled");
  const wire = await answer();
  if (wire.storable) state.idempotency.complete(principal.id, key, wire);
  else state.idempotency.release(principal.id, key);
  return { wire, replayed: false };
}

async function answered(handler: () => Reply | Promise<Reply>): Promise<WireReply> {
  try {
    return toWire(await handler());
  } catch (error) {
    return toWire(replyFor(error));
  }
}

function idempotencyKey(request: IncomingMessage, route: Route): string | undefined {
  if (route.idempotency === undefined) return undefined;
  const key = headerOf(request, "idempotency-key");
  if (key === undefined || key === "") {
    if (route.idempotency === "optional") return undefined;
    throw new ProblemError("idempotency-key-missing", "This route needs an Idempotency-Key header");
  }
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new ProblemError("bad-request", "An Idempotency-Key is 1 to 255 visible ASCII characters");
  return key;
}

/** The same request is the same method, path and body bytes. */
function fingerprint(request: IncomingMessage, url: URL, body: string): string {
  return createHash("sha256").update(`${request.method} ${url.pathname}\n${body}`).digest("hex");
}

function matchRoute(prefix: string, method: string | undefined, pathname: string): { route: Route; param: string } | undefined {
  if (!pathname.startsWith(`${prefix}/`)) return undefined;
  const rest = pathname.slice(prefix.length);
  for (const route of ROUTES) {
    const found = route.method === method ? route.pattern.exec(rest) : null;
    if (found !== null) return { route, param: found[1] ?? "" };
  }
  return undefined;
}

function decodeParam(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    throw new ProblemError("bad-request", "The path is not valid percent-encoding");
  }
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function flatten(request: IncomingMessage): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(request.headers).map((name) => [name, headerOf(request, name)]));
}
