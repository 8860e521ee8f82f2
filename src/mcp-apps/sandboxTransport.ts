import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The notification the sandbox proxy sends when it has closed the app's frame (the app navigated it away). */
export const SANDBOX_CLOSED = "carbon-agui-rx/sandbox-closed";

export interface SandboxTransportOptions {
  /** The sandbox proxy's frame: messages come from its window alone, and go to it alone. */
  frame: HTMLIFrameElement;
  /** The proxy's origin: messages from any other are dropped, and the page's go to it only. */
  origin: string;
  /** Sees each message of the app's as it comes, with its size; false cuts the app off (the message is dropped). */
  admit: (bytes: number) => boolean;
  /** The proxy closed the app's frame, and says why. */
  onSandboxClosed: (reason: string) => void;
}

/**
 * The MCP SDK `Transport` between the page and the sandbox proxy's frame, for
 * `AppBridge`: unlike the SDK's `PostMessageTransport` (which posts to "*"
 * and checks only the source window) it posts to the proxy's origin and takes
 * only messages of the proxy's window from that origin, each within the
 * host's limits, each a JSON-RPC message.
 */
export class SandboxTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private closed = false;

  constructor(private readonly options: SandboxTransportOptions) {}

  private readonly listen = (event: MessageEvent) => {
    const { frame, origin, admit, onSandboxClosed } = this.options;
    if (this.closed || event.source !== frame.contentWindow || event.origin !== origin) return;
    if (!admit(sizeOf(event.data))) return;
    const data = event.data as { method?: unknown; params?: { reason?: unknown } } | null;
    if (data?.method === SANDBOX_CLOSED) return onSandboxClosed(typeof data.params?.reason === "string" ? data.params.reason : "the sandbox closed the app");
    const parsed = JSONRPCMessageSchema.safeParse(event.data);
    if (!parsed.success) return this.onerror?.(new Error("The app sent a message that is not JSON-RPC"));
    this.onmessage?.(parsed.data);
  };

  async start(): Promise<void> {
    this.options.frame.ownerDocument.defaultView?.addEventListener("message", this.listen);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.closed) this.options.frame.contentWindow?.postMessage(message, this.options.origin);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.options.frame.ownerDocument.defaultView?.removeEventListener("message", this.listen);
    this.onclose?.();
  }
}

/** A message's size as JSON (what the host's limit counts); one that JSON cannot say counts as too large. */
function sizeOf(data: unknown): number {
  try {
    return JSON.stringify(data)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
