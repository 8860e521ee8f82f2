import type { IncomingMessage, ServerResponse } from "node:http";
import { ProblemError, isStorable, type Reply } from "./problems";

/** A reply as bytes on the wire, the form the idempotency store keeps. */
export interface WireReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  storable: boolean;
}

const MAX_BODY_BYTES = 1024 * 1024;

export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "retry-after, idempotent-replayed",
};

export const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, idempotency-key, last-event-id, accept",
  "access-control-max-age": "600",
};

/** The reply to anything a handler threw: its problem, or 500 `internal` for a bug of ours. */
export function replyFor(error: unknown): Reply {
  return (error instanceof ProblemError ? error : new ProblemError("internal", "The tool server failed unexpectedly")).toReply();
}

export function toWire(reply: Reply): WireReply {
  let body: string;
  try {
    body = JSON.stringify(reply.body) ?? "null";
  } catch {
    // A tool result that is not JSON (a cycle, a BigInt) is our failure to serve it, not the caller's.
    return toWire(replyFor(undefined));
  }
  return { status: reply.status, headers: { "content-type": reply.contentType ?? "application/json", ...reply.headers }, body, storable: isStorable(reply) };
}

export function send(response: ServerResponse, wire: WireReply, extraHeaders: Record<string, string> = {}): void {
  if (response.destroyed) return;
  response.writeHead(wire.status, { ...wire.headers, ...extraHeaders });
  response.end(wire.body);
}

/** The body as text; past `MAX_BODY_BYTES` the rest is drained unread and the request refused. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    request.on("data", (part: Buffer) => {
      size += part.length;
      if (size <= MAX_BODY_BYTES) parts.push(part);
    });
    request.on("end", () =>
      size > MAX_BODY_BYTES
        ? reject(new ProblemError("payload-too-large", `The body exceeds ${MAX_BODY_BYTES} bytes`, { max_bytes: MAX_BODY_BYTES }))
        : resolve(Buffer.concat(parts).toString("utf8")),
    );
    request.on("error", reject);
  });
}

/** Streams a 200 JSON body of exactly `bytes` bytes, stopping as soon as the client goes away. */
export async function sendOversized(response: ServerResponse, bytes: number): Promise<void> {
  const head = '{"status":"ok","result":{"padding":"';
  const tail = '"},"call_id":"call_oversized"}';
  response.writeHead(200, { "content-type": "application/json" });
  response.write(head);
  const chunk = "x".repeat(64 * 1024);
  for (let left = Math.max(0, bytes - head.length - tail.length); left > 0 && !response.destroyed; left -= chunk.length) {
    if (!response.write(left >= chunk.length ? chunk : chunk.slice(0, left))) await drained(response);
  }
  if (!response.destroyed) response.end(tail);
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => (response.off("drain", done), response.off("close", done), resolve());
    response.on("drain", done);
    response.on("close", done);
  });
}
