import { execFileSync } from "node:child_process";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { firstValueFrom, toArray } from "rxjs";
import { EventStreamError, ToolClient, ToolTransportError, type EventsOptions, type ServerEvent } from "carbon-agui-rx/tool-client";
import { closedAfterEach, eventStreamHead, sleep, type HostileServer } from "./servers";

const serve = closedAfterEach();
const client = (server: HostileServer) => new ToolClient({ baseUrl: server.url, token: "t", retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 20 } });
const collect = (server: HostileServer, runId: string, options: EventsOptions = {}) => firstValueFrom(client(server).events$(runId, options).pipe(toArray()));

/** Writes `bytes` one write at a time, `ms` apart, until the response is closed or the bytes run out. */
async function dribble(response: ServerResponse, bytes: Uint8Array, ms: number) {
  for (const byte of bytes) {
    if (response.destroyed || response.writableEnded) return;
    response.write(Uint8Array.of(byte));
    await sleep(ms);
  }
}

describe("a hostile tool server: events", () => {
  // A replay with CRLF line ends, a comment, a retry: field, multi-line data and multi-byte characters split anywhere.
  const replay = Buffer.from(
    [
      ": hello\r\n\r\nretry: 1\r\n",
      'id: 1\r\nevent: tool.started\r\ndata: {"n":1,"text":"héllo €"}\r\n\r\n',
      'id: 2\r\nevent: tool.progress\r\ndata: {"n":2,\r\ndata: "emoji":"🦜"}\r\n\r\n',
      'id: 3\ndata: {"n":3}\n\n',
      "id: 4\revent: end\rdata: {}\r\r",
    ].join(""),
  );
  const expected: ServerEvent[] = [
    { id: "1", event: "tool.started", data: { n: 1, text: "héllo €" } },
    { id: "2", event: "tool.progress", data: { n: 2, emoji: "🦜" } },
    { id: "3", event: "message", data: { n: 3 } },
    { id: "4", event: "end", data: {} },
  ];

  it(`delivers each event exactly once when the connection drops at every one of the ${replay.length} byte offsets and the server replays from the start`, async () => {
    // One server for every offset: run "drop-N" breaks its first connection after N bytes, then replays everything.
    const connections = new Map<number, number>();
    const server = await serve((request, response) => {
      const offset = Number(/drop-(\d+)/.exec(request.url ?? "")?.[1]);
      connections.set(offset, (connections.get(offset) ?? 0) + 1);
      eventStreamHead(response);
      if (connections.get(offset)! > 1 || offset === replay.length) return response.end(replay);
      if (offset === 0) return response.flushHeaders(), response.socket?.destroy();
      response.write(replay.subarray(0, offset), () => response.socket?.destroy());
    });
    const started = Date.now();
    for (let offset = 0; offset <= replay.length; offset++) {
      const events = await collect(server, `drop-${offset}`);
      if (JSON.stringify(events) !== JSON.stringify(expected)) throw new Error(`dropped at byte ${offset}: got ${JSON.stringify(events)}`);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("does not let an event without an id end the skipping of a replay: replaying 1, note, 2, 3 delivers 2 and 3 once", async () => {
    const stream = 'id: 1\ndata: {"n":1}\n\ndata: {"note":true}\n\nid: 2\ndata: {"n":2}\n\nid: 3\ndata: {"n":3}\n\n';
    const server = await serve((_request, response, index) => {
      eventStreamHead(response);
      if (index === 0) return response.end(stream);
      response.end(`${stream}id: 4\nevent: end\ndata: {}\n\n`);
    });
    const events = await collect(server, "r");
    expect(events.map((event) => event.id ?? "note")).toEqual(["1", "note", "2", "3", "note", "4"]);
  });

  it("does not let a server dribbling a byte at a time without ever finishing a frame hold off the idle timeout", async () => {
    const server = await serve((_request, response) => {
      eventStreamHead(response);
      void dribble(response, Buffer.from(`data: ${"x".repeat(200)}`), 10);
    });
    const started = Date.now();
    await expect(collect(server, "r", { idleTimeoutMs: 150, retry: false })).rejects.toMatchObject({ name: "ToolTransportError", reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("bounds an event in bytes whatever the chunking: a line of 3-byte characters sent a byte at a time", async () => {
    const line = Buffer.from(`data: "${"€".repeat(100)}"\n\n`);
    const server = await serve((_request, response) => {
      eventStreamHead(response);
      void dribble(response, line, 1);
    });
    await expect(collect(server, "r", { maxEventSize: 120 })).rejects.toThrow(EventStreamError);
  });

  it("never reconnects at once for a huge retry: field, even with maxDelayMs: Infinity", async () => {
    const server = await serve((_request, response) => {
      eventStreamHead(response);
      response.end(`retry: ${2 ** 31 + 10}\n\n`);
    });
    const subscription = client(server)
      .events$("r", { retry: { maxRetries: Infinity, baseDelayMs: 1, maxDelayMs: Infinity } })
      .subscribe({ error: () => undefined });
    await sleep(150);
    subscription.unsubscribe();
    expect(server.requests).toHaveLength(1);
  });

  it.each([NaN, 0, -5, "1000"])("refuses maxEventSize: %p with a TypeError, like a duration", (size) => {
    const tools = new ToolClient({ baseUrl: "http://127.0.0.1:9" });
    expect(() => tools.events$("r", { maxEventSize: size as number })).toThrow(TypeError);
    expect(() => tools.events("r", { maxEventSize: size as number })).toThrow(TypeError);
  });

  it("holds a fast server back while the loop holds an event: TCP, not the client's memory, absorbs the difference", () => {
    const child = execFileSync(process.execPath, ["--import", "tsx", join(__dirname, "backpressure.child.ts")], { encoding: "utf8", timeout: 10_000 });
    const { afterWhile, afterLonger } = JSON.parse(child) as { afterWhile: number; afterLonger: number };
    // Held back, the server stalls once TCP's buffers are full; without backpressure the client takes all it writes.
    expect(afterLonger).toBe(afterWhile);
    expect(afterLonger).toBeLessThan(16 * 1024 * 1024);
  });

  it("still times out on plain silence after a finished event", async () => {
    const server = await serve((_request, response) => {
      eventStreamHead(response);
      response.write('id: 1\ndata: {"n":1}\n\n');
    });
    await expect(collect(server, "r", { idleTimeoutMs: 100, retry: false })).rejects.toThrow(ToolTransportError);
  });
});
