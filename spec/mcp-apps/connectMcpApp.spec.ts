import { App } from "@modelcontextprotocol/ext-apps";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { VirtualTimeScheduler } from "rxjs";
import { DEFAULT_MCP_APP_LIMITS, type McpAppLimits } from "../../src/mcp-apps/appLimits";
import { connectMcpApp, type McpAppHostSide } from "../../src/mcp-apps/connectMcpApp";

const SANDBOX = "http://127.0.0.1:9002";
const RESULT = { content: [{ type: "text" as const, text: "12:00" }], structuredContent: { time: "12:00" } };

/**
 * The page's window and the sandbox proxy's, without a browser: what the page posts to the proxy reaches the app (the
 * real `App` of `@modelcontextprotocol/ext-apps`) as the proxy relays it, and what the app sends comes to the page's
 * window as a message of the proxy's window from the proxy's origin. Every message the page posts is kept, with the
 * origin it named.
 */
class Sandbox {
  readonly page = Object.assign(new EventTarget(), { open: jest.fn() });
  readonly posted: { message: JSONRPCMessage; origin: string }[] = [];
  readonly proxy = { postMessage: (message: JSONRPCMessage, origin: string) => this.fromPage(message, origin) };
  readonly frame = { contentWindow: this.proxy, ownerDocument: { defaultView: this.page } } as unknown as HTMLIFrameElement;
  app: App | undefined;
  /** Resolves once the default app has its tool's result. */
  readonly started: Promise<unknown>;
  private appSide: Transport | undefined;
  private readonly makeApp: ((transport: Transport) => App) | undefined;

  /** Once the page sends the document, `makeApp` runs in the proxy (none: an app that never starts). */
  constructor(makeApp?: ((transport: Transport) => App) | null) {
    let resolve: (value: unknown) => void = () => undefined;
    this.started = new Promise((resolved) => (resolve = resolved));
    this.makeApp =
      makeApp === null
        ? undefined
        : (makeApp ??
          ((transport) => {
            const app = new App({ name: "spec app", version: "1" }, {}, { autoResize: false });
            app.ontoolresult = resolve;
            return connected(app, transport);
          }));
  }

  ready(): void {
    this.fromProxy({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} });
  }

  /** A message as the page's window receives it. */
  fromProxy(data: unknown, source: unknown = this.proxy, origin = SANDBOX): void {
    this.page.dispatchEvent(Object.assign(new Event("message"), { data, source, origin }));
  }

  private fromPage(message: JSONRPCMessage, origin: string): void {
    this.posted.push({ message, origin });
    if ("method" in message && message.method === "ui/notifications/sandbox-resource-ready") {
      const sandbox = this;
      this.appSide = {
        async start() {},
        async send(reply: JSONRPCMessage) {
          sandbox.fromProxy(structuredClone(reply));
        },
        // As a real transport does: its close tells the app, which drops its pending requests and their timers.
        async close() {
          this.onclose?.();
        },
      };
      if (this.makeApp) {
        this.app = this.makeApp(this.appSide);
        running.push(this.app);
      }
      return;
    }
    queueMicrotask(() => this.appSide?.onmessage?.(structuredClone(message)));
  }
}

/** Every app a spec started: closed after it, so a request the page never answers leaves no timer behind. */
const running: App[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()));
});

function connected(app: App, transport: Transport): App {
  void app.connect(transport);
  return app;
}

/** The page's side, each of its calls recorded. */
function hostSide(overrides: Partial<McpAppHostSide> = {}) {
  const calls = { requests: [] as unknown[], messages: [] as string[], sizes: [] as number[], cutOffs: [] as string[], warnings: [] as string[] };
  const host: McpAppHostSide = {
    request: async (request) => {
      calls.requests.push(request);
      return request.method === "resources/read" ? { contents: [{ uri: request.params?.uri, mimeType: "text/html;profile=mcp-app", text: "<p>other</p>" }] } : { content: [{ type: "text", text: "12:00:01" }] };
    },
    sendMessage: (text) => calls.messages.push(text),
    confirmLink: async () => false,
    resize: (height) => calls.sizes.push(height),
    cutOff: (reason) => calls.cutOffs.push(reason),
    warn: (message) => calls.warnings.push(message),
    ...overrides,
  };
  return { host, calls };
}

function start(sandbox: Sandbox, host: McpAppHostSide, options: { callable?: string[]; limits?: Partial<McpAppLimits>; scheduler?: VirtualTimeScheduler } = {}) {
  return connectMcpApp({
    frame: sandbox.frame,
    sandboxOrigin: SANDBOX,
    content: { resourceUri: "ui://get-time/mcp-app.html", serverId: "time", toolInput: { zone: "UTC" }, result: RESULT },
    html: "<!doctype html><p>app</p>",
    csp: { connectDomains: [] },
    hostContext: { theme: "dark", displayMode: "inline" },
    callable: new Set(options.callable ?? ["get-time"]),
    limits: { ...DEFAULT_MCP_APP_LIMITS, ...options.limits },
    scheduler: options.scheduler ?? new VirtualTimeScheduler(),
    host,
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** An app that has received its tool's input and result, and the page's side of it. */
async function initializedApp(overrides: Partial<McpAppHostSide> = {}, options: Parameters<typeof start>[2] = {}) {
  const sandbox = new Sandbox();
  const { host, calls } = hostSide(overrides);
  const connection = start(sandbox, host, options);
  await settle();
  sandbox.ready();
  await sandbox.started;
  return { sandbox, calls, connection, app: sandbox.app! };
}

describe("connectMcpApp", () => {
  it("sends the document once the proxy is ready, and the tool's input and result only after the app initialized, all to the proxy's origin", async () => {
    const sandbox = new Sandbox((transport) => {
      const app = new App({ name: "spec app", version: "1" }, {}, { autoResize: false });
      app.ontoolinput = (params) => inputs.push(params.arguments);
      app.ontoolresult = (params) => results.push(params);
      return connected(app, transport);
    });
    const inputs: unknown[] = [];
    const results: unknown[] = [];
    const { host } = hostSide();
    start(sandbox, host);
    await settle();
    expect(sandbox.posted).toEqual([]);
    sandbox.ready();
    for (let turn = 0; turn < 20 && results.length === 0; turn++) await settle();
    const methods = sandbox.posted.map(({ message }) => ("method" in message ? message.method : "(answer)"));
    expect(methods).toEqual(["ui/notifications/sandbox-resource-ready", "(answer)", "ui/notifications/tool-input", "ui/notifications/tool-result"]);
    expect(sandbox.posted[0]!.message).toMatchObject({ params: { html: "<!doctype html><p>app</p>", csp: { connectDomains: [] } } });
    expect(sandbox.posted[1]!.message).toMatchObject({ result: { hostContext: { theme: "dark", displayMode: "inline" } } });
    expect(sandbox.posted.every(({ origin }) => origin === SANDBOX)).toBe(true);
    expect(inputs).toEqual([{ zone: "UTC" }]);
    expect(results).toEqual([RESULT]);
  });

  it("sends the app's call of the tool it came of to the server, and refuses any other tool with an error back to the app", async () => {
    const { app, calls } = await initializedApp();
    await expect(app.callServerTool({ name: "get-time", arguments: { zone: "CET" } })).resolves.toEqual({ content: [{ type: "text", text: "12:00:01" }] });
    await expect(app.callServerTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(/may not call the tool 'delete_everything'/);
    expect(calls.requests).toEqual([{ method: "tools/call", params: { name: "get-time", arguments: { zone: "CET" } } }]);
    expect(calls.warnings).toEqual([expect.stringContaining("'delete_everything'")]);
  });

  it("lets the app call a tool the host allows, and read a resource of its server", async () => {
    const { app, calls } = await initializedApp({}, { callable: ["get-time", "tick"] });
    await app.callServerTool({ name: "tick", arguments: {} });
    await app.readServerResource({ uri: "ui://get-time/other.html" });
    expect(calls.requests).toEqual([
      { method: "tools/call", params: { name: "tick", arguments: {} } },
      { method: "resources/read", params: { uri: "ui://get-time/other.html" } },
    ]);
  });

  it("makes the app's message the person's next one, and refuses one without text", async () => {
    const { app, calls } = await initializedApp();
    await expect(app.sendMessage({ role: "user", content: [{ type: "text", text: "What time is it in Oslo?" }] })).resolves.toEqual({});
    await expect(app.sendMessage({ role: "user", content: [] })).resolves.toEqual({ isError: true });
    expect(calls.messages).toEqual(["What time is it in Oslo?"]);
  });

  it("opens a link only once the person agrees, in a new tab without the page as its opener, and never a script URL", async () => {
    const answers = [false, true, true];
    const asked: string[] = [];
    const { app, sandbox } = await initializedApp({
      confirmLink: async (url) => {
        asked.push(url);
        return answers.shift()!;
      },
    });
    await expect(app.openLink({ url: "https://example.org/a" })).resolves.toEqual({ isError: true });
    await expect(app.openLink({ url: "https://example.org/b" })).resolves.toEqual({});
    await expect(app.openLink({ url: "javascript:alert(1)" })).resolves.toEqual({ isError: true });
    expect(asked).toEqual(["https://example.org/a", "https://example.org/b"]);
    expect(sandbox.page.open.mock.calls).toEqual([["https://example.org/b", "_blank", "noopener,noreferrer"]]);
  });

  it("sizes the app to the height it asks for, within the bounds", async () => {
    const { app, calls } = await initializedApp({}, { limits: { minHeight: 50, maxHeight: 400 } });
    await app.sendSizeChanged({ height: 120.4 });
    await app.sendSizeChanged({ height: 10_000 });
    await app.sendSizeChanged({ height: 1 });
    await settle();
    expect(calls.sizes).toEqual([121, 400, 50]);
  });

  it("cuts off an app that floods the page, and one that sends a message over the limit", async () => {
    const flooding = await initializedApp({}, { limits: { maxMessagesPerSecond: 5 } });
    for (let index = 0; index < 10; index++) void flooding.app.sendLog({ level: "info", data: index });
    await settle();
    expect(flooding.calls.cutOffs).toEqual(["it sent more than 5 messages in a second"]);

    const huge = await initializedApp({}, { limits: { maxMessageBytes: 1_000 } });
    void huge.app.sendLog({ level: "info", data: "x".repeat(2_000) });
    await settle();
    expect(huge.calls.cutOffs).toEqual(["it sent a message of more than 1000 characters"]);
    // Cut off, the app is heard no more.
    void huge.app.sendMessage({ role: "user", content: [{ type: "text", text: "still here" }] }).catch(() => undefined);
    await settle();
    expect(huge.calls.messages).toEqual([]);
  });

  it("hears nothing from another window or origin than the proxy's: a spoofed message reaches nothing", async () => {
    const { sandbox, calls } = await initializedApp();
    const message = { jsonrpc: "2.0", id: 99, method: "ui/message", params: { role: "user", content: [{ type: "text", text: "spoofed" }] } };
    sandbox.fromProxy(message, {}, SANDBOX);
    sandbox.fromProxy(message, sandbox.proxy, "http://127.0.0.1:9001");
    await settle();
    expect(calls.messages).toEqual([]);
    expect(sandbox.posted.some(({ message: posted }) => "id" in posted && posted.id === 99)).toBe(false);
  });

  it("cuts off an app that does not initialize in time, on the scheduler's clock", async () => {
    const scheduler = new VirtualTimeScheduler();
    const sandbox = new Sandbox(null);
    const { host, calls } = hostSide();
    start(sandbox, host, { scheduler, limits: { initTimeoutMs: 5_000 } });
    sandbox.ready();
    await settle();
    expect(calls.cutOffs).toEqual([]);
    scheduler.flush();
    expect(calls.cutOffs).toEqual(["it did not start within 5000 ms"]);
  });

  it("does not cut off an app that initialized in time, and is cut off when the proxy closes its frame", async () => {
    const scheduler = new VirtualTimeScheduler();
    const { sandbox, calls } = await initializedApp({}, { scheduler });
    scheduler.flush();
    expect(calls.cutOffs).toEqual([]);
    sandbox.fromProxy({ jsonrpc: "2.0", method: "carbon-agui-rx/sandbox-closed", params: { reason: "the app navigated away from its document" } });
    expect(calls.cutOffs).toEqual(["the app navigated away from its document"]);
  });

  it("tells the app what changed of the page's context: nothing before it initialized, then only the fields that changed", async () => {
    const changes: unknown[] = [];
    const sandbox = new Sandbox((transport) => {
      const app = new App({ name: "spec app", version: "1" }, {}, { autoResize: false });
      app.onhostcontextchanged = (params) => changes.push(params);
      return connected(app, transport);
    });
    const { host } = hostSide();
    const connection = start(sandbox, host);
    connection.setHostContext({ theme: "light", displayMode: "inline" });
    await settle();
    expect(sandbox.posted).toEqual([]);
    sandbox.ready();
    for (let turn = 0; turn < 20 && changes.length === 0; turn++) await settle();
    expect(changes).toEqual([{ theme: "light" }]);
    connection.setHostContext({ theme: "light", displayMode: "inline" });
    connection.setHostContext({ theme: "light", displayMode: "inline", containerDimensions: { width: 480, maxHeight: 600 } });
    await settle();
    expect(changes).toEqual([{ theme: "light" }, { containerDimensions: { width: 480, maxHeight: 600 } }]);
    expect(sandbox.app!.getHostContext()).toEqual({ theme: "light", displayMode: "inline", containerDimensions: { width: 480, maxHeight: 600 } });
    connection.close();
    connection.setHostContext({ theme: "dark", displayMode: "inline" });
    await settle();
    expect(changes).toHaveLength(2);
  });

  it("gives the app's log to the host, and drops it where the host takes none", async () => {
    const logs: unknown[] = [];
    const { app } = await initializedApp({ log: (entry) => logs.push(entry) });
    await app.sendLog({ level: "warning", logger: "clock", data: { drift: 2 } });
    await settle();
    expect(logs).toEqual([{ level: "warning", logger: "clock", data: { drift: 2 } }]);
  });

  it("stops hearing the app once closed", async () => {
    const { app, calls, connection } = await initializedApp();
    connection.close();
    void app.sendMessage({ role: "user", content: [{ type: "text", text: "after" }] }).catch(() => undefined);
    await settle();
    expect(calls.messages).toEqual([]);
    expect(calls.cutOffs).toEqual([]);
  });
});
