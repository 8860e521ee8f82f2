import { errorFromResponse, parseRetryAfter, readBoundedText } from "../../src/tool-client/body";
import { ToolArgsInvalidError, ToolError, ToolProtocolError } from "../../src/tool-client/errors";

const problemResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/problem+json", ...headers } });

describe("errorFromResponse", () => {
  it("keeps an RFC 9457 body as the problem", () => {
    const body = { type: "urn:tool-server:problem:tool-failed", title: "The tool failed", status: 502, detail: "add raised", kind: "tool-failed", call_id: "c1" };
    const error = errorFromResponse(problemResponse(502, body), JSON.stringify(body), 0);
    expect(error).toBeInstanceOf(ToolError);
    expect(error.problem).toEqual(body);
    expect(error.message).toBe("add raised");
  });

  it("turns a body that is not a problem (a proxy's HTML page) into about:blank with the status", () => {
    const html = "<html><body>Bad gateway</body></html>";
    const response = new Response(html, { status: 502, statusText: "Bad Gateway", headers: { "content-type": "text/html" } });
    const error = errorFromResponse(response, html, 0);
    expect(error).toBeInstanceOf(ToolError);
    expect(error.problem).toEqual({ type: "about:blank", status: 502, title: "Bad Gateway" });
    expect(error.kind).toBeUndefined();
  });

  it("drops the refused values from argument errors, pydantic's included", () => {
    const body = {
      type: "urn:tool-server:problem:tool-args-invalid",
      status: 422,
      kind: "tool-args-invalid",
      errors: [
        { path: "/a", message: "must be number", value: "secret-1" },
        { type: "int_parsing", loc: ["body", "b/c"], msg: "Input should be a valid integer", input: "secret-2", ctx: { secret: "secret-3" } },
      ],
    };
    const error = errorFromResponse(problemResponse(422, body), JSON.stringify(body), 0) as ToolArgsInvalidError;
    expect(error).toBeInstanceOf(ToolArgsInvalidError);
    const expected = [
      { path: "/a", message: "must be number" },
      { path: "/body/b~1c", message: "Input should be a valid integer", type: "int_parsing" },
    ];
    expect(error.errors).toEqual(expected);
    expect(error.problem.errors).toEqual(expected);
    expect(JSON.stringify(error)).not.toMatch(/secret/);
  });

  it("drops members that are not what RFC 9457 says they are, since they may echo the input", () => {
    const body = { type: "about:blank", kind: "tool-args-invalid", detail: { password: "hunter2" }, errors: { password: { input: "hunter2" } } };
    const error = errorFromResponse(problemResponse(422, body), JSON.stringify(body), 0) as ToolArgsInvalidError;
    expect(error).toBeInstanceOf(ToolArgsInvalidError);
    expect(error.errors).toEqual([]);
    expect(error.message).toBe("The tool server answered 422");
    expect(JSON.stringify(error)).not.toContain("hunter2");
  });

  it("reads Retry-After", () => {
    const error = errorFromResponse(problemResponse(429, { type: "about:blank", kind: "budget-exceeded" }, { "retry-after": "30" }), "{}", 0);
    expect(error.retryAfterMs).toBe(30_000);
  });
});

describe("parseRetryAfter", () => {
  it.each<[string | null, number, number | undefined]>([
    ["120", 0, 120_000],
    [" 0 ", 0, 0],
    ["Wed, 21 Oct 2015 07:28:00 GMT", Date.UTC(2015, 9, 21, 7, 27, 30), 30_000],
    ["Wed, 21 Oct 2015 07:28:00 GMT", Date.UTC(2015, 9, 21, 7, 29, 0), 0],
    ["soon", 0, undefined],
    ["-5", 0, undefined],
    [null, 0, undefined],
  ])("%p at %p → %p ms", (header, now, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

describe("readBoundedText", () => {
  it("reads a body within the bound", async () => {
    await expect(readBoundedText(new Response("héllo"), 6)).resolves.toBe("héllo");
  });

  it("refuses a declared Content-Length over the bound without reading the body", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({ pull: (controller) => (pulled++, controller.enqueue(new Uint8Array(10))) }, { highWaterMark: 0 });
    const response = new Response(body, { headers: { "content-length": "1000" } });
    await expect(readBoundedText(response, 100)).rejects.toThrow(ToolProtocolError);
    expect(pulled).toBe(0);
  });

  it("stops reading as soon as an undeclared body passes the bound, and cancels the rest", async () => {
    let pulled = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>(
      { pull: (controller) => (pulled++, controller.enqueue(new Uint8Array(64))), cancel: () => void (cancelled = true) },
      { highWaterMark: 0 },
    );
    await expect(readBoundedText(new Response(body), 1_000)).rejects.toThrow("maxResponseSize (1000 bytes)");
    expect(pulled).toBe(16);
    expect(cancelled).toBe(true);
  });
});
