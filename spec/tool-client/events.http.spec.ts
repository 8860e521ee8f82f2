import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { firstValueFrom, toArray } from "rxjs";
import { startToolServer, type ToolServer, type ToolServerOptions } from "carbon-agui-rx/testing";
import { EventStreamError, ForbiddenError, ToolClient, type EventsOptions, type ServerEvent } from "carbon-agui-rx/tool-client";

const fastRetry = { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50 };
let server: ToolServer;
let runs = 0;
const newRun = () => `events-run-${++runs}`;

async function restart(options: ToolServerOptions = {}) {
  await server?.close();
  server = await startToolServer(options);
}
afterEach(() => server?.close());

const client = (options: { token?: string; fetch?: typeof fetch } = {}) => new ToolClient({ baseUrl: server.url, token: "alice-token", retry: fastRetry, ...options });
const collect = (runId: string, options: EventsOptions = {}, c = client()) => firstValueFrom(c.events$(runId, options).pipe(toArray()));
const eventRequests = () => server.requests.filter((request) => request.method === "GET" && request.path.includes("/events"));
const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the run has an open event stream (the server received its request). */
async function connected(count = 1) {
  for (let waited = 0; eventRequests().length < count; waited += 5) {
    if (waited > 2_000) throw new Error("no event-stream connection");
    await tick(5);
  }
  await tick();
}

/** A fetch answering each connection from `answers` in turn, recording the headers it was sent. */
function scriptedFetch(answers: (() => Response)[]) {
  const sent: Record<string, string>[] = [];
  const fetchImpl: typeof fetch = async (_input, init) => {
    sent.push(Object.fromEntries(new Headers(init?.headers).entries()));
    const answer = answers.shift();
    if (!answer) throw new Error("no more answers planned");
    return answer();
  };
  return { fetchImpl, sent };
}
const sse = (chunks: (string | number)[], contentType = "text/event-stream") =>
  new Response(
    new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const chunk of chunks) {
          if (typeof chunk === "number") await tick(chunk);
          else controller.enqueue(new TextEncoder().encode(chunk));
        }
        controller.close();
      },
    }),
    { headers: { "content-type": contentType } },
  );

describe("ToolClient.events$ against edge-case answers", () => {
  const offline = (fetchImpl: typeof fetch) => new ToolClient({ baseUrl: "http://127.0.0.1:9/api", fetch: fetchImpl, retry: fastRetry });

  it("does not send an id that cannot travel in a header as Last-Event-ID, and refuses one given as lastEventId", async () => {
    const { fetchImpl, sent } = scriptedFetch([() => sse(["id: 事件-1\ndata: {\"n\":1}\n\n"]), () => sse(["id: 事件-1\ndata: {\"n\":1}\n\nid: 2\nevent: end\ndata: {}\n\n"])]);
    const events = await firstValueFrom(offline(fetchImpl).events$("r").pipe(toArray()));
    expect(events.map((event) => event.id)).toEqual(["事件-1", "2"]);
    expect(sent[1]?.["last-event-id"]).toBeUndefined();
    expect(() => offline(fetchImpl).events$("r", { lastEventId: "事件-1" })).toThrow(TypeError);
  });

  it("retries a connect whose error answer breaks off mid-body, like any broken connection", async () => {
    const brokenBody = () =>
      new Response(new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(new TextEncoder().encode('{"type":')), controller.error(new TypeError("terminated"))) }), { status: 503 });
    const { fetchImpl } = scriptedFetch([brokenBody, () => sse(["event: end\ndata: {}\n\n"], "Text/Event-Stream; charset=utf-8")]);
    await expect(firstValueFrom(offline(fetchImpl).events$("r").pipe(toArray()))).resolves.toEqual([{ id: undefined, event: "end", data: {} }]);
  });

  it("waits for an event arriving slowly in pieces, up to idleTimeoutMs from its first byte (hostile/events.spec.ts: not longer)", async () => {
    const data = `data: {"text":"${"x".repeat(40)}"}`;
    const pieces = Array.from({ length: 8 }, (_, index) => data.slice(index * 6, index * 6 + 6));
    const { fetchImpl, sent } = scriptedFetch([() => sse([...pieces.flatMap((piece) => [piece, 60]), data.slice(48), "\n\nevent: end\ndata: {}\n\n"])]);
    const events = await firstValueFrom(offline(fetchImpl).events$("r", { idleTimeoutMs: 1_500 }).pipe(toArray()));
    expect(events).toHaveLength(2);
    expect(sent).toHaveLength(1);
  });
});

describe("ToolClient.events$ over HTTP, against the reference tool server", () => {
  beforeEach(() => restart());

  it("delivers the run's events with their ids, names and JSON data, and completes at end", async () => {
    const runId = newRun();
    const events = collect(runId);
    await connected();
    server.emit(runId, "tool.started", { tool: "add" });
    server.emit(runId, "tool.finished", { tool: "add", result: { sum: 5 } });
    server.endRun(runId, { status: "done" });
    expect(await events).toEqual<ServerEvent[]>([
      { id: "1", event: "tool.started", data: { tool: "add" } },
      { id: "2", event: "tool.finished", data: { tool: "add", result: { sum: 5 } } },
      { id: "3", event: "end", data: { status: "done" } },
    ]);
    expect(eventRequests()[0]?.headers.accept).toBe("text/event-stream");
  });

  it("closes after an event named in closeOn, and resumes from a given lastEventId", async () => {
    const runId = newRun();
    const first = collect(runId, { closeOn: ["tool.finished"] });
    await connected();
    for (const name of ["tool.started", "tool.finished", "tool.started"]) server.emit(runId, name, {});
    expect((await first).map((event) => event.id)).toEqual(["1", "2"]);
    server.endRun(runId);
    expect((await collect(runId, { lastEventId: "2" })).map((event) => event.id)).toEqual(["3", "4"]);
    expect(eventRequests()[1]?.headers["last-event-id"]).toBe("2");
  });

  it("events(): for await over the same stream; break closes the connection", async () => {
    const runId = newRun();
    const signals: AbortSignal[] = [];
    const recording: typeof fetch = (input, init) => (signals.push(init!.signal!), fetch(input, init));
    const seen: string[] = [];
    const loop = (async () => {
      for await (const event of client({ fetch: recording }).events(runId)) {
        seen.push(event.event);
        if (event.event === "tool.finished") break;
      }
    })();
    await connected();
    server.emit(runId, "tool.started", {});
    server.emit(runId, "tool.finished", {});
    await loop;
    expect(seen).toEqual(["tool.started", "tool.finished"]);
    expect(signals[0]?.aborted).toBe(true);
  });

  it("events(): aborting the signal rejects the loop with its reason and closes the connection", async () => {
    const runId = newRun();
    const controller = new AbortController();
    const loop = (async () => {
      for await (const event of client().events(runId, { signal: controller.signal })) void event;
    })();
    await connected();
    controller.abort(new Error("leaving"));
    await expect(loop).rejects.toThrow("leaving");
  });

  it("reconnects after a dropped connection with Last-Event-ID and delivers each event once", async () => {
    const runId = newRun();
    const events = collect(runId);
    await connected();
    server.emit(runId, "a", { n: 1 });
    server.emit(runId, "a", { n: 2 });
    await tick();
    server.dropEventStreams(runId);
    await connected(2);
    server.emit(runId, "a", { n: 3 });
    server.endRun(runId);
    expect((await events).map((event) => event.id)).toEqual(["1", "2", "3", "4"]);
    expect(eventRequests()[1]?.headers["last-event-id"]).toBe("2");
  });

  it.each<[string, object]>([
    ["drops the connection in the middle of a frame", { type: "drop-mid-frame", afterEvents: 2 }],
    ["replays the whole log on reconnect", { type: "replay-too-much" }],
  ])("still delivers each event once when the server %s", async (_what, fault) => {
    const runId = newRun();
    for (let n = 1; n <= 5; n++) server.emit(runId, "a", { n });
    server.inject({ type: "drop-mid-frame", afterEvents: 3 }, { route: "events" });
    server.inject(fault as never, { route: "events" });
    const events = collect(runId);
    await connected(2);
    server.endRun(runId);
    expect((await events).map((event) => event.id)).toEqual(["1", "2", "3", "4", "5", "6"]);
  });

  it("reconnects after idleTimeoutMs of silence", async () => {
    await restart({ keepAliveMs: 60_000 });
    const runId = newRun();
    server.emit(runId, "a", {});
    server.inject({ type: "go-silent", afterEvents: 1 }, { route: "events" });
    const events = collect(runId, { idleTimeoutMs: 150 });
    await connected(2);
    server.endRun(runId);
    expect((await events).map((event) => event.id)).toEqual(["1", "2"]);
  });

  it("keep-alives hold a quiet connection open past idleTimeoutMs", async () => {
    await restart({ keepAliveMs: 40 });
    const runId = newRun();
    const events = collect(runId, { idleTimeoutMs: 150 });
    await connected();
    await tick(400);
    server.endRun(runId);
    await events;
    expect(eventRequests()).toHaveLength(1);
  });

  it("completes at a data-less end event", async () => {
    const runId = newRun();
    server.inject({ type: "data-less-end" }, { route: "events" });
    const events = collect(runId);
    await connected();
    server.emit(runId, "a", {});
    server.endRun(runId);
    expect((await events).map((event) => [event.event, event.data])).toEqual([
      ["a", {}],
      ["end", null],
    ]);
  });

  it("raises EventStreamError for an event over maxEventSize and for data that is not JSON, without reconnecting", async () => {
    const big = newRun();
    server.inject({ type: "oversized-event", bytes: 64 * 1024 }, { route: "events" });
    const oversized = collect(big, { maxEventSize: 16 * 1024 });
    await connected();
    server.emit(big, "a", {});
    await expect(oversized).rejects.toThrow(EventStreamError);

    const garbled = newRun();
    server.inject({ type: "non-json-event" }, { route: "events" });
    const notJson = collect(garbled).catch((error: unknown) => error);
    await connected(2);
    server.emit(garbled, "a", { secret: "s3cret" });
    const error = (await notJson) as EventStreamError;
    expect(error).toBeInstanceOf(EventStreamError);
    expect(error.eventId).toBe("1");
    expect(error.message).not.toContain("s3cret");
    expect(eventRequests()).toHaveLength(2);
  });

  it("events(): return() while a step waits closes the connection at once and ends the waiting step", async () => {
    const runId = newRun();
    const signals: AbortSignal[] = [];
    const recording: typeof fetch = (input, init) => (signals.push(init!.signal!), fetch(input, init));
    const iterator = client({ fetch: recording }).events(runId);
    const step = iterator.next();
    await connected();
    await expect(iterator.return!()).resolves.toEqual({ value: undefined, done: true });
    await expect(step).resolves.toEqual({ value: undefined, done: true });
    expect(signals[0]?.aborted).toBe(true);
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it("refuses another principal's run with ForbiddenError, without retrying", async () => {
    const runId = newRun();
    await client().invoke("add", { a: 1, b: 1 }, { runId });
    await expect(collect(runId, {}, client({ token: "bob-token" }))).rejects.toBeInstanceOf(ForbiddenError);
    expect(eventRequests()).toHaveLength(1);
  });

  it("1,000 events with 20 random drops arrive exactly once and in order", async () => {
    const runId = newRun();
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const dropsAt = new Set<number>();
    while (dropsAt.size < 20) dropsAt.add(1 + Math.floor(random() * 999));
    const received: number[] = [];
    const done = new Promise<void>((resolve, reject) =>
      client()
        .events$(runId, { retry: { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 10 } })
        .subscribe({ next: (event) => event.event === "n" && received.push((event.data as { n: number }).n), error: reject, complete: resolve }),
    );
    await connected();
    for (let n = 1; n <= 1_000; n++) {
      server.emit(runId, "n", { n });
      if (dropsAt.has(n)) {
        const connections = eventRequests().length;
        await tick(2);
        server.dropEventStreams(runId);
        await connected(connections + 1);
      } else if (n % 50 === 0) await tick(1);
    }
    server.endRun(runId);
    await done;
    expect(received).toEqual(Array.from({ length: 1_000 }, (_, index) => index + 1));
    expect(eventRequests()).toHaveLength(21);
  });

  it("keeps memory flat over 100,000 events", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const runId = newRun();
    let received = 0;
    const done = new Promise<void>((resolve, reject) => client().events$(runId).subscribe({ next: () => void received++, error: reject, complete: resolve }));
    await connected();
    const heapAfter = async (count: number) => {
      while (received < count) {
        const upTo = Math.min(count, received + 1_000);
        for (let n = received + 1; n <= upTo; n++) server.emit(runId, "progress", { n, note: "x".repeat(100) });
        while (received < upTo) await tick(1);
      }
      gc();
      return process.memoryUsage().heapUsed;
    };
    const early = await heapAfter(20_000);
    const late = await heapAfter(100_000);
    server.endRun(runId);
    await done;
    // 80,000 more events of ~150 bytes would be 12 MB if kept; the replay window holds 1,024 hashes.
    expect(late - early).toBeLessThan(3 * 1024 * 1024);
  }, 60_000);
});
