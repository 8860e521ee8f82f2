import { errorFromProblem, ToolProtocolError, type Problem, type ToolArgumentProblem, type ToolServerError } from "./errors";
import { isRecord } from "../internal/isRecord";

/**
 * Reads a whole body, refusing it past `maxBytes` as soon as the count is
 * passed (the rest is never read: the stream is cancelled).
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
}

const tooLarge = (maxBytes: number) => new ToolProtocolError(`The tool server's response is larger than maxResponseSize (${maxBytes} bytes)`);

/** Parses a JSON success body. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ToolProtocolError(`The tool server's answer to ${what} is not JSON`);
  }
}

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP dates start with the day's name in all three forms RFC 9110 allows.
  const date = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The typed error for an error answer. A body that is not an RFC 9457 problem
 * (a proxy's HTML page, say) becomes `about:blank` with the status.
 */
export function errorFromResponse(response: Response, text: string, now: number): ToolServerError {
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), now);
  return errorFromProblem(readProblem(text, response.status, response.statusText), response.status, retryAfterMs);
}

function readProblem(text: string, status: number, statusText: string): Problem {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!isRecord(body) || (typeof body.type !== "string" && typeof body.title !== "string" && typeof body.kind !== "string")) {
    return { type: "about:blank", status, title: statusText || `HTTP ${status}` };
  }
  const problem: Problem = { ...body, type: typeof body.type === "string" ? body.type : "about:blank" };
  // Members RFC 9457 types as strings, and `errors` as a list, are dropped when they are not: they may echo the input.
  for (const member of ["title", "detail", "instance", "kind"] as const) if (typeof body[member] !== "string") delete problem[member];
  if (Array.isArray(body.errors)) problem.errors = body.errors.map(argumentProblem);
  else delete problem.errors;
  return problem;
}

/**
 * One argument error, keeping where and why but never the value: servers
 * such as pydantic echo the refused `input` (and `ctx`), which may be secret.
 */
function argumentProblem(entry: unknown): ToolArgumentProblem {
  if (!isRecord(entry)) return { path: "", message: String(entry) };
  const location = Array.isArray(entry.loc) ? `/${entry.loc.map((part) => String(part).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}` : entry.path;
  const message = entry.message ?? entry.msg;
  const result: ToolArgumentProblem = { path: typeof location === "string" ? location : "", message: typeof message === "string" ? message : "invalid" };
  if (typeof entry.type === "string") result.type = entry.type;
  return result;
}
