import type { ToolServer } from "../../../src/testing/toolServer";

export const ALICE = "alice-token";
export const BOB = "bob-token";
export const REVIEWER = "reviewer-token";

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** Reads a response whole, parsing JSON bodies (problem+json included). */
export async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  const json = /json/.test(response.headers.get("content-type") ?? "");
  return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text };
}

/** Raw fetch calls against the server, as one principal. */
export function as(server: ToolServer, token: string | undefined) {
  const auth: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url + path, { method: "POST", headers: { ...auth, "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return {
    get: (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers: { ...auth, ...headers } }).then(answer),
    post: (path: string, body: unknown, headers: Record<string, string> = {}) => post(path, body, headers).then(answer),
    /** POST …/invoke with an Idempotency-Key (a fresh one unless given). */
    invoke: (tool: string, body: unknown, key: string = crypto.randomUUID(), headers: Record<string, string> = {}) =>
      post(`/tools/${tool}/invoke`, body, { "idempotency-key": key, ...headers }).then(answer),
    /** The same, without reading the answer: for requests expected to fail at the socket. */
    invokeRaw: (tool: string, body: unknown, key: string) => post(`/tools/${tool}/invoke`, body, { "idempotency-key": key }),
    decide: (approvalId: string, body: unknown, headers: Record<string, string> = {}) => post(`/approvals/${approvalId}/decide`, body, headers).then(answer),
  };
}

export interface Frame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** Splits CRLF-framed SSE text into frames (the last, unterminated part is left out). */
export function frames(text: string): Frame[] {
  return text
    .split("\r\n\r\n")
    .slice(0, -1)
    .map((block) => {
      const frame: Frame = {};
      for (const line of block.split("\r\n")) {
        if (line.startsWith(":")) frame.comment = line.slice(1).trim();
        else {
          const [, field, value] = /^(\w+): ?(.*)$/.exec(line) ?? [];
          if (field !== undefined) frame[field as "id" | "event" | "data" | "retry"] = value ?? "";
        }
      }
      return frame;
    });
}

/** An open event stream, read as text with every wait bounded. */
export class EventReader {
  text = "";
  done = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  /** A read that outlived a wait stays pending for the next one, so no chunk is lost. */
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;

  constructor(readonly response: Response) {
    if (response.body === null) throw new Error("no body");
    this.reader = response.body.getReader();
  }

  static async open(server: ToolServer, runId: string, token = ALICE, headers: Record<string, string> = {}): Promise<EventReader> {
    const response = await fetch(`${server.url}/runs/${runId}/events`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", ...headers } });
    if (response.status !== 200) throw new Error(`events answered ${response.status}: ${await response.text()}`);
    return new EventReader(response);
  }

  get frames(): Frame[] {
    return frames(this.text);
  }

  get events(): Frame[] {
    return this.frames.filter((frame) => frame.event !== undefined);
  }

  /** Reads until `done(text)` holds, the stream ends, or `ms` pass (then throws, showing what came). */
  async until(done: (text: string) => boolean, ms = 2_000): Promise<string> {
    const deadline = Date.now() + ms;
    while (!done(this.text)) {
      if (this.done) throw new Error(`the stream ended first; it said ${JSON.stringify(this.text)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`gave up waiting; the stream said ${JSON.stringify(this.text)}`);
      await this.readOnce(left);
    }
    return this.text;
  }

  /** Reads to the end of the stream (bounded), returning how it ended. */
  async toEnd(ms = 2_000): Promise<"ended" | "errored"> {
    try {
      await this.until(() => this.done, ms);
      return "ended";
    } catch (error) {
      if (this.done) return "ended";
      if (String(error).includes("gave up")) throw error;
      return "errored";
    }
  }

  /** Reads what arrives within `ms`, without expecting anything. */
  async idle(ms: number): Promise<string> {
    const before = this.text.length;
    const deadline = Date.now() + ms;
    while (!this.done && Date.now() < deadline) await this.readOnce(deadline - Date.now());
    return this.text.slice(before);
  }

  cancel(): Promise<void> {
    return this.reader.cancel().catch(() => undefined);
  }

  private async readOnce(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
    try {
      this.pending ??= this.reader.read();
      const read = await Promise.race([this.pending, timeout]);
      if (read === "timeout") return;
      this.pending = undefined;
      if (read.done) this.done = true;
      else this.text += this.decoder.decode(read.value, { stream: true });
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Settles to "rejected" when fetch fails at the socket (reset, refused), else to the status. */
export async function outcome(request: Promise<Response>): Promise<number | "rejected"> {
  try {
    const response = await request;
    await response.arrayBuffer();
    return response.status;
  } catch {
    return "rejected";
  }
}
