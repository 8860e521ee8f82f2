import type { SchedulerLike } from "rxjs";

/** What an MCP App may do before it is cut off, and how large it may grow. */
export interface McpAppLimits {
  /** Messages an app may send the page in one second. Default 100. */
  maxMessagesPerSecond: number;
  /** The largest message of an app's, as JSON. Default 1,000,000 characters. */
  maxMessageBytes: number;
  /** The largest app document its server may send. Default 5,000,000 characters. */
  maxHtmlBytes: number;
  /** How long an app has to initialize from the moment its tile connects to the sandbox. Default 10,000 ms. */
  initTimeoutMs: number;
  /** The bounds of the height an app asks for, in pixels. Default 48 and 800. */
  minHeight: number;
  maxHeight: number;
}

export const DEFAULT_MCP_APP_LIMITS: Readonly<McpAppLimits> = Object.freeze({
  maxMessagesPerSecond: 100,
  maxMessageBytes: 1_000_000,
  maxHtmlBytes: 5_000_000,
  initTimeoutMs: 10_000,
  minHeight: 48,
  maxHeight: 800,
});

/**
 * Counts an app's messages against `limits` on `scheduler`'s clock: the
 * function it returns takes each message's size and says why the app must
 * be cut off, or undefined while it keeps within them.
 */
export function messageGuard(limits: Pick<McpAppLimits, "maxMessagesPerSecond" | "maxMessageBytes">, scheduler: SchedulerLike): (bytes: number) => string | undefined {
  let windowStart = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  return (bytes) => {
    if (bytes > limits.maxMessageBytes) return `it sent a message of more than ${limits.maxMessageBytes} characters`;
    const now = scheduler.now();
    if (now - windowStart >= 1_000) {
      windowStart = now;
      inWindow = 0;
    }
    inWindow += 1;
    return inWindow > limits.maxMessagesPerSecond ? `it sent more than ${limits.maxMessagesPerSecond} messages in a second` : undefined;
  };
}

/** `height` within the limits' bounds. */
export function boundedHeight(height: number, limits: Pick<McpAppLimits, "minHeight" | "maxHeight">): number {
  return Math.min(limits.maxHeight, Math.max(limits.minHeight, Math.ceil(height)));
}
