import {
  BudgetExceededError,
  ServiceUnavailableError,
  ToolClient,
  ToolProtocolError,
  type ToolClientOptions,
  type VercelToolSpec,
} from "carbon-agui-rx/tool-client";
import { closedAfterEach, closedPort, json, sleep, type HostileServer } from "./servers";

const serve = closedAfterEach();
const client = (server: HostileServer, options: Partial<ToolClientOptions> = {}) =>
  new ToolClient({ baseUrl: server.url, token: "t", retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 50 }, ...options });
const ok = { status: "ok", result: { sum: 3 } };

describe("a hostile tool server: calls", () => {
  describe("redirects (the protocol has none)", () => {
    it("refuses a 307 on invoke: the arguments and the Idempotency-Key never reach the other origin", async () => {
      const elsewhere = await serve((_request, response) => json(response, 200, { status: "ok", result: "from elsewhere" }));
      const server = await serve((_request, response) => (response.writeHead(307, { location: `${elsewhere.url}/tools/add/invoke` }), response.end()));
      await expect(client(server).invoke("add", { secret: 1 })).rejects.toThrow(ToolProtocolError);
      expect(elsewhere.requests).toHaveLength(0);
      expect(server.requests).toHaveLength(1);
    });

    it("posts once to a server that answers 307 to a closed port (the tool may have run: no retry)", async () => {
      const port = await closedPort();
      const server = await serve((_request, response) => (response.writeHead(307, { location: `http://127.0.0.1:${port}/api/tools/add/invoke` }), response.end()));
      await expect(client(server).invoke("add", {})).rejects.toThrow(ToolProtocolError);
      expect(server.requests).toHaveLength(1);
    });

    it("refuses a redirect on a GET too, without retrying it", async () => {
      const server = await serve((_request, response) => (response.writeHead(302, { location: "/api/elsewhere" }), response.end()));
      await expect(client(server).cost("r")).rejects.toThrow(/redirect/);
      expect(server.requests.map((request) => request.path)).toEqual(["/api/runs/r/cost"]);
    });
  });

  describe("path segments", () => {
    it.each([".", "..", ""])("refuses %j as a name or id with a TypeError, before any request", async (segment) => {
      const server = await serve((_request, response) => json(response, 200, ok));
      const tools = client(server);
      await expect(tools.invoke(segment, {})).rejects.toThrow(TypeError);
      await expect(tools.cost(segment)).rejects.toThrow(TypeError);
      await expect(tools.getApproval(segment)).rejects.toThrow(TypeError);
      await expect(tools.decide(segment, { approved: true })).rejects.toThrow(TypeError);
      expect(() => tools.events$(segment)).toThrow(TypeError);
      expect(server.requests).toHaveLength(0);
    });

    it("encodes what merely looks like a dot segment, so it stays one segment", async () => {
      const server = await serve((_request, response) => json(response, 200, ok));
      await client(server).invoke("%2e%2e", {});
      await client(server).invoke("../x", {});
      expect(server.requests.map((request) => request.path)).toEqual(["/api/tools/%252e%252e/invoke", "/api/tools/..%2Fx/invoke"]);
    });
  });

  it("keeps an error's status when its body is over maxResponseSize: a 503 with Retry-After: 0 and a 4 KB page is retried", async () => {
    const page = `<html>${"x".repeat(4096)}</html>`;
    const server = await serve((_request, response, index) => {
      if (index === 0) return response.writeHead(503, { "content-type": "text/html", "retry-after": "0" }).end(page);
      json(response, 200, ok);
    });
    await expect(client(server, { maxResponseSize: 1000 }).invoke("add", {})).resolves.toEqual(ok);
    expect(server.requests).toHaveLength(2);
  });

  it("raises the error's own class, with its status, when an oversized error body is never followed by success", async () => {
    const server = await serve((_request, response) => response.writeHead(503, { "content-type": "text/html", "content-length": "5000" }).end("y".repeat(5000)));
    const failure = client(server, { maxResponseSize: 1000, retry: false }).cost("r");
    await expect(failure).rejects.toThrow(ServiceUnavailableError);
    await expect(failure).rejects.toMatchObject({ status: 503 });
  });

  describe("429 budget-exceeded: the server's Retry-After says whether waiting helps", () => {
    const budgetExceeded = { type: "urn:tool-server:problem:budget-exceeded", title: "Budget exceeded", kind: "budget-exceeded" };

    it("waits a Retry-After within maxDelayMs and retries invoke and decide with the same Idempotency-Key", async () => {
      const server = await serve((_request, response, index) => (index % 2 === 0 ? json(response, 429, budgetExceeded, { "retry-after": "0" }) : json(response, 200, ok)));
      const tools = client(server);
      await expect(tools.invoke("add", {})).resolves.toEqual(ok);
      await expect(tools.decide("apr_1", { approved: true }, { idempotencyKey: "decision-1" })).resolves.toEqual(ok);
      const keys = server.requests.map((request) => request.headers["idempotency-key"]);
      expect(server.requests.map((request) => request.path)).toEqual(["/api/tools/add/invoke", "/api/tools/add/invoke", "/api/approvals/apr_1/decide", "/api/approvals/apr_1/decide"]);
      expect(keys[1]).toBe(keys[0]);
      expect(keys.slice(2)).toEqual(["decision-1", "decision-1"]);
    });

    it("raises BudgetExceededError at the first answer, with retryAfterMs, when Retry-After is beyond maxDelayMs", async () => {
      const server = await serve((_request, response) => json(response, 429, budgetExceeded, { "retry-after": "120" }));
      const failure = client(server).invoke("add", {});
      await expect(failure).rejects.toThrow(BudgetExceededError);
      await expect(failure).rejects.toMatchObject({ status: 429, kind: "budget-exceeded", retryAfterMs: 120_000 });
      expect(server.requests).toHaveLength(1);
    });

    it("does not retry a budget-exceeded without Retry-After (a budget that does not recover), not even on a GET", async () => {
      const server = await serve((_request, response) => json(response, 429, budgetExceeded));
      await expect(client(server).invoke("add", {})).rejects.toMatchObject({ name: "BudgetExceededError", retryAfterMs: undefined });
      await expect(client(server).cost("r")).rejects.toThrow(BudgetExceededError);
      expect(server.requests).toHaveLength(2);
    });
  });

  it("treats a Retry-After that is neither seconds nor an HTTP date as absent: a 503'd POST is not retried", async () => {
    const server = await serve((_request, response) => json(response, 503, { type: "about:blank", title: "Unavailable" }, { "retry-after": "Later 5" }));
    const failure = client(server).invoke("add", {});
    await expect(failure).rejects.toThrow(ServiceUnavailableError);
    await expect(failure).rejects.toMatchObject({ retryAfterMs: undefined });
    expect(server.requests).toHaveLength(1);
  });

  it("never lets a timer overflow: a Retry-After of 2^31 ms or more is not waited for, even with maxDelayMs: Infinity", async () => {
    const server = await serve((_request, response) => json(response, 503, { type: "about:blank" }, { "retry-after": "2147484" }));
    const tools = client(server, { retry: { maxRetries: Infinity, baseDelayMs: 1, maxDelayMs: Infinity } });
    await expect(tools.cost("r")).rejects.toMatchObject({ status: 503, retryAfterMs: 2_147_484_000 });
    await sleep(50);
    expect(server.requests).toHaveLength(1);
  });

  it("says where an answer breaks the protocol's shape, and never what it holds", async () => {
    const server = await serve((request, response) => {
      if (request.url === "/api/tools") return json(response, 200, { tools: [{ name: "add", description: "private description", tags: [], requires_approval: false }] });
      if (request.url === "/api/runs/r/cost") return json(response, 200, { run_id: "r", total_usd: "private figure" });
      json(response, 200, { status: "private status", result: 1 });
    });
    const tools = client(server);
    await expect(tools.listTools()).rejects.toThrow(new ToolProtocolError("The tool server's answer to listTools does not have the shape the protocol promises: at /tools/0/input_schema, expected object"));
    await expect(tools.cost("r")).rejects.toThrow(new ToolProtocolError("The tool server's answer to cost r does not have the shape the protocol promises: at /total_usd, expected number"));
    const invoke = await tools.invoke("add", {}).catch((error: unknown) => error as ToolProtocolError);
    expect(invoke).toBeInstanceOf(ToolProtocolError);
    expect((invoke as ToolProtocolError).message).toMatch(/^The tool server's answer to invoke add does not have the shape the protocol promises: at \/status, expected "(ok|pending_approval)"$/);
    expect(JSON.stringify(invoke)).not.toContain("private");
  });

  it.each([NaN, 0, -1, "1000"])("refuses maxResponseSize: %p like a duration, with a TypeError", (size) => {
    expect(() => new ToolClient({ baseUrl: "http://127.0.0.1:9", maxResponseSize: size as number })).toThrow(TypeError);
  });

  it("asVercelTools: a re-executed tool call (same toolCallId) sends the same Idempotency-Key", async () => {
    const server = await serve((request, response) => {
      if (request.url === "/api/tools") return json(response, 200, { tools: [{ name: "add", description: "Adds.", tags: [], input_schema: { type: "object" }, requires_approval: false }] });
      json(response, 200, ok);
    });
    const tools = await client(server).asVercelTools((spec: VercelToolSpec) => spec, (schema) => schema);
    await tools.add!.execute({ a: 1, b: 2 }, { toolCallId: "call_Ab9 x/ü" });
    await tools.add!.execute({ a: 1, b: 2 }, { toolCallId: "call_Ab9 x/ü" });
    await tools.add!.execute({ a: 1, b: 2 }, { toolCallId: "call_other" });
    const keys = server.requests.filter((request) => request.method === "POST").map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[\x21-\x7e]{1,255}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
