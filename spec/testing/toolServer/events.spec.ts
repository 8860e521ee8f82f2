import { startToolServer, type ToolServer, type ToolServerOptions } from "../../../src/testing/toolServer";
import { ALICE, as, BOB, EventReader, REVIEWER } from "./support";

let server: ToolServer;
const readers: EventReader[] = [];
const start = async (options: ToolServerOptions = {}) => (server = await startToolServer(options));
const open = async (runId: string, token = ALICE, headers: Record<string, string> = {}) => {
  const reader = await EventReader.open(server, runId, token, headers);
  readers.push(reader);
  return reader;
};
afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.cancel()));
  await server?.close();
});

const eventCount = (n: number) => (text: string) => (text.match(/\r\nevent: /g) ?? []).length >= n;

describe("reference tool server: run events", () => {
  it("streams CRLF frames with id, event and data in that order, ids counting per run, under SSE headers", async () => {
    await start();
    const reader = await open("r1");
    expect(reader.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(reader.response.headers.get("cache-control")).toBe("no-cache");
    expect(reader.response.headers.get("x-accel-buffering")).toBe("no");
    expect([server.emit("r1", "progress", { step: 1 }), server.emit("r1", "progress", { step: 2 }), server.emit("other", "progress", {})]).toEqual(["1", "2", "1"]);
    const text = await reader.until(eventCount(2));
    expect(text).toBe('id: 1\r\nevent: progress\r\ndata: {"step":1}\r\n\r\nid: 2\r\nevent: progress\r\ndata: {"step":2}\r\n\r\n');
  });

  it("starts with retry when retryMs is set, and sends keep-alive comments every keepAliveMs", async () => {
    await start({ retryMs: 2_500, keepAliveMs: 25 });
    const reader = await open("r1");
    const text = await reader.until((seen) => (seen.match(/: ping - /g) ?? []).length >= 2);
    expect(text.startsWith("retry: 2500\r\n\r\n")).toBe(true);
    expect(text).toMatch(/^retry: 2500\r\n\r\n(: ping - \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\r\n\r\n){2,}$/);
  });

  it("tells the owner's stream about tool calls and approvals, without arguments or results", async () => {
    await start();
    const reader = await open("r1");
    const call = await as(server, ALICE).invoke("add", { arguments: { a: 40, b: 2 }, run_id: "r1", thread_id: "t1" });
    await as(server, ALICE).invoke("explode", { arguments: {}, run_id: "r1" });
    const approvalId = (await as(server, ALICE).invoke("send_email", { arguments: { to: "secret@example.com" }, run_id: "r1" })).body.approval_id;
    const decided = await as(server, REVIEWER).decide(approvalId, { approved: true });
    await reader.until(eventCount(8));
    const events = reader.events.map(({ id, event, data }) => ({ id, event, data: JSON.parse(data ?? "null") }));
    expect(events).toEqual([
      { id: "1", event: "tool.started", data: { run_id: "r1", thread_id: "t1", tool: "add", call_id: call.body.call_id } },
      { id: "2", event: "tool.finished", data: { run_id: "r1", thread_id: "t1", tool: "add", call_id: call.body.call_id } },
      { id: "3", event: "tool.started", data: { run_id: "r1", tool: "explode", call_id: expect.stringMatching(/^call_/) } },
      { id: "4", event: "tool.failed", data: { run_id: "r1", tool: "explode", call_id: events[2]?.data.call_id, kind: "tool-failed" } },
      { id: "5", event: "approval.requested", data: { run_id: "r1", tool: "send_email", approval_id: approvalId } },
      { id: "6", event: "approval.decided", data: { run_id: "r1", tool: "send_email", approval_id: approvalId, approved: true, decided_by: "reviewer" } },
      { id: "7", event: "tool.started", data: { run_id: "r1", tool: "send_email", call_id: decided.body.call_id, approval_id: approvalId } },
      { id: "8", event: "tool.finished", data: { run_id: "r1", tool: "send_email", call_id: decided.body.call_id, approval_id: approvalId } },
    ]);
    expect(reader.text).not.toMatch(/secret@|"sum"|kaboom/);
  });

  it("replays what came after Last-Event-ID, then goes on live", async () => {
    await start();
    for (let step = 1; step <= 3; step++) server.emit("r1", "progress", { step });
    await open("r1"); // the first subscriber owns the run
    const resumed = await open("r1", ALICE, { "last-event-id": "2" });
    server.emit("r1", "progress", { step: 4 });
    await resumed.until(eventCount(2));
    expect(resumed.events.map((frame) => frame.id)).toEqual(["3", "4"]);
  });

  it("replays the whole kept log when Last-Event-ID is unknown or evicted", async () => {
    await start({ eventLogSize: 3 });
    for (let step = 1; step <= 5; step++) server.emit("r1", "progress", { step });
    const evicted = await open("r1", ALICE, { "last-event-id": "1" });
    const unknown = await open("r1", ALICE, { "last-event-id": "not-an-id" });
    const fresh = await open("r1");
    for (const reader of [evicted, unknown, fresh]) {
      await reader.until(eventCount(3));
      expect(reader.events.map((frame) => frame.id)).toEqual(["3", "4", "5"]);
    }
  });

  it("lets only the owner subscribe or resume: anyone else gets 403 run-forbidden", async () => {
    await start();
    server.emit("r1", "progress", {});
    await open("r1", BOB);
    for (const headers of [{}, { "last-event-id": "1" }]) {
      const refused = await fetch(`${server.url}/runs/r1/events`, { headers: { authorization: `Bearer ${ALICE}`, ...headers } });
      expect(refused.status).toBe(403);
      expect((await refused.json()).kind).toBe("run-forbidden");
    }
    expect((await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" })).status).toBe(403);
  });

  it("ends the run with an end event that has data, then closes every stream of it", async () => {
    await start();
    const first = await open("r1");
    const second = await open("r1");
    server.emit("r1", "progress", {});
    server.endRun("r1", { outcome: "done" });
    for (const reader of [first, second]) {
      expect(await reader.toEnd()).toBe("ended");
      expect(reader.text.endsWith('id: 2\r\nevent: end\r\ndata: {"outcome":"done"}\r\n\r\n')).toBe(true);
    }
    server.endRun("r2");
    const other = await open("r2");
    expect(await other.toEnd()).toBe("ended");
    expect(other.events).toEqual([{ id: "1", event: "end", data: "{}" }]);
  });

  it("answers a stream of an ended run with what was missed, then end, then closes", async () => {
    await start();
    for (let step = 1; step <= 3; step++) server.emit("r1", "progress", { step });
    server.endRun("r1", { outcome: "done" });
    const late = await open("r1", ALICE, { "last-event-id": "2" });
    expect(await late.toEnd()).toBe("ended");
    expect(late.events.map((frame) => `${frame.id} ${frame.event}`)).toEqual(["3 progress", "4 end"]);
    const atEnd = await open("r1", ALICE, { "last-event-id": "4" });
    expect(await atEnd.toEnd()).toBe("ended");
    expect(atEnd.events.map((frame) => `${frame.id} ${frame.event}`)).toEqual(["4 end"]);
  });

  it("seals an ended run's log: emit and endRun throw, tool calls still run but say nothing", async () => {
    await start();
    server.endRun("r1");
    expect(() => server.emit("r1", "late", {})).toThrow(/ended/);
    expect(() => server.endRun("r1")).toThrow(/ended/);
    expect(() => server.emit("r2", "end", {})).toThrow(/endRun/);
    expect((await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" })).status).toBe(200);
    const reader = await open("r1", ALICE);
    expect(await reader.toEnd()).toBe("ended");
    expect(reader.events.map((frame) => frame.event)).toEqual(["end"]);
  });

  it("drops open streams on demand, and close() ends a server with open streams", async () => {
    await start();
    const dropped = await open("r1");
    const kept = await open("r2");
    server.dropEventStreams("r1");
    expect(await dropped.toEnd()).toBe("errored");
    server.emit("r2", "still-here", {});
    await kept.until(eventCount(1));
    server.dropEventStreams();
    expect(await kept.toEnd()).toBe("errored");
    const open3 = await open("r3");
    await server.close();
    expect(await open3.toEnd()).toBe("errored");
  });
});
