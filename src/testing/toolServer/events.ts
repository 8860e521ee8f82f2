import type { ServerResponse } from "node:http";
import type { StreamFault } from "./faults";

export interface LoggedEvent {
  id: string;
  event: string;
  /** The data, already serialised as one line of JSON. */
  data: string;
}

/** A run's events: ids "1", "2", … and the last `capacity` of them kept for `Last-Event-ID` replay. */
export class EventLog {
  private readonly entries: LoggedEvent[] = [];
  private sequence = 0;
  ended = false;

  constructor(private readonly capacity: number) {}

  append(event: string, data: unknown): LoggedEvent {
    const entry = { id: String(++this.sequence), event, data: JSON.stringify(data ?? null) };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
    return entry;
  }

  /** What a subscriber missed: the events after `lastEventId`, or all that are kept when that id is not among them. */
  after(lastEventId: string | undefined): LoggedEvent[] {
    const index = lastEventId === undefined ? -1 : this.entries.findIndex((entry) => entry.id === lastEventId);
    return this.entries.slice(index + 1);
  }

  /** The `end` event, once the run has ended (always the newest entry, so never evicted). */
  get endEvent(): LoggedEvent | undefined {
    return this.ended ? this.entries.at(-1) : undefined;
  }
}

export interface StreamOptions {
  keepAliveMs: number;
  retryMs: number | undefined;
}

const CRLF = "\r\n";

/**
 * One open `text/event-stream` response, framed as sse-starlette frames it
 * (CRLF, `id` / `event` / `data` in that order, `: ping - <date>` comments),
 * with at most one injected fault bending how it is written.
 */
export class EventStream {
  private written = 0;
  private silent = false;
  private readonly keepAlive: NodeJS.Timeout;

  constructor(
    readonly response: ServerResponse,
    private fault: StreamFault | undefined,
    options: StreamOptions,
  ) {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
      connection: "keep-alive",
    });
    response.flushHeaders();
    if (fault?.type === "go-silent" && fault.afterEvents === 0) this.silent = true;
    if (options.retryMs !== undefined) this.write(`retry: ${options.retryMs}${CRLF}${CRLF}`);
    this.keepAlive = setInterval(() => this.write(`: ping - ${new Date().toISOString()}${CRLF}${CRLF}`), options.keepAliveMs).unref();
    response.once("close", () => clearInterval(this.keepAlive));
  }

  /** Whether this stream still wants events. */
  get open(): boolean {
    return !this.response.destroyed && !this.response.writableEnded;
  }

  send(entry: LoggedEvent): void {
    const fault = this.fault;
    if (fault?.type === "go-silent" && this.written >= fault.afterEvents) this.silent = true;
    if (this.silent || !this.open) return;
    const frame = this.frame(entry);
    if (fault?.type === "drop-mid-frame" && this.written >= fault.afterEvents) {
      // Destroyed only once the half frame is flushed: destroying at once would discard it unsent.
      this.silent = true;
      this.response.write(frame.slice(0, Math.max(1, Math.floor(frame.length / 2))), () => this.response.destroy());
      return;
    }
    this.write(frame);
    this.written++;
  }

  /** Ends the response after the `end` event (a silenced stream stays open: that is its fault). */
  finish(): void {
    if (!this.silent) this.response.end();
  }

  private frame(entry: LoggedEvent): string {
    const head = `id: ${entry.id}${CRLF}event: ${entry.event}${CRLF}`;
    const fault = this.fault;
    if (entry.event === "end" && fault?.type === "data-less-end") return head + CRLF;
    let data = entry.data;
    if (fault?.type === "oversized-event") data = padded(fault.bytes);
    if (fault?.type === "non-json-event") data = "this is {not JSON";
    if (fault?.type === "oversized-event" || fault?.type === "non-json-event") this.fault = undefined;
    return `${head}data: ${data}${CRLF}${CRLF}`;
  }

  private write(text: string): void {
    if (!this.silent && this.open) this.response.write(text);
  }
}

/** A JSON object of exactly `bytes` bytes (or the smallest one, `{"padding":""}`, when that is fewer). */
export function padded(bytes: number): string {
  const shell = '{"padding":""}';
  return `{"padding":"${"x".repeat(Math.max(0, bytes - shell.length))}"}`;
}
