import { inspect } from "node:util";
import { waitUntil } from "../support/runs";
import { createServer } from "node:net";
import { startToolServer, type ToolServer } from "carbon-agui-rx/testing";
import {
  ApprovalAlreadyDecidedError,
  ApprovalDeniedError,
  ApprovalNotFoundError,
  BudgetExceededError,
  ConflictError,
  ForbiddenError,
  GuardrailBlockedError,
  InternalServerError,
  ModelError,
  NotFoundError,
  RunLimitExceededError,
  ServiceUnavailableError,
  ToolArgsInvalidError,
  ToolClient,
  ToolError,
  ToolFailedError,
  ToolNotFoundError,
  ToolProtocolError,
  ToolServerError,
  ToolTimeoutError,
  ToolTransportError,
  ToolUsageError,
  UnauthorizedError,
  UnprocessableContentError,
  type ToolClientOptions,
} from "carbon-agui-rx/tool-client";

const ALICE = "alice-token";
const fastRetry = { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 1_000 };

let server: ToolServer;
beforeEach(async () => {
  server = await startToolServer();
});
afterEach(() => server.close());

const client = (options: Partial<ToolClientOptions> = {}) => new ToolClient({ baseUrl: server.url, token: ALICE, retry: fastRetry, ...options });
const requestsTo = (fragment: string) => server.requests.filter((request) => request.method !== "OPTIONS" && request.path.includes(fragment));
let runs = 0;
const newRun = () => `run-${++runs}`;

/** A 127.0.0.1 port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("ToolClient over HTTP, against the reference tool server", () => {
  describe("listTools", () => {
    it("lists the tools, filters by any of the tags, and adds provider-ready declarations", async () => {
      const names = (await client().listTools()).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["add", "echo", "send_email"]));
      const math = await client().listTools({ tags: ["math", "email"], shape: "openai" });
      expect(math.map((tool) => tool.name).sort()).toEqual(["add", "send_email"]);
      const add = math.find((tool) => tool.name === "add")!;
      expect(add).toMatchObject({ requires_approval: false, tags: ["math"], input_schema: { type: "object" } });
      expect(add.provider).toEqual({ type: "function", function: { name: "add", description: add.description, parameters: add.input_schema } });
      expect(requestsTo("/tools?")[0]?.path).toBe("/api/tools?tags=math&tags=email&shape=openai");
    });
  });

  describe("invoke", () => {
    it("runs the tool with the run and thread, sending a random Idempotency-Key and the bearer token", async () => {
      const runId = newRun();
      const call = await client().invoke<{ sum: number }>("add", { a: 2, b: 3 }, { runId, threadId: "t1" });
      expect(call.status).toBe("ok");
      if (call.status === "ok") expect(call.result.sum).toBe(5);
      const [request] = requestsTo("/invoke");
      expect(request?.headers["idempotency-key"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(request?.headers.authorization).toBe(`Bearer ${ALICE}`);
      expect((await client().cost(runId)).calls).toBe(1);
    });

    it("gives back the stored answer for a repeated key without running the tool again", async () => {
      const options = { runId: newRun(), idempotencyKey: "key-1" };
      const first = await client().invoke("add", { a: 1, b: 1 }, options);
      const second = await client().invoke("add", { a: 1, b: 1 }, options);
      expect(second).toEqual(first);
      expect(server.toolRuns("add")).toBe(1);
      await expect(client().invoke("add", { a: 1, b: 2 }, options)).rejects.toBeInstanceOf(UnprocessableContentError);
    });

    it("answers 409 while the same key is still in flight", async () => {
      const options = { runId: newRun(), idempotencyKey: "key-slow" };
      const runsBefore = server.toolRuns("slow");
      const first = client().invoke("slow", { ms: 300 }, options);
      await waitUntil(() => server.toolRuns("slow") > runsBefore);
      const error = await client().invoke("slow", { ms: 300 }, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).kind).toBe("idempotency-key-in-flight");
      await expect(first).resolves.toMatchObject({ status: "ok" });
    });
  });

  describe("approvals", () => {
    it("invoke → 202 → getApproval → decide with edited arguments → the result; deciding twice → 409", async () => {
      const runId = newRun();
      const call = await client().invoke("send_email", { to: "ops@example.com" }, { runId });
      expect(call.status).toBe("pending_approval");
      if (call.status !== "pending_approval") return;
      expect(server.toolRuns("send_email")).toBe(0);
      const request = await client().getApproval(call.approval_id);
      expect(request).toMatchObject({ approval_id: call.approval_id, status: "pending", tool: "send_email", arguments: { to: "ops@example.com" }, run_id: runId });
      const decided = await client().decide<{ cc?: string }>(call.approval_id, { approved: true, editedArguments: { ...request.arguments, cc: "audit@example.com" }, reason: "checked by ops" });
      expect(decided).toMatchObject({ status: "ok", result: { sent: true, to: "ops@example.com", cc: "audit@example.com" } });
      expect(await client().getApproval(call.approval_id)).toMatchObject({ status: "approved", reason: "checked by ops" });
      await expect(client().decide(call.approval_id, { approved: true })).rejects.toBeInstanceOf(ApprovalAlreadyDecidedError);
      expect(server.toolRuns("send_email")).toBe(1);
    });

    it("a denial resolves with the reason and never runs the tool", async () => {
      const call = await client().invoke("send_email", { to: "ceo@example.com" }, { runId: newRun() });
      if (call.status !== "pending_approval") throw new Error("expected an approval");
      await expect(client().decide(call.approval_id, { approved: false, reason: "not today" })).resolves.toMatchObject({ status: "denied", reason: "not today" });
      expect(server.toolRuns("send_email")).toBe(0);
    });

    it("lets only the run's owner, or a principal with approvals:decide, see and decide", async () => {
      const call = await client().invoke("send_email", { to: "ops@example.com" }, { runId: newRun() });
      if (call.status !== "pending_approval") throw new Error("expected an approval");
      const bob = client({ token: "bob-token" });
      await expect(bob.getApproval(call.approval_id)).rejects.toBeInstanceOf(ForbiddenError);
      await expect(bob.decide(call.approval_id, { approved: true })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(client({ token: "reviewer-token" }).decide(call.approval_id, { approved: true })).resolves.toMatchObject({ status: "ok" });
    });

    it("refuses another principal's run", async () => {
      const runId = newRun();
      await client().invoke("add", { a: 1, b: 2 }, { runId });
      const error = await client({ token: "bob-token" }).invoke("add", { a: 1, b: 2 }, { runId }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).kind).toBe("run-forbidden");
      await expect(client({ token: "bob-token" }).cost(runId)).rejects.toBeInstanceOf(ForbiddenError);
    });
  });

  describe("cost", () => {
    it("sums the run's ledger", async () => {
      const runId = newRun();
      await client().invoke("add", { a: 1, b: 2 }, { runId });
      await client().invoke("add", { a: 2, b: 2 }, { runId });
      server.recordCost(runId, { stage: "model", kind: "gpt", usd: 0.5, cached: true });
      const summary = await client().cost(runId);
      expect(summary).toMatchObject({ run_id: runId, calls: 3, by_stage: { tool: 0.002, model: 0.5 } });
      expect(summary.total_usd).toBeCloseTo(0.502);
      expect(summary.cache_hit_rate.model).toBe(1);
      expect(summary.parallelism.max_concurrent).toBeGreaterThanOrEqual(1);
    });
  });

  describe("every error class, from a real answer", () => {
    const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

    it.each<[string, (c: ToolClient) => Promise<unknown>, new (...args: never[]) => ToolServerError, number, string | undefined]>([
      ["an unknown tool", (c) => c.invoke("nope", {}), ToolNotFoundError, 404, "tool-not-found"],
      ["an unknown approval", (c) => c.getApproval("apr_missing"), ApprovalNotFoundError, 404, "approval-not-found"],
      ["an unknown run's cost", (c) => c.cost("never-seen"), NotFoundError, 404, "run-not-found"],
      ["a tool that refuses its usage", (c) => c.invoke("strict", {}), ToolUsageError, 400, "tool-usage"],
      ["a tool whose policy denies", (c) => c.invoke("wipe_disk", {}), ApprovalDeniedError, 403, "approval-denied"],
      ["a guardrail", (c) => c.invoke("guarded", { text: "rm -rf /" }), GuardrailBlockedError, 403, "guardrail-blocked"],
      ["a tool that raises", (c) => c.invoke("explode", {}), ToolFailedError, 502, "tool-failed"],
      ["a model that fails", (c) => c.invoke("flaky_model", {}), ModelError, 502, "model-unavailable"],
      ["a tool's error result", (c) => c.invoke("error_result", {}), ToolError, 502, "tool-error"],
      ["a tool that times out", (c) => c.invoke("timeout", {}), ToolTimeoutError, 504, "tool-timeout"],
    ])("%s", async (_what, call, ErrorClass, status, kind) => {
      const error = await rejection(call(client()));
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toMatchObject({ status, kind, problem: { status, kind } });
    });

    it("ToolArgsInvalidError lists what was wrong, never the values", async () => {
      const error = (await rejection(client().invoke("add", { a: "secret-value", b: 2, extra: "also-secret" }))) as ToolArgsInvalidError;
      expect(error).toBeInstanceOf(ToolArgsInvalidError);
      expect(error.errors.length).toBeGreaterThan(0);
      expect(error.errors[0]).toEqual({ path: expect.any(String), message: expect.any(String) });
      expect(JSON.stringify(error)).not.toMatch(/secret/);
    });

    it("UnauthorizedError for a token the server does not know; the error does not carry it", async () => {
      const error = await rejection(client({ token: "stolen-token" }).listTools());
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(`${JSON.stringify(error)} ${inspect(error)}`).not.toContain("stolen-token");
    });

    it("RunLimitExceededError and BudgetExceededError (with retryAfterMs, beyond maxDelayMs: not waited for)", async () => {
      await server.close();
      server = await startToolServer({ maxCallsPerRun: 2, budgetUsd: 0.001, budgetWindowSeconds: 120 });
      const limited = newRun();
      await client().invoke("echo", { text: "1" }, { runId: limited });
      await client().invoke("echo", { text: "2" }, { runId: limited });
      await expect(client().invoke("echo", { text: "3" }, { runId: limited })).rejects.toBeInstanceOf(RunLimitExceededError);
      const spent = newRun();
      await client().invoke("add", { a: 1, b: 1 }, { runId: spent });
      const error = (await rejection(client().invoke("add", { a: 1, b: 1 }, { runId: spent }))) as BudgetExceededError;
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error.retryAfterMs).toBeGreaterThan(118_000);
      expect(error.retryAfterMs).toBeLessThanOrEqual(120_000);
      // Over maxDelayMs, so the client did not wait: one request.
      expect(requestsTo("/invoke").length).toBe(5);
    });

    it("waits for a budget that recovers within maxDelayMs (Retry-After) and retries with the same Idempotency-Key", async () => {
      await server.close();
      server = await startToolServer({ budgetUsd: 0.001, budgetWindowSeconds: 1 });
      const runId = newRun();
      await client().invoke("add", { a: 1, b: 1 }, { runId });
      await expect(client().invoke("add", { a: 2, b: 2 }, { runId, idempotencyKey: "after-the-window" })).resolves.toMatchObject({ status: "ok", result: { sum: 4 } });
      const retried = requestsTo("/invoke").slice(1);
      expect(retried.map((request) => request.headers["idempotency-key"])).toEqual(["after-the-window", "after-the-window"]);
      expect(server.toolRuns("add")).toBe(2);
    });

    it("a run's budget that does not recover: BudgetExceededError at once, without retryAfterMs", async () => {
      await server.close();
      server = await startToolServer({ budgetUsd: 0.001 });
      const runId = newRun();
      await client().invoke("add", { a: 1, b: 1 }, { runId });
      await expect(client().invoke("add", { a: 1, b: 1 }, { runId })).rejects.toMatchObject({ name: "BudgetExceededError", retryAfterMs: undefined });
      expect(requestsTo("/invoke").length).toBe(2);
    });

    it("InternalServerError, ServiceUnavailableError and a non-problem body as about:blank", async () => {
      server.inject({ type: "status", status: 500 }, { route: "tools" });
      await expect(client().listTools()).rejects.toBeInstanceOf(InternalServerError);
      server.inject({ type: "status", status: 503 }, { route: "invoke" });
      await expect(client().invoke("add", { a: 1, b: 1 })).rejects.toBeInstanceOf(ServiceUnavailableError);
      server.inject({ type: "non-problem-error", status: 502, body: "<html>Bad gateway</html>", contentType: "text/html" }, { route: "invoke" });
      const error = (await rejection(client().invoke("add", { a: 1, b: 1 }))) as ToolError;
      expect(error).toBeInstanceOf(ToolError);
      expect(error.problem).toMatchObject({ type: "about:blank", status: 502 });
    });

    it("ToolProtocolError for a body over maxResponseSize, without reading it all", async () => {
      server.inject({ type: "oversized-body", bytes: 50 * 1024 * 1024 }, { route: "tools" });
      await expect(client({ maxResponseSize: 64 * 1024 }).listTools()).rejects.toThrow(ToolProtocolError);
    });

    it("ToolTransportError: timeout, and a reset connection", async () => {
      server.inject({ type: "slow", delayMs: 500 }, { route: "invoke" });
      await expect(client({ timeoutMs: 100 }).invoke("add", { a: 1, b: 1 })).rejects.toMatchObject({ name: "ToolTransportError", reason: "timeout" });
      server.inject({ type: "reset-before-tool" }, { route: "invoke" });
      const reset = await rejection(client().invoke("add", { a: 1, b: 1 }));
      expect(reset).toBeInstanceOf(ToolTransportError);
      expect(reset).toMatchObject({ reason: "network", reachedServer: true });
    });
  });

  describe("retries", () => {
    it("retries a GET after a 502 and a 504", async () => {
      server.inject({ type: "status", status: 502 }, { route: "tools" });
      server.inject({ type: "status", status: 504 }, { route: "tools" });
      await expect(client().listTools()).resolves.toEqual(expect.any(Array));
      expect(requestsTo("/tools").length).toBe(3);
    });

    it("never retries an invoke after a 502, a 504, a timeout or a reset: the tool may have run", async () => {
      for (const fault of [{ type: "status", status: 502 }, { type: "status", status: 504 }, { type: "reset-after-tool" }] as const) {
        server.inject(fault, { route: "invoke" });
        await expect(client().invoke("add", { a: 1, b: 1 })).rejects.toBeInstanceOf(fault.type === "status" ? ToolServerError : ToolTransportError);
      }
      server.inject({ type: "slow", delayMs: 300 }, { route: "invoke" });
      await expect(client({ timeoutMs: 100 }).invoke("add", { a: 1, b: 1 })).rejects.toBeInstanceOf(ToolTransportError);
      expect(requestsTo("/invoke").length).toBe(4);
    });

    it("a reset after the tool ran: the caller's retry with the same key gets the stored result, the tool ran once", async () => {
      const options = { runId: newRun(), idempotencyKey: "after-reset" };
      server.inject({ type: "reset-after-tool" }, { route: "invoke" });
      await expect(client().invoke("add", { a: 20, b: 22 }, options)).rejects.toBeInstanceOf(ToolTransportError);
      await expect(client().invoke("add", { a: 20, b: 22 }, options)).resolves.toMatchObject({ status: "ok", result: { sum: 42 } });
      expect(server.toolRuns("add")).toBe(1);
    });

    it("retries an invoke after a 429 or 503 that says when, with the same Idempotency-Key on every attempt", async () => {
      server.inject({ type: "status", status: 503, retryAfter: "0" }, { route: "invoke" });
      server.inject({ type: "status", status: 503, retryAfter: new Date(Date.now() - 1_000).toUTCString() }, { route: "invoke" });
      await expect(client().invoke("add", { a: 1, b: 1 })).resolves.toMatchObject({ status: "ok" });
      const keys = requestsTo("/invoke").map((request) => request.headers["idempotency-key"]);
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);
    });

    it("retries an invoke whose connection was never made", async () => {
      const port = await closedPort();
      let attempts = 0;
      const refusingOnce: typeof fetch = (input, init) => (attempts++ === 0 ? fetch(String(input).replace(new URL(server.url).host, `127.0.0.1:${port}`), init) : fetch(input, init));
      await expect(client({ fetch: refusingOnce }).invoke("add", { a: 1, b: 1 })).resolves.toMatchObject({ status: "ok" });
      expect(attempts).toBe(2);
      expect(requestsTo("/invoke").length).toBe(1);
    });

    it("gives up after maxRetries, and not at all with retry: false", async () => {
      server.inject({ type: "status", status: 503 }, { route: "tools", times: 5 });
      await expect(client().listTools()).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(requestsTo("/tools").length).toBe(3);
      await expect(client({ retry: false }).listTools()).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(requestsTo("/tools").length).toBe(4);
    });

    it("calls a token function before every attempt", async () => {
      const tokens = ["alice-token", "alice-token"];
      let calls = 0;
      server.inject({ type: "status", status: 502 }, { route: "tools" });
      await client({ token: async () => tokens[calls++]! }).listTools();
      expect(calls).toBe(2);
    });
  });

  describe("options", () => {
    it("bounds an attempt by timeoutMs even when the token function or fetch never settles", async () => {
      const hangingToken = new ToolClient({ baseUrl: server.url, token: () => new Promise<string>(() => undefined), timeoutMs: 100, retry: false });
      await expect(hangingToken.listTools()).rejects.toMatchObject({ name: "ToolTransportError", reason: "timeout" });
      const deafFetch: typeof fetch = () => new Promise<Response>(() => undefined);
      await expect(client({ fetch: deafFetch, timeoutMs: 100, retry: false }).invoke("add", { a: 1, b: 1 })).rejects.toMatchObject({ reason: "timeout" });
    });

    it("takes timeoutMs: Infinity as no timeout, and refuses a timeout that is not a positive number", async () => {
      server.inject({ type: "slow", delayMs: 50 }, { route: "tools" });
      await expect(client({ timeoutMs: Infinity }).listTools()).resolves.toEqual(expect.any(Array));
      for (const timeoutMs of [0, -1, Number.NaN]) expect(() => client({ timeoutMs })).toThrow(TypeError);
    });

    it("keeps the default for a retry field left undefined, and refuses a negative one", async () => {
      server.inject({ type: "status", status: 503 }, { route: "tools", times: 10 });
      await expect(client({ retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: undefined } }).listTools()).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(requestsTo("/tools")).toHaveLength(2);
      expect(() => client({ retry: { maxRetries: -1 } })).toThrow(TypeError);
      expect(() => client({ retry: { baseDelayMs: Number.NaN } })).toThrow(TypeError);
    });
  });

  describe("aborting", () => {
    it("rejects with the signal's reason and closes the connection", async () => {
      const controller = new AbortController();
      const reason = new Error("user left");
      const call = client().invoke("slow", { ms: 2_000 }, { signal: controller.signal });
      setTimeout(() => controller.abort(reason), 50);
      await expect(call).rejects.toBe(reason);
      await expect(client().invoke("add", { a: 1, b: 1 }, { signal: AbortSignal.abort("gone") })).rejects.toBe("gone");
    });
  });

  describe("security", () => {
    it("keeps the token out of console.log, JSON and errors", async () => {
      const secret = "alice-token";
      const c = client({ token: secret });
      expect(inspect(c, { showHidden: true, depth: 5 })).not.toContain(secret);
      expect(JSON.stringify(c)).not.toContain(secret);
      expect(String(c)).not.toContain(secret);
      const error = await c.invoke("nope", {}).catch((e: unknown) => e);
      expect(`${JSON.stringify(error)} ${inspect(error, { depth: 10 })}`).not.toContain(secret);
    });

    it.each([
      ["credentials", "http://user:hunter2@127.0.0.1:1/api"],
      ["a query", "http://127.0.0.1:1/api?key=abc"],
      ["an empty query", "http://127.0.0.1:1/api?"],
      ["a fragment", "http://127.0.0.1:1/api#secret"],
    ])("refuses a baseUrl with %s, without quoting it", (_what, baseUrl) => {
      expect(() => new ToolClient({ baseUrl })).toThrow(TypeError);
      try {
        new ToolClient({ baseUrl });
      } catch (error) {
        expect((error as Error).message).not.toMatch(/hunter2|abc|secret/);
      }
    });

    it("refuses a token with a control character without quoting it, also from a token function", async () => {
      expect(() => new ToolClient({ baseUrl: server.url, token: "abc\r\nX-Evil: 1" })).toThrow(/control/);
      const error = await new ToolClient({ baseUrl: server.url, token: () => "abc\ndef" }).listTools().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).not.toContain("abc");
      expect(requestsTo("/tools")).toHaveLength(0);
    });

    it("warns once when a plain http:// URL leaves loopback", () => {
      const warnings: string[] = [];
      new ToolClient({ baseUrl: "http://tools.example/api", onWarning: (message) => warnings.push(message) });
      new ToolClient({ baseUrl: "http://localhost:9/api", onWarning: (message) => warnings.push(message) });
      new ToolClient({ baseUrl: "https://tools.example/api", onWarning: (message) => warnings.push(message) });
      expect(warnings).toEqual([expect.stringContaining("tools.example")]);
    });
  });
});
