import { AppBridge, type McpUiHostContext, type McpUiResourceCsp } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult, LoggingMessageNotification, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { SchedulerLike } from "rxjs";
import type { McpProxiedRequest } from "../adapter/mcpRequests";
import { isRecord } from "../internal/isRecord";
import { boundedHeight, messageGuard, type McpAppLimits } from "./appLimits";
import { SandboxTransport } from "./sandboxTransport";

/** What the middleware's `mcp-apps` activity holds of an app. */
export interface McpAppContent {
  resourceUri: string;
  serverId?: string;
  serverHash?: string;
  toolInput?: Record<string, unknown>;
  result?: CallToolResult;
}

/** Reads an `mcp-apps` activity's content, or says what it lacks. */
export function mcpAppContentOf(content: Readonly<Record<string, unknown>>): McpAppContent | string {
  const { resourceUri, serverId, serverHash, toolInput, result } = content;
  if (typeof resourceUri !== "string" || !resourceUri.startsWith("ui://")) return "its activity names no ui:// resource";
  if (typeof serverId !== "string" && typeof serverHash !== "string") return "its activity names no server";
  return {
    resourceUri,
    ...(typeof serverId === "string" && { serverId }),
    ...(typeof serverHash === "string" && { serverHash }),
    ...(isRecord(toolInput) && { toolInput }),
    ...(isRecord(result) && { result: result as CallToolResult }),
  };
}

/** The page's side of one app: where its requests go, what the person is asked, and what the tile shows. */
export interface McpAppHostSide {
  /** Sends a request to the app's server (the adapter's proxied run). */
  request(request: Omit<McpProxiedRequest, "serverId" | "serverHash">): Promise<unknown>;
  /** The person's next message, from the app (`ui/message`). */
  sendMessage(text: string): void;
  /** Whether the person lets the app open `url` (`ui/open-link`). */
  confirmLink(url: string): Promise<boolean>;
  resize(height: number): void;
  /** The app is cut off: the tile says why. */
  cutOff(reason: string): void;
  /** A request of the app's was refused or failed: the host's `onWarning`. */
  warn(message: string): void;
  /** The app's log (MCP's `notifications/message`); dropped where absent. */
  log?(entry: McpAppLogEntry): void;
}

/** One entry of an app's log, as MCP's logging notification carries it. */
export type McpAppLogEntry = LoggingMessageNotification["params"];

/** The page's side of one app, once connected. */
export interface McpAppConnection {
  /** What the page now is (`hostContextOf`): the app hears what changed once it has initialized, and nothing if nothing did. */
  setHostContext(hostContext: McpUiHostContext): void;
  close(): void;
}

export interface ConnectMcpAppOptions {
  /** The sandbox proxy's frame, not yet in the page: messages are listened for before it loads. */
  frame: HTMLIFrameElement;
  sandboxOrigin: string;
  content: McpAppContent;
  /** The app's document, as its server gave it. */
  html: string;
  csp?: McpUiResourceCsp;
  /** What the page tells the app of itself as it initializes (`hostContextOf`); later changes go through `setHostContext`. */
  hostContext: McpUiHostContext;
  /** The tools the app may call: the one it came of, and the host's `allowedTools`. */
  callable: ReadonlySet<string>;
  limits: McpAppLimits;
  scheduler: SchedulerLike;
  host: McpAppHostSide;
}

const HOST_INFO = { name: "carbon-agui-rx", version: "1" };

/**
 * Speaks MCP Apps' host protocol with one app through the sandbox proxy, on
 * `@modelcontextprotocol/ext-apps`'s `AppBridge`: the app's document goes to
 * the proxy once it is ready; once the app says it has initialized (not
 * before), its tool's input and result. Its calls of the tools in `callable`
 * and its reads of resources go to its server; a call of any other tool is
 * refused with an error back to the app. An app that floods the page, sends
 * too much, or does not initialize in time is cut off.
 */
export function connectMcpApp(options: ConnectMcpAppOptions): McpAppConnection {
  const { frame, sandboxOrigin, content, html, csp, hostContext, callable, limits, scheduler, host } = options;
  const bridge = new AppBridge(null, HOST_INFO, { serverTools: {}, serverResources: {}, openLinks: {}, logging: {}, message: { text: {} } }, { hostContext });
  let initialized = false;
  let closed = false;
  let latest = hostContext;
  const close = () => {
    if (closed) return;
    closed = true;
    timeout.unsubscribe();
    void bridge.close();
  };
  const cutOff = (reason: string) => {
    if (closed) return;
    close();
    host.cutOff(reason);
  };
  const guard = messageGuard(limits, scheduler);
  const transport = new SandboxTransport({
    frame,
    origin: sandboxOrigin,
    admit: (bytes) => {
      const over = guard(bytes);
      if (over !== undefined) cutOff(over);
      return over === undefined;
    },
    onSandboxClosed: cutOff,
  });
  const timeout = scheduler.schedule(() => initialized || cutOff(`it did not start within ${limits.initTimeoutMs} ms`), limits.initTimeoutMs);

  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html, ...(csp && { csp }) });
  };
  bridge.oninitialized = () => {
    initialized = true;
    timeout.unsubscribe();
    // The app initialized with the context the bridge was made with; the page may have changed since.
    bridge.setHostContext(latest);
    void bridge.sendToolInput({ arguments: content.toolInput ?? {} });
    if (content.result) void bridge.sendToolResult(content.result);
  };
  bridge.oncalltool = async (params) => {
    if (!callable.has(params.name)) {
      const refusal = `The app may not call the tool '${params.name}': an app calls only the tool it came of, and those the host allows`;
      host.warn(refusal);
      throw new Error(refusal);
    }
    return (await host.request({ method: "tools/call", params: { name: params.name, ...(params.arguments && { arguments: params.arguments }) } })) as CallToolResult;
  };
  bridge.onreadresource = async (params) => (await host.request({ method: "resources/read", params: { uri: params.uri } })) as ReadResourceResult;
  bridge.onmessage = async (params) => {
    const text = params.content
      .flatMap((block) => (block.type === "text" ? [block.text] : []))
      .join("\n")
      .trim();
    if (text === "") return { isError: true };
    host.sendMessage(text);
    return {};
  };
  bridge.onopenlink = async ({ url }) => {
    const safe = /^https?:\/\//i.test(url) && (await host.confirmLink(url));
    if (safe) frame.ownerDocument.defaultView?.open(url, "_blank", "noopener,noreferrer");
    return safe ? {} : { isError: true };
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === "number" && Number.isFinite(height)) host.resize(boundedHeight(height, limits));
  };
  bridge.onloggingmessage = (entry) => host.log?.(entry);
  void bridge.connect(transport);
  return {
    setHostContext(next) {
      latest = next;
      if (initialized && !closed) bridge.setHostContext(next);
    },
    close,
  };
}
