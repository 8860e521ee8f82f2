import { startToolServer, ToolModelError, ToolUsage, type ToolServer, type ToolServerOptions, type ToolServerTool } from "../../src/testing/toolServer";
import { ALICE, answer, as, BOB, REVIEWER } from "./toolServer/support";

let server: ToolServer;
const start = async (options: ToolServerOptions = {}) => (server = await startToolServer(options));
afterEach(() => server?.close());

/** The exact problem body: RFC 9457 members, our kind, and these extensions only. */
const problemOf = (kind: string, status: number, extensions: object = {}) => ({ type: `urn:tool-server:problem:${kind}`, title: expect.any(String), status, detail: expect.any(String), kind, ...extensions });

describe("reference tool server: routes and auth", () => {
  it("lists the tools with their descriptors, filtered by any of the tags given", async () => {
    await start();
    const all = await as(server, ALICE).get("/tools");
    expect(all.status).toBe(200);
    expect(all.body.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "add", "echo", "send_email", "wipe_disk", "slow", "explode", "flaky_model", "strict", "guarded", "timeout", "error_result",
    ]);
    expect(all.body.tools[2]).toEqual({
      name: "send_email",
      description: expect.any(String),
      tags: ["email"],
      input_schema: expect.objectContaining({ type: "object", required: ["to"] }),
      requires_approval: true,
    });
    const some = await as(server, ALICE).get("/tools?tags=math&tags=email&tags=");
    expect(some.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["add", "send_email"]);
  });

  it("adds the provider declaration for each shape, and refuses an unknown shape", async () => {
    await start();
    const shaped = async (shape: string) => (await as(server, ALICE).get(`/tools?tags=math&shape=${shape}`)).body.tools[0].provider;
    const schema = (await as(server, ALICE).get("/tools?tags=math")).body.tools[0].input_schema;
    const description = "Adds two numbers.";
    expect(await shaped("openai")).toEqual({ type: "function", function: { name: "add", description, parameters: schema } });
    expect(await shaped("anthropic")).toEqual({ name: "add", description, input_schema: schema });
    expect(await shaped("gemini")).toEqual({ name: "add", description, parameters: schema });
    const bad = await as(server, ALICE).get("/tools?shape=cohere");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(problemOf("bad-request", 400));
  });

  it("answers a CORS preflight and exposes Retry-After and Idempotent-Replayed", async () => {
    await start();
    const preflight = await fetch(`${server.url}/tools/add/invoke`, { method: "OPTIONS", headers: { origin: "http://127.0.0.1:1", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")?.split(", ").sort()).toEqual(["accept", "authorization", "content-type", "idempotency-key", "last-event-id"]);
    const listed = await as(server, ALICE).get("/tools");
    expect(listed.headers.get("access-control-allow-origin")).toBe("*");
    expect(listed.headers.get("access-control-expose-headers")).toBe("retry-after, idempotent-replayed");
  });

  it("answers 401 with WWW-Authenticate for a missing or unknown token, as a problem", async () => {
    await start();
    for (const token of [undefined, "mallory-token"]) {
      const refused = await as(server, token).get("/tools");
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe("Bearer");
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(refused.body).toEqual(problemOf("unauthorized", 401));
    }
    expect((await fetch(`${server.url}/tools`, { headers: { authorization: "Basic YWxpY2U6eA==" } })).status).toBe(401);
  });

  it("answers 404 not-found for a path outside the routes, outside the prefix, or with another method", async () => {
    await start();
    expect((await as(server, ALICE).get("/nowhere")).body).toEqual(problemOf("not-found", 404));
    expect((await fetch(server.url.replace(/\/api$/, "/tools"))).status).toBe(404);
    expect((await as(server, ALICE).post("/tools", {})).status).toBe(404);
    expect((await as(server, ALICE).get("/tools/add/invoke")).status).toBe(404);
  });

  it("serves under another prefix, or none", async () => {
    await start({ prefix: "/v2/tooling/" });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/tooling$/);
    expect((await as(server, ALICE).get("/tools")).status).toBe(200);
    await server.close();
    await start({ prefix: "" });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await as(server, ALICE).get("/tools")).status).toBe(200);
  });

  it("records each request with its headers, the query included in the path", async () => {
    await start();
    await as(server, ALICE).get("/tools?tags=math");
    await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 } }, "key-1");
    expect(server.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(["GET /api/tools?tags=math", "POST /api/tools/add/invoke"]);
    expect(server.requests[1]?.headers["idempotency-key"]).toBe("key-1");
    expect(server.requests[1]?.headers["authorization"]).toBe(`Bearer ${ALICE}`);
  });
});

describe("reference tool server: invoke", () => {
  it("runs the tool and answers ok with its result and a call id", async () => {
    await start();
    const call = await as(server, ALICE).invoke("add", { arguments: { a: 2, b: 3 } });
    expect(call).toMatchObject({ status: 200, body: { status: "ok", result: { sum: 5 }, call_id: expect.stringMatching(/^call_/) } });
    expect(server.toolRuns("add")).toBe(1);
  });

  it("passes run, thread, principal and a signal to the tool", async () => {
    const seen: unknown[] = [];
    const spy: ToolServerTool = { name: "spy", description: "", inputSchema: { type: "object" }, run: (args, context) => (seen.push({ args, ...context, signal: context.signal.aborted }), null) };
    await start({ tools: [spy] });
    const call = await as(server, BOB).invoke("spy", { arguments: { x: 1 }, run_id: "r1", thread_id: "t1" });
    expect(call.body.result).toBeNull();
    expect(seen).toEqual([{ args: { x: 1 }, runId: "r1", threadId: "t1", principal: "bob", signal: false }]);
  });

  it("needs an Idempotency-Key of 1 to 255 visible ASCII characters", async () => {
    await start();
    const body = JSON.stringify({ arguments: { a: 1, b: 1 } });
    const missing = await fetch(`${server.url}/tools/add/invoke`, { method: "POST", headers: { authorization: `Bearer ${ALICE}`, "content-type": "application/json" }, body }).then(answer);
    expect(missing.body).toEqual(problemOf("idempotency-key-missing", 400));
    expect((await as(server, ALICE).invoke("add", body, "x".repeat(256))).body).toEqual(problemOf("bad-request", 400));
    expect((await as(server, ALICE).invoke("add", body, "has space")).body).toEqual(problemOf("bad-request", 400));
    expect((await as(server, ALICE).invoke("add", body, "x".repeat(255))).status).toBe(200);
    expect(server.toolRuns("add")).toBe(1);
  });

  it("refuses a body that is not JSON, not an object, lacks object arguments, or is not sent as application/json", async () => {
    await start();
    const bad = [
      await as(server, ALICE).invoke("add", "{not json"),
      await as(server, ALICE).invoke("add", "[1]"),
      await as(server, ALICE).invoke("add", { arguments: [1, 2] }),
      await as(server, ALICE).invoke("add", { args: { a: 1, b: 2 } }),
      await as(server, ALICE).invoke("add", { arguments: {}, run_id: 7 }),
      await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 2 } }, undefined, { "content-type": "text/plain" }),
    ];
    expect(bad.map((reply) => reply.body)).toEqual(bad.map(() => problemOf("bad-request", 400)));
    expect(server.toolRuns("add")).toBe(0);
  });

  it("answers 413 payload-too-large past 1 MiB", async () => {
    await start();
    const huge = await as(server, ALICE).invoke("echo", { arguments: { text: "x".repeat(1024 * 1024) } });
    expect(huge.body).toEqual(expect.objectContaining({ kind: "payload-too-large", status: 413, max_bytes: 1024 * 1024 }));
    expect(server.toolRuns("echo")).toBe(0);
  });

  it("answers 404 tool-not-found for an unknown tool", async () => {
    await start();
    expect((await as(server, ALICE).invoke("nope", { arguments: {} })).body).toEqual(problemOf("tool-not-found", 404));
  });

  it("answers 422 tool-args-invalid with pointers and messages that never quote the input", async () => {
    await start();
    const invalid = await as(server, ALICE).invoke("add", { arguments: { a: "hunter2", extra: "s3cret-value" } });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual(problemOf("tool-args-invalid", 422, { errors: expect.any(Array) }));
    expect(new Set(invalid.body.errors)).toEqual(
      new Set([
        { path: "/a", message: "must be number" },
        { path: "/b", message: "is required" },
        { path: "/extra", message: "is not allowed" },
      ]),
    );
    expect(JSON.stringify(invalid.body)).not.toMatch(/hunter2|s3cret/);
    expect(server.toolRuns("add")).toBe(0);
  });

  it("maps what the tool does to its problem: usage, guardrail, deny, failure, error result, model error, timeout", async () => {
    await start();
    const call = (tool: string, args: object = {}) => as(server, ALICE).invoke(tool, { arguments: args });
    expect((await call("strict")).body).toEqual(problemOf("tool-usage", 400));
    const blocked = await call("guarded", { text: "please rm -rf /home/secret-dir" });
    expect(blocked.body).toEqual({ ...problemOf("guardrail-blocked", 403), rule: "no-destructive-commands" });
    expect(blocked.body.detail).toContain("no-destructive-commands");
    expect(JSON.stringify(blocked.body)).not.toContain("secret-dir");
    expect((await call("guarded", { text: "ls" })).body.result).toEqual({ text: "ls" });
    expect((await call("wipe_disk")).body).toEqual(problemOf("approval-denied", 403));
    const failed = await call("explode");
    expect(failed.body).toEqual(problemOf("tool-failed", 502));
    expect(failed.body.detail).not.toContain("kaboom");
    expect((await call("error_result")).body).toEqual({ ...problemOf("tool-error", 502), detail: "the upstream service answered with an error" });
    expect((await call("flaky_model")).body).toEqual(problemOf("model-unavailable", 502));
    expect((await call("timeout")).body).toEqual(problemOf("tool-timeout", 504));
    expect(["strict", "guarded", "wipe_disk", "explode", "error_result", "flaky_model", "timeout"].map((name) => server.toolRuns(name))).toEqual([1, 1, 0, 1, 1, 1, 1]);
  });

  it("aborts a timed-out tool's signal, and answers 500 internal when a result is not JSON", async () => {
    let aborted: unknown;
    const tools: ToolServerTool[] = [
      { name: "hang", description: "", inputSchema: {}, timeoutMs: 20, run: (_args, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve((aborted = signal.reason)))) },
      { name: "bigint", description: "", inputSchema: {}, run: () => ({ n: 1n }) },
      { name: "custom_model", description: "", inputSchema: {}, run: () => Promise.reject(new ToolModelError("model-rate-limited", "slow down")) },
      { name: "usage", description: "", inputSchema: {}, run: () => Promise.reject(new ToolUsage("give me a city")) },
    ];
    await start({ tools });
    expect((await as(server, ALICE).invoke("hang", { arguments: {} })).status).toBe(504);
    expect(aborted).toEqual(expect.objectContaining({ kind: "tool-timeout" }));
    expect((await as(server, ALICE).invoke("bigint", { arguments: {} })).body).toEqual(problemOf("internal", 500));
    expect((await as(server, ALICE).invoke("custom_model", { arguments: {} })).body).toEqual({ ...problemOf("model-rate-limited", 502), detail: "slow down" });
    expect((await as(server, ALICE).invoke("usage", { arguments: {} })).body).toEqual({ ...problemOf("tool-usage", 400), detail: "give me a city" });
    expect(() => new ToolModelError("rate-limited" as `model-${string}`, "x")).toThrow(TypeError);
  });
});

describe("reference tool server: idempotency", () => {
  it("replays the stored answer to the same key and body, without running the tool again", async () => {
    await start();
    const body = { arguments: { a: 1, b: 2 }, run_id: "r1" };
    const first = await as(server, ALICE).invoke("add", body, "k1");
    const again = await as(server, ALICE).invoke("add", body, "k1");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect([again.status, again.body]).toEqual([first.status, first.body]);
    expect(server.toolRuns("add")).toBe(1);
  });

  it("replays problems about the request and 202s too", async () => {
    await start();
    const invalid = [await as(server, ALICE).invoke("add", { arguments: {} }, "k1"), await as(server, ALICE).invoke("add", { arguments: {} }, "k1")];
    expect(invalid.map((reply) => [reply.status, reply.headers.get("idempotent-replayed")])).toEqual([[422, null], [422, "true"]]);
    const pending = [await as(server, ALICE).invoke("send_email", { arguments: { to: "a" } }, "k2"), await as(server, ALICE).invoke("send_email", { arguments: { to: "a" } }, "k2")];
    expect(pending[1]?.body).toEqual(pending[0]?.body);
    expect(pending[1]?.status).toBe(202);
    const failed = [await as(server, ALICE).invoke("explode", { arguments: {} }, "k3"), await as(server, ALICE).invoke("explode", { arguments: {} }, "k3")];
    expect(failed.map((reply) => reply.status)).toEqual([502, 502]);
    expect(server.toolRuns("explode")).toBe(1);
  });

  it("answers 422 idempotency-key-reused to the same key with another body or tool", async () => {
    await start();
    await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 2 } }, "k1");
    expect((await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 3 } }, "k1")).body).toEqual(problemOf("idempotency-key-reused", 422));
    expect((await as(server, ALICE).invoke("echo", { arguments: { a: 1, b: 2 } }, "k1")).body).toEqual(problemOf("idempotency-key-reused", 422));
    expect(server.toolRuns("add")).toBe(1);
  });

  it("answers 409 idempotency-key-in-flight while the first request runs, then replays it", async () => {
    await start();
    const body = { arguments: { ms: 150 } };
    const first = as(server, ALICE).invoke("slow", body, "k1");
    await waitFor(() => server.toolRuns("slow") === 1);
    const during = await as(server, ALICE).invoke("slow", body, "k1");
    expect(during.body).toEqual(problemOf("idempotency-key-in-flight", 409));
    expect((await first).body.result).toEqual({ slept: 150 });
    expect((await as(server, ALICE).invoke("slow", body, "k1")).headers.get("idempotent-replayed")).toBe("true");
    expect(server.toolRuns("slow")).toBe(1);
  });

  it("keeps keys per principal", async () => {
    await start();
    const body = { arguments: { a: 1, b: 2 } };
    await as(server, ALICE).invoke("add", body, "shared");
    const bobs = await as(server, BOB).invoke("add", body, "shared");
    expect(bobs.headers.get("idempotent-replayed")).toBeNull();
    expect(server.toolRuns("add")).toBe(2);
  });

  it("does not store answers where nothing happened: 429, 503, 403", async () => {
    await start({ budgetUsd: 0.001 });
    await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" });
    const body = { arguments: { a: 1, b: 2 }, run_id: "r1" };
    expect((await as(server, ALICE).invoke("add", body, "k1")).status).toBe(429);
    expect((await as(server, ALICE).invoke("add", body, "k1")).headers.get("idempotent-replayed")).toBeNull();
    server.inject({ type: "status", status: 503 });
    expect((await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 2 } }, "k2")).status).toBe(503);
    expect((await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 2 } }, "k2")).status).toBe(200);
    expect((await as(server, BOB).invoke("add", body, "k3")).status).toBe(403);
    expect((await as(server, BOB).invoke("add", { arguments: { a: 1, b: 2 } }, "k3")).status).toBe(200);
  });

  it("forgets the least recently used keys past its capacity", async () => {
    await start({ idempotencyCapacity: 2 });
    const call = (key: string) => as(server, ALICE).invoke("add", { arguments: { a: 1, b: 2 } }, key);
    await call("k1");
    await call("k2");
    await call("k1");
    await call("k3");
    expect((await call("k1")).headers.get("idempotent-replayed")).toBe("true");
    expect((await call("k2")).headers.get("idempotent-replayed")).toBeNull();
    expect(server.toolRuns("add")).toBe(4);
  });
});

describe("reference tool server: run ownership and approvals", () => {
  it("gives a run to the first principal that uses it and refuses everyone else with 403 run-forbidden", async () => {
    await start();
    await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" });
    expect((await as(server, BOB).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" })).body).toEqual(problemOf("run-forbidden", 403));
    expect((await as(server, BOB).get("/runs/r1/cost")).body).toEqual(problemOf("run-forbidden", 403));
    expect((await as(server, BOB).get("/runs/r1/events")).body).toEqual(problemOf("run-forbidden", 403));
    expect((await as(server, REVIEWER).get("/runs/r1/cost")).status).toBe(403);
    expect(server.toolRuns("add")).toBe(1);
  });

  it("asks for approval, shows it to the requester and reviewers only, and runs the tool once a reviewer approves", async () => {
    await start();
    const pending = await as(server, ALICE).invoke("send_email", { arguments: { to: "ops@example.com" }, run_id: "r1", thread_id: "t1" });
    expect(pending).toMatchObject({ status: 202, body: { status: "pending_approval", approval_id: expect.stringMatching(/^apr_[0-9a-f-]{36}$/) } });
    const id = pending.body.approval_id as string;
    expect(server.toolRuns("send_email")).toBe(0);
    const shown = await as(server, ALICE).get(`/approvals/${id}`);
    expect(shown.body).toEqual({
      approval_id: id, status: "pending", tool: "send_email", arguments: { to: "ops@example.com" }, run_id: "r1", thread_id: "t1", requested_by: "alice", requested_at: expect.any(String),
    });
    expect(new Date(shown.body.requested_at).toISOString()).toBe(shown.body.requested_at);
    expect((await as(server, BOB).get(`/approvals/${id}`)).body).toEqual(problemOf("forbidden", 403));
    expect((await as(server, BOB).decide(id, { approved: true })).body).toEqual(problemOf("forbidden", 403));
    expect((await as(server, REVIEWER).get(`/approvals/${id}`)).status).toBe(200);

    const decided = await as(server, REVIEWER).decide(id, { approved: true, edited_arguments: { to: "ops@example.com", cc: "audit@example.com" }, reason: "checked" });
    expect(decided).toMatchObject({ status: 200, body: { status: "ok", result: { sent: true, to: "ops@example.com", cc: "audit@example.com" }, call_id: expect.stringMatching(/^call_/), approval_id: id } });
    expect((await as(server, ALICE).get(`/approvals/${id}`)).body).toMatchObject({ status: "approved", decided_by: "reviewer", reason: "checked", decided_at: expect.any(String) });
    expect((await as(server, ALICE).decide(id, { approved: false })).body).toEqual({ ...problemOf("approval-already-decided", 409), approval_status: "approved" });
    expect(server.toolRuns("send_email")).toBe(1);
  });

  it("lets the requester deny, with or without a reason", async () => {
    await start();
    const first = (await as(server, ALICE).invoke("send_email", { arguments: { to: "a" } })).body.approval_id;
    expect((await as(server, ALICE).decide(first, { approved: false, reason: "not now" })).body).toEqual({ status: "denied", reason: "not now", approval_id: first });
    const second = (await as(server, ALICE).invoke("send_email", { arguments: { to: "a" } })).body.approval_id;
    expect((await as(server, ALICE).decide(second, { approved: false })).body).toEqual({ status: "denied", reason: null, approval_id: second });
    expect((await as(server, ALICE).get(`/approvals/${second}`)).body).toMatchObject({ status: "denied", decided_by: "alice", reason: null, run_id: null, thread_id: null });
    expect(server.toolRuns("send_email")).toBe(0);
  });

  it("keeps the approval pending when the edited arguments are invalid or the decision malformed", async () => {
    await start();
    const id = (await as(server, ALICE).invoke("send_email", { arguments: { to: "a" } })).body.approval_id;
    const invalid = await as(server, ALICE).decide(id, { approved: true, edited_arguments: { to: 42 } });
    expect(invalid.body).toEqual({ ...problemOf("tool-args-invalid", 422), errors: [{ path: "/to", message: "must be string" }] });
    expect((await as(server, ALICE).decide(id, { approved: "yes" })).body).toEqual(problemOf("bad-request", 400));
    expect((await as(server, ALICE).decide(id, { approved: true, edited_arguments: "x" })).body).toEqual(problemOf("bad-request", 400));
    expect((await as(server, ALICE).get(`/approvals/${id}`)).body.status).toBe("pending");
    expect((await as(server, ALICE).decide(id, { approved: true })).body.result).toEqual({ sent: true, to: "a", cc: null });
  });

  it("answers 404 approval-not-found for an unknown approval", async () => {
    await start();
    expect((await as(server, ALICE).get("/approvals/apr_nope")).body).toEqual(problemOf("approval-not-found", 404));
    expect((await as(server, ALICE).decide("apr_nope", { approved: true })).body).toEqual(problemOf("approval-not-found", 404));
  });

  it("honours an Idempotency-Key on decide: a retry gets the stored answer, not 409", async () => {
    await start();
    const id = (await as(server, ALICE).invoke("send_email", { arguments: { to: "a" } })).body.approval_id;
    const first = await as(server, ALICE).decide(id, { approved: true }, { "idempotency-key": "d1" });
    const retry = await as(server, ALICE).decide(id, { approved: true }, { "idempotency-key": "d1" });
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect((await as(server, ALICE).decide(id, { approved: true })).status).toBe(409);
    expect(server.toolRuns("send_email")).toBe(1);
  });
});

describe("reference tool server: cost ledger, budget and limits", () => {
  it("sums every tool call and recorded model call of the run", async () => {
    await start();
    for (let i = 0; i < 2; i++) await as(server, ALICE).invoke("add", { arguments: { a: i, b: 1 }, run_id: "r1" });
    await as(server, ALICE).invoke("echo", { arguments: { text: "hi" }, run_id: "r1" });
    server.recordCost("r1", { stage: "model", kind: "gpt-test", usd: 0.01, cached: true });
    server.recordCost("r1", { stage: "model", kind: "gpt-test", usd: 0.02 });
    const cost = await as(server, ALICE).get("/runs/r1/cost");
    expect(cost.body).toEqual({
      run_id: "r1",
      total_usd: 0.032,
      calls: 5,
      by_stage: { tool: 0.002, model: 0.03 },
      by_kind: { add: 0.002, echo: 0, "gpt-test": 0.03 },
      cache_hit_rate: { tool: 0, model: 0.5 },
      parallelism: { max_concurrent: 1, mean_concurrent: 1 },
    });
  });

  it("measures how many tool calls ran at once", async () => {
    await start();
    await Promise.all([80, 80, 80].map((ms) => as(server, ALICE).invoke("slow", { arguments: { ms }, run_id: "r1" })));
    await as(server, ALICE).invoke("slow", { arguments: { ms: 80 }, run_id: "r1" });
    const { parallelism } = (await as(server, ALICE).get("/runs/r1/cost")).body;
    expect(parallelism.max_concurrent).toBe(3);
    expect(parallelism.mean_concurrent).toBeGreaterThan(1.5);
    expect(parallelism.mean_concurrent).toBeLessThan(3);
  });

  it("answers 404 run-not-found for a run nobody has used, and gives a handle-made run to its first reader", async () => {
    await start();
    expect((await as(server, ALICE).get("/runs/ghost/cost")).body).toEqual(problemOf("run-not-found", 404));
    server.recordCost("r2", { stage: "model", kind: "m", usd: 1 });
    expect((await as(server, BOB).get("/runs/r2/cost")).body.total_usd).toBe(1);
    expect((await as(server, ALICE).get("/runs/r2/cost")).status).toBe(403);
  });

  it("answers 429 budget-exceeded without Retry-After once the run's total reaches its budget: a run's budget does not recover", async () => {
    await start({ budgetUsd: 0.002 });
    for (let i = 0; i < 2; i++) expect((await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" })).status).toBe(200);
    const refused = await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" });
    expect(refused.body).toEqual(expect.objectContaining({ kind: "budget-exceeded", status: 429, budget_usd: 0.002 }));
    expect(refused.headers.get("retry-after")).toBeNull();
    expect((await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r2" })).status).toBe(200);
    expect((await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 } })).status).toBe(200);
    expect(server.toolRuns("add")).toBe(4);
  });

  it("with budgetWindowSeconds, gives the budget per window and says in Retry-After when the window ends", async () => {
    await start({ budgetUsd: 0.001, budgetWindowSeconds: 1 });
    const call = () => as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" });
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.body).toEqual(expect.objectContaining({ kind: "budget-exceeded", status: 429, budget_usd: 0.001, window_seconds: 1 }));
    expect(refused.headers.get("retry-after")).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await call()).status).toBe(200);
    expect((await as(server, ALICE).get("/runs/r1/cost")).body.total_usd).toBe(0.002);
  });

  it("checks the budget again when an approval is decided, leaving it pending", async () => {
    await start({ budgetUsd: 0.001, budgetWindowSeconds: 60 });
    const id = (await as(server, ALICE).invoke("send_email", { arguments: { to: "a" }, run_id: "r1" })).body.approval_id;
    await as(server, ALICE).invoke("add", { arguments: { a: 1, b: 1 }, run_id: "r1" });
    const refused = await as(server, ALICE).decide(id, { approved: true });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(58);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await as(server, ALICE).get(`/approvals/${id}`)).body.status).toBe("pending");
  });

  it("answers 409 run-limit-exceeded past maxCallsPerRun", async () => {
    await start({ maxCallsPerRun: 2 });
    for (let i = 0; i < 2; i++) await as(server, ALICE).invoke("echo", { arguments: { text: "x" }, run_id: "r1" });
    expect((await as(server, ALICE).invoke("echo", { arguments: { text: "x" }, run_id: "r1" })).body).toEqual({ ...problemOf("run-limit-exceeded", 409), max_calls: 2 });
    expect(server.toolRuns("echo")).toBe(2);
  });
});

/** Polls a condition the test cannot await directly, for at most two seconds. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 2_000) throw new Error("condition not met within 2 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
