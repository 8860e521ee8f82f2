import { startToolServer, type ToolServer } from "../../../src/testing/toolServer";
import { ALICE, as, EventReader, outcome } from "./support";

let server: ToolServer;
const readers: EventReader[] = [];
beforeEach(async () => (server = await startToolServer({ keepAliveMs: 20 })));
afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.cancel()));
  await server.close();
});
const open = async (runId: string, headers: Record<string, string> = {}) => {
  const reader = await EventReader.open(server, runId, ALICE, headers);
  readers.push(reader);
  return reader;
};
const add = { arguments: { a: 1, b: 2 } };
const eventCount = (n: number) => (text: string) => (text.match(/\r\nevent: /g) ?? []).length >= n;

describe("reference tool server: request faults", () => {
  it("reset-after-tool: the tool runs and its answer is kept, so the retry gets it replayed", async () => {
    server.inject({ type: "reset-after-tool" }, { route: "invoke" });
    expect(await outcome(as(server, ALICE).invokeRaw("add", add, "k1"))).toBe("rejected");
    expect(server.toolRuns("add")).toBe(1);
    const retry = await as(server, ALICE).invoke("add", add, "k1");
    expect([retry.status, retry.headers.get("idempotent-replayed"), retry.body.result]).toEqual([200, "true", { sum: 3 }]);
    expect(server.toolRuns("add")).toBe(1);
  });

  it("reset-after-tool on decide: the approved tool ran once, the keyed retry gets the result", async () => {
    const id = (await as(server, ALICE).invoke("send_email", { arguments: { to: "a" } })).body.approval_id;
    server.inject({ type: "reset-after-tool" }, { route: "decide" });
    const decide = () => fetch(`${server.url}/approvals/${id}/decide`, { method: "POST", headers: { authorization: `Bearer ${ALICE}`, "content-type": "application/json", "idempotency-key": "d1" }, body: '{"approved":true}' });
    expect(await outcome(decide())).toBe("rejected");
    const retry = await decide();
    expect([retry.status, retry.headers.get("idempotent-replayed"), (await retry.json()).result]).toEqual([200, "true", { sent: true, to: "a", cc: null }]);
    expect(server.toolRuns("send_email")).toBe(1);
  });

  it("reset-before-tool: the socket dies and the tool never ran, so a retry runs it", async () => {
    server.inject({ type: "reset-before-tool" });
    expect(await outcome(as(server, ALICE).invokeRaw("add", add, "k1"))).toBe("rejected");
    expect(server.toolRuns("add")).toBe(0);
    expect((await as(server, ALICE).invoke("add", add, "k1")).headers.get("idempotent-replayed")).toBeNull();
    expect(server.toolRuns("add")).toBe(1);
  });

  it("status: answers the problem with Retry-After, runs nothing, keeps nothing", async () => {
    server.inject({ type: "status", status: 503, retryAfter: "2" });
    const unavailable = await as(server, ALICE).invoke("add", add, "k1");
    expect([unavailable.status, unavailable.body.kind, unavailable.headers.get("retry-after")]).toEqual([503, "unavailable", "2"]);
    server.inject({ type: "status", status: 502, kind: "model-overloaded" });
    const custom = await as(server, ALICE).invoke("add", add, "k1");
    expect([custom.status, custom.body.kind, custom.body.type]).toEqual([502, "model-overloaded", "urn:tool-server:problem:model-overloaded"]);
    server.inject({ type: "status", status: 504 });
    expect((await as(server, ALICE).invoke("add", add, "k1")).body.kind).toBe("tool-timeout");
    server.inject({ type: "status", status: 500 });
    expect((await as(server, ALICE).get("/tools")).body.kind).toBe("internal");
    expect(server.toolRuns("add")).toBe(0);
    expect((await as(server, ALICE).invoke("add", add, "k1")).status).toBe(200);
  });

  it("applies a fault to its route only, `times` times, in the order injected", async () => {
    server.inject({ type: "status", status: 500 }, { route: "cost", times: 2 });
    server.inject({ type: "status", status: 503 }, { route: "tools" });
    server.inject({ type: "status", status: 502 }, { route: "tools" });
    await as(server, ALICE).invoke("add", { ...add, run_id: "r1" });
    const statuses = [];
    for (const path of ["/tools", "/runs/r1/cost", "/tools", "/runs/r1/cost", "/runs/r1/cost", "/tools"]) statuses.push((await as(server, ALICE).get(path)).status);
    expect(statuses).toEqual([503, 500, 502, 500, 200, 200]);
  });

  it("slow: waits before handling", async () => {
    server.inject({ type: "slow", delayMs: 120 });
    const started = Date.now();
    expect((await as(server, ALICE).get("/tools")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it("oversized-body: a 200 JSON body of exactly that many bytes; a client may leave halfway", async () => {
    server.inject({ type: "oversized-body", bytes: 1024 * 1024 + 17 }, { times: 2 });
    const whole = await fetch(`${server.url}/tools`, { headers: { authorization: `Bearer ${ALICE}` } });
    const text = await whole.text();
    expect([whole.status, text.length, JSON.parse(text).status]).toEqual([200, 1024 * 1024 + 17, "ok"]);
    const controller = new AbortController();
    const partial = await fetch(`${server.url}/tools`, { headers: { authorization: `Bearer ${ALICE}` }, signal: controller.signal });
    const reader = partial.body?.getReader();
    await reader?.read();
    controller.abort();
    expect((await as(server, ALICE).get("/tools")).status).toBe(200);
  });

  it("non-problem-error: answers the status with a body that is not a problem", async () => {
    server.inject({ type: "non-problem-error", status: 502, body: "<html>Bad Gateway</html>" });
    server.inject({ type: "non-problem-error", status: 500, body: "oops", contentType: "text/plain" });
    const html = await as(server, ALICE).invoke("add", add);
    expect([html.status, html.headers.get("content-type"), html.body]).toEqual([502, "text/html; charset=utf-8", "<html>Bad Gateway</html>"]);
    const plain = await as(server, ALICE).get("/tools");
    expect([plain.status, plain.headers.get("content-type"), plain.body]).toEqual([500, "text/plain", "oops"]);
    expect(server.toolRuns("add")).toBe(0);
  });

  it("refuse: the connection dies before anything is read, even when the client had one kept alive", async () => {
    expect((await as(server, ALICE).get("/tools")).status).toBe(200);
    server.inject({ type: "refuse" });
    expect(await outcome(as(server, ALICE).invokeRaw("add", add, "k1"))).toBe("rejected");
    expect(server.requests.map((request) => request.method)).toEqual(["GET"]);
    expect(server.toolRuns("add")).toBe(0);
    expect((await as(server, ALICE).invoke("add", add, "k1")).status).toBe(200);
  });

  it("refuses malformed injections", () => {
    expect(() => server.inject({ type: "refuse" }, { route: "invoke" })).toThrow(TypeError);
    expect(() => server.inject({ type: "go-silent", afterEvents: 1 }, { route: "invoke" })).toThrow(TypeError);
    expect(() => server.inject({ type: "slow", delayMs: 1 }, { times: 0 })).toThrow(RangeError);
  });
});

describe("reference tool server: event-stream faults", () => {
  it("drop-mid-frame: after N events, half of the next frame, then the socket dies", async () => {
    server.emit("r1", "progress", { step: 1 });
    server.emit("r1", "progress", { step: 2 });
    server.inject({ type: "drop-mid-frame", afterEvents: 1 });
    const reader = await open("r1");
    expect(await reader.toEnd()).toBe("errored");
    const second = 'id: 2\r\nevent: progress\r\ndata: {"step":2}\r\n\r\n';
    expect(reader.text).toBe('id: 1\r\nevent: progress\r\ndata: {"step":1}\r\n\r\n' + second.slice(0, second.length / 2));
  });

  it("go-silent: after N events nothing more, not even keep-alives, yet the socket stays open", async () => {
    server.inject({ type: "go-silent", afterEvents: 1 });
    const reader = await open("r1");
    server.emit("r1", "progress", { step: 1 });
    await reader.until(eventCount(1));
    server.emit("r1", "progress", { step: 2 });
    const before = reader.text;
    expect(await reader.idle(150)).toBe("");
    expect(before).not.toContain('"step":2');
    expect(reader.done).toBe(false);
    server.endRun("r1");
    expect(await reader.idle(50)).toBe("");
    server.dropEventStreams("r1");
    expect(await reader.toEnd()).toBe("errored");
  });

  it("replay-too-much: ignores Last-Event-ID and replays the whole log", async () => {
    for (let step = 1; step <= 3; step++) server.emit("r1", "progress", { step });
    server.inject({ type: "replay-too-much" });
    const reader = await open("r1", { "last-event-id": "2" });
    await reader.until(eventCount(3));
    expect(reader.events.map((frame) => frame.id)).toEqual(["1", "2", "3"]);
  });

  it("oversized-event: the next event's data is a JSON object of that many bytes", async () => {
    server.inject({ type: "oversized-event", bytes: 256 * 1024 + 3 });
    const reader = await open("r1");
    server.emit("r1", "big", { small: true });
    server.emit("r1", "after", { small: true });
    await reader.until(eventCount(2), 5_000);
    const [big, after] = reader.events;
    expect([big?.data?.length, Object.keys(JSON.parse(big?.data ?? "{}"))]).toEqual([256 * 1024 + 3, ["padding"]]);
    expect(after?.data).toBe('{"small":true}');
  });

  it("non-json-event: the next event's data is not JSON", async () => {
    server.inject({ type: "non-json-event" });
    const reader = await open("r1");
    server.emit("r1", "broken", { ok: true });
    server.emit("r1", "fine", { ok: true });
    await reader.until(eventCount(2));
    expect(() => JSON.parse(reader.events[0]?.data ?? "")).toThrow(SyntaxError);
    expect(JSON.parse(reader.events[1]?.data ?? "")).toEqual({ ok: true });
  });

  it("data-less-end: the end event comes without a data line", async () => {
    server.inject({ type: "data-less-end" });
    const reader = await open("r1");
    server.endRun("r1", { outcome: "done" });
    expect(await reader.toEnd()).toBe("ended");
    expect(reader.text).toMatch(/id: 1\r\nevent: end\r\n\r\n$/);
  });

  it("a stream fault waits for the events route; request faults aimed at events apply before the stream opens", async () => {
    server.inject({ type: "non-json-event" });
    server.inject({ type: "status", status: 503 }, { route: "events" });
    expect((await as(server, ALICE).invoke("echo", { arguments: { text: "x" } })).status).toBe(200);
    expect((await as(server, ALICE).get("/runs/r1/events")).status).toBe(503);
    const reader = await open("r1");
    server.emit("r1", "broken", {});
    await reader.until(eventCount(1));
    expect(reader.events[0]?.data).not.toBe("{}");
  });
});
