import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { JSDOM } from "jsdom";
import { NEVER, Observable } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import { proxiedMcpRequest } from "../../src/adapter/mcpRequests";
import { AgUiMcpAppError, type CarbonAgUiError } from "../../src/errors";
import { createMcpApp } from "../../src/mcp-apps";
import type { McpAppData } from "../../src/operators/map/mcpApps";
import { memoryStore } from "../../src/persistence/memoryStore";
import type { CarbonHistoryResponse } from "../../src/persistence/restore";
import type { RunAgent } from "../../src/runners/runAgent";
import { ev } from "../support/builders";

const APP = { resourceUri: "ui://get-time/mcp-app.html", serverHash: "abc", serverId: "time", toolInput: {}, result: { content: [{ type: "text", text: "12:00" }] } };
/** What a run behind `@ag-ui/mcp-apps-middleware` sends for a UI tool's call: the call, its result, then the app's activity. */
const appRun = () => ev.run(ev.toolCall("call-1", "get-time", {}), ev.toolResult("call-1", "12:00"), ev.activitySnapshot("app-1", "mcp-apps", APP, true));
const request = (text: string) => ({ id: `u-${text}`, input: { text }, history: {} });
const sendOptions = () => ({ signal: new AbortController().signal, silent: false });
/** The middleware's answer to a proxied request: RUN_STARTED, then RUN_FINISHED with the server's answer. */
const proxied = (input: RunAgentInput, result: unknown): BaseEvent[] => [
  { type: EventType.RUN_STARTED, threadId: input.runId, runId: input.runId } as BaseEvent,
  { type: EventType.RUN_FINISHED, threadId: input.runId, runId: input.runId, result } as BaseEvent,
];

describe("MCP Apps through the adapter", () => {
  it("restores the app's item on another device from the store as the answer showed it, and sends its requests to its server through the agent", async () => {
    const store = memoryStore();
    const first = new CarbonAgUiAdapter({ threadId: "t1", coalesce: false, persistence: { store, channel: false }, run: () => appRun() });
    const live = new CarbonRecorder();
    await first.sendMessage(request("What time is it?"), sendOptions(), live);
    const item = { response_type: "user_defined", user_defined: { kind: "mcp-app", activityId: "app-1", toolCallId: "call-1", toolName: "get-time" } };
    const final = live.chunks.find((chunk) => "final_response" in chunk) as { final_response: CarbonHistoryResponse } | undefined;
    expect(final!.final_response.output.generic).toEqual([expect.objectContaining(item)]);

    const inputs: RunAgentInput[] = [];
    const second = new CarbonAgUiAdapter({
      threadId: "t1",
      coalesce: false,
      persistence: { store, channel: false },
      run: (input) => {
        inputs.push(input);
        return proxied(input, { contents: [{ uri: APP.resourceUri, text: "<p>app</p>" }] });
      },
    });
    const history = await second.loadHistory(new CarbonRecorder());
    const shown = history.map((entry) => entry.message).filter((message): message is CarbonHistoryResponse => "output" in message);
    expect(shown[0]!.output.generic).toEqual([expect.objectContaining(item)]);
    expect(second.activities.get("app-1")?.content).toEqual(APP);

    const answer = await second.mcpRequest({ serverId: "time", serverHash: "abc", method: "resources/read", params: { uri: APP.resourceUri } }, "app-1");
    expect(answer).toEqual({ contents: [{ uri: APP.resourceUri, text: "<p>app</p>" }] });
    expect(inputs).toEqual([expect.objectContaining({ threadId: "t1", messages: [], tools: [], forwardedProps: { __proxiedMCPRequest: { serverId: "time", serverHash: "abc", method: "resources/read", params: { uri: APP.resourceUri } } } })]);
    // Nothing of the proxied run entered the conversation.
    expect(second.messages).toEqual(first.messages);
  });
});

describe("proxiedMcpRequest", () => {
  const ask = { serverId: "time", method: "tools/call" as const, params: { name: "get-time" } };
  const context = { threadId: "t1", activityId: "app-1" };
  const runOf = (events: (input: RunAgentInput) => BaseEvent[] | Observable<BaseEvent>): RunAgent => (input) => events(input);

  it("rejects with the middleware's error, with a run's error, and with a run that ends without finishing, each saying which request", async () => {
    await expect(proxiedMcpRequest(runOf((input) => proxied(input, { error: "Unknown server: time" })), ask, context)).rejects.toThrow(new AgUiMcpAppError("tools/call on MCP server 'time' failed: Unknown server: time", "app-1"));
    await expect(proxiedMcpRequest(runOf(() => [ev.runStarted(), ev.runError("the agent is down")]), ask, context)).rejects.toThrow("tools/call on MCP server 'time' failed: the agent is down");
    await expect(proxiedMcpRequest(runOf(() => [ev.runStarted()]), ask, context)).rejects.toThrow("tools/call on MCP server 'time': the agent's run ended without an answer");
    await expect(
      proxiedMcpRequest(
        () => {
          throw new Error("no network");
        },
        ask,
        context,
      ),
    ).rejects.toThrow("tools/call on MCP server 'time' failed: no network");
  });

  it("answers with a result that merely holds an error among its fields (a tool's own answer)", async () => {
    const result = { content: [{ type: "text", text: "no such city" }], isError: true, error: "no such city" };
    await expect(proxiedMcpRequest(runOf((input) => proxied(input, result)), ask, context)).resolves.toEqual(result);
  });

  it("stops the run when the app goes (its signal), and says so", async () => {
    let unsubscribed = false;
    const controller = new AbortController();
    const asked = proxiedMcpRequest(runOf(() => new Observable<BaseEvent>(() => () => void (unsubscribed = true))), ask, { ...context, signal: controller.signal });
    controller.abort();
    await expect(asked).rejects.toThrow("tools/call on MCP server 'time' was stopped: the app is gone");
    expect(unsubscribed).toBe(true);
  });
});

describe("createMcpApp without a usable sandbox", () => {
  const { window } = new JSDOM("<!doctype html><body></body>", { url: "https://chat.example.com/" });
  const data: McpAppData = { kind: "mcp-app", activityId: "app-1", toolName: "get-time" };
  const draw = (sandboxUrl: string | undefined) => {
    const warnings: CarbonAgUiError[] = [];
    const adapter = { activity$: () => NEVER, mcpRequest: () => Promise.reject(new Error("never asked")), warn: (warning: CarbonAgUiError) => warnings.push(warning) };
    const app = createMcpApp(window.document, data, { instance: { send: async () => undefined } as never, adapter: adapter as never, sandboxUrl });
    return { app, warnings };
  };

  it.each([
    [undefined, "no sandboxUrl was given"],
    ["https://chat.example.com/sandbox.html", "on the page's own origin"],
    ["javascript:alert(1)", "not http(s)"],
  ])("draws nothing for the sandbox %s, and tells the host why", (sandboxUrl, why) => {
    const { app, warnings } = draw(sandboxUrl);
    expect(app.element.hidden).toBe(true);
    expect(app.element.querySelector("iframe")).toBeNull();
    expect(warnings).toEqual([expect.objectContaining({ name: "AgUiMcpAppError", activityId: "app-1", message: expect.stringContaining(why) })]);
  });

  it("frames the proxy of another origin, telling it the page's origin, and lets the proxy keep its own origin but not navigate the page", async () => {
    const warnings: CarbonAgUiError[] = [];
    const adapter = {
      activity$: () => new Observable((subscriber) => subscriber.next({ messageId: "app-1", activityType: "mcp-apps", content: APP })),
      mcpRequest: async () => ({ contents: [{ uri: APP.resourceUri, text: "<p>app</p>", _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] } } } }] }),
      warn: (warning: CarbonAgUiError) => warnings.push(warning),
    };
    const app = createMcpApp(window.document, data, { instance: { send: async () => undefined } as never, adapter: adapter as never, sandboxUrl: "https://apps-sandbox.example.com/sandbox.html" });
    window.document.body.append(app.element);
    for (let turn = 0; turn < 10 && !app.element.querySelector("iframe")?.getAttribute("src"); turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    const frame = app.element.querySelector("iframe")!;
    expect(frame.getAttribute("src")).toBe("https://apps-sandbox.example.com/sandbox.html#host=https%3A%2F%2Fchat.example.com");
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin");
    app.dispose();
    expect(app.element.querySelector("iframe")).toBeNull();
    expect(warnings).toEqual([]);
  });
});
