import type { McpUiResourceCsp } from "@modelcontextprotocol/ext-apps/app-bridge";
import { filter, firstValueFrom, map, take, type SchedulerLike } from "rxjs";
import type { CarbonAgUiAdapter, McpProxiedRequest } from "../adapter";
import type { CarbonSendInstance } from "../carbon";
import { AgUiMcpAppError, asCarbonAgUiError } from "../errors";
import { frameScheduler } from "../internal/frameScheduler";
import { isRecord } from "../internal/isRecord";
import type { McpAppData } from "../operators/map/mcpApps";
import { button, create } from "../renderers/controls";
import type { RenderedCard } from "../renderers/renderedCard";
import { boundedHeight, DEFAULT_MCP_APP_LIMITS, type McpAppLimits } from "./appLimits";
import { connectMcpApp, mcpAppContentOf, type McpAppConnection, type McpAppContent, type McpAppLogEntry } from "./connectMcpApp";
import { hostContextOf, watchHostContext } from "./hostContext";
import { useMcpAppStyles } from "./useMcpAppStyles";

/** What an app reads of the adapter: its activity, where its requests and warnings go. */
export type McpAppAdapter = Pick<CarbonAgUiAdapter, "activity$" | "mcpRequest" | "warn">;

export interface McpAppOptions {
  /** The Carbon instance: an app's `ui/message` is sent through it, as the person's next message. */
  instance: CarbonSendInstance;
  adapter: McpAppAdapter;
  /**
   * The sandbox proxy (`carbon-agui-rx/mcp-apps/sandbox.html`, served as it is) on an origin that is not the page's.
   * Without it, or on the page's own origin, no app is drawn and `onWarning` says why.
   */
  sandboxUrl: string | URL | undefined;
  /** Tools an app may call besides the one it came of (the middleware tells the page no tool's visibility). Default none. */
  allowedTools?: readonly string[];
  /**
   * Asked before an app opens a link (`ui/open-link`): resolve true to open it in a new tab. Default: the tile asks
   * the person ("Open <url>?").
   */
  confirmLink?: (url: string) => boolean | Promise<boolean>;
  /** The app's theme. Default: dark where the tile's Carbon background is dark, else light, following the chat's theme as it is switched. */
  theme?: "light" | "dark";
  /** The app's log (MCP's `notifications/message`), for the host's own diagnostics. Default: dropped. */
  onLog?: (entry: McpAppLogEntry, activityId: string) => void;
  limits?: Partial<McpAppLimits>;
  /** Times the app's start. Default: animation frames in a browser, else the async scheduler. */
  scheduler?: SchedulerLike;
}

/**
 * One MCP App, for the `user_defined` item `mcpApps()` made (`{ kind:
 * "mcp-app", activityId, toolName }`): a tile in Carbon's look that reads
 * the app's document from its server, frames the sandbox proxy from the
 * other origin and has it run the document there, then speaks the MCP Apps
 * protocol with it (`connectMcpApp`), telling it when the chat's theme or
 * width changes (`watchHostContext`). What goes wrong (a refused call, a
 * failed read, an app cut off) is said in the tile and to `onWarning`.
 * React hosts mount `element` from `renderUserDefinedResponse`;
 * `renderMcpApps` does it for the web component.
 */
export function createMcpApp(document: Document, data: McpAppData, options: McpAppOptions): RenderedCard {
  const { adapter, instance } = options;
  const { activityId } = data;
  const limits = { ...DEFAULT_MCP_APP_LIMITS, ...options.limits };
  useMcpAppStyles(document);
  const tile = create(document, "div", "cagr-mcp-app");
  tile.dataset.activityId = activityId;
  const status = create(document, "p", "cagr-mcp-app-status");
  status.setAttribute("role", "status");
  const linkPrompt = new LinkPrompt(document);
  tile.append(linkPrompt.element, status);
  const warn = (message: string) => adapter.warn(new AgUiMcpAppError(message, activityId));
  const say = (text: string) => {
    status.textContent = text;
  };

  const sandbox = sandboxOf(options.sandboxUrl, document);
  if (typeof sandbox === "string") {
    warn(`The MCP App is not drawn: ${sandbox}`);
    tile.hidden = true;
    return { element: tile, dispose: () => undefined };
  }

  const stopped = new AbortController();
  let connection: McpAppConnection | undefined;
  const contextOf = () => hostContextOf(tile, { maxHeight: limits.maxHeight, ...(options.theme && { theme: options.theme }) });
  const stopWatching = watchHostContext(tile, () => connection?.setHostContext(contextOf()));
  const frame = document.createElement("iframe");
  frame.className = "cagr-mcp-app-frame";
  // The proxy keeps its own origin (not the page's), runs scripts, and may neither navigate the page nor open windows.
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  frame.setAttribute("referrerpolicy", "no-referrer");
  // In the tile from the start, at a first guess of its height, so Carbon lays the answer out once more at most (at the app's own height).
  frame.style.height = `${limits.minHeight * 3}px`;
  frame.title = "MCP App (loading)";
  tile.prepend(frame);

  const cutOff = (reason: string) => {
    stopWatching();
    connection?.close();
    frame.remove();
    linkPrompt.cancel();
    say(`This app was stopped: ${reason}.`);
    warn(`The MCP App was stopped: ${reason}`);
  };
  const start = async () => {
    const activity = await firstValueFrom(adapter.activity$(activityId).pipe(filter((value) => value !== undefined), take(1), map((value) => value!.content)));
    const content = mcpAppContentOf(activity);
    if (typeof content === "string") throw new AgUiMcpAppError(`The MCP App cannot be shown: ${content}`, activityId);
    const ask = (asked: Omit<McpProxiedRequest, "serverId" | "serverHash">) => adapter.mcpRequest({ ...server(content), ...asked }, activityId, { signal: stopped.signal });
    const document_ = await appDocument(await ask({ method: "resources/read", params: { uri: content.resourceUri } }), content.resourceUri, limits.maxHtmlBytes, activityId);
    if (stopped.signal.aborted) return;
    const callable = new Set([...(data.toolName ? [data.toolName] : []), ...(options.allowedTools ?? [])]);
    connection = connectMcpApp({
      frame,
      sandboxOrigin: sandbox.origin,
      content,
      ...document_,
      hostContext: contextOf(),
      callable,
      limits,
      scheduler: options.scheduler ?? frameScheduler(),
      host: {
        request: (asked) =>
          ask(asked).catch((error: unknown) => {
            warn(asCarbonAgUiError(error).message);
            throw error;
          }),
        sendMessage: (text) => void instance.send({ input: { text } }).catch((error: unknown) => warn(`The app's message could not be sent: ${asCarbonAgUiError(error).message}`)),
        confirmLink: (url) => (options.confirmLink ? Promise.resolve(options.confirmLink(url)) : linkPrompt.ask(url)),
        resize: (height) => {
          frame.style.height = `${boundedHeight(height, limits)}px`;
        },
        cutOff,
        warn,
        ...(options.onLog && { log: (entry: McpAppLogEntry) => options.onLog!(entry, activityId) }),
      },
    });
    // Listened for by now: the proxy may load.
    frame.title = `MCP App ${content.resourceUri}`;
    frame.src = `${sandbox.href.split("#")[0]}#host=${encodeURIComponent(document.location.origin)}`;
  };
  start().catch((error: unknown) => {
    if (stopped.signal.aborted) return;
    const problem = asCarbonAgUiError(error);
    stopWatching();
    frame.remove();
    say(`This app could not be shown: ${problem.message}`);
    warn(problem.message);
  });
  return {
    element: tile,
    dispose() {
      stopped.abort();
      stopWatching();
      linkPrompt.cancel();
      connection?.close();
      frame.remove();
    },
  };
}

/** The sandbox's URL when it may be used (http(s), another origin than the page's), else why not. */
function sandboxOf(url: string | URL | undefined, document: Document): URL | string {
  if (url === undefined || url === "") return "no sandboxUrl was given (the sandbox proxy must be served from another origin than the page's)";
  let parsed: URL;
  try {
    parsed = new URL(url, document.location.href);
  } catch {
    return "its sandboxUrl is not a URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "its sandboxUrl is not http(s)";
  if (parsed.origin === document.location.origin) return `its sandbox ${parsed.origin} is on the page's own origin; MCP Apps require another`;
  return parsed;
}

/** The server, as the activity names it, for the proxied requests. */
function server(content: McpAppContent): { serverId?: string; serverHash?: string } {
  return { ...(content.serverId !== undefined && { serverId: content.serverId }), ...(content.serverHash !== undefined && { serverHash: content.serverHash }) };
}

/** The app's HTML and declared policy from a `resources/read` answer, within `maxHtmlBytes`. */
async function appDocument(answer: unknown, uri: string, maxHtmlBytes: number, activityId: string): Promise<{ html: string; csp?: McpUiResourceCsp }> {
  const contents = isRecord(answer) && Array.isArray(answer.contents) ? (answer.contents as unknown[]) : [];
  const resource = contents.find((item): item is Record<string, unknown> => isRecord(item) && (item.uri === undefined || item.uri === uri)) ?? (isRecord(contents[0]) ? contents[0] : undefined);
  const html = typeof resource?.text === "string" ? resource.text : typeof resource?.blob === "string" && resource.blob.length <= (maxHtmlBytes * 4) / 3 + 4 ? decodeBase64(resource.blob) : undefined;
  if (html === undefined) throw new AgUiMcpAppError(`The server sent no document for ${uri}`, activityId);
  if (html.length > maxHtmlBytes) throw new AgUiMcpAppError(`The document of ${uri} is larger than ${maxHtmlBytes} characters`, activityId);
  const meta = isRecord(resource?._meta) && isRecord(resource._meta.ui) ? resource._meta.ui : undefined;
  return { html, ...(isRecord(meta?.csp) && { csp: meta.csp as McpUiResourceCsp }) };
}

function decodeBase64(blob: string): string {
  const bytes = Uint8Array.from(atob(blob), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The tile's question whether the app may open a link: Open or Cancel. A later ask, a cut-off or the tile's end answers an earlier one with Cancel. */
class LinkPrompt {
  readonly element: HTMLElement;
  private answer: ((open: boolean) => void) | undefined;

  constructor(private readonly document: Document) {
    this.element = create(document, "div", "cagr-mcp-app-prompt");
    this.element.hidden = true;
  }

  ask(url: string): Promise<boolean> {
    this.cancel();
    return new Promise((resolve) => {
      const open = button(this.document, "Open", "open-link", "primary");
      const cancel = button(this.document, "Cancel", "cancel-link", "ghost");
      this.answer = (opened) => {
        this.answer = undefined;
        this.element.hidden = true;
        this.element.replaceChildren();
        resolve(opened);
      };
      open.addEventListener("click", () => this.answer?.(true));
      cancel.addEventListener("click", () => this.answer?.(false));
      const question = create(this.document, "p", "cagr-mcp-app-question", "The app asks to open ");
      question.append(create(this.document, "span", "cagr-mcp-app-link", url), "?");
      const buttons = create(this.document, "div", "cagr-mcp-app-buttons");
      buttons.append(open, cancel);
      this.element.replaceChildren(question, buttons);
      this.element.hidden = false;
    });
  }

  cancel(): void {
    this.answer?.(false);
  }
}
