import { errorFromProblem, ToolProtocolError, type Problem, type ToolArgumentProblem, type ToolServerError } from "./errors";
import { isRecord } from "../internal/isRecord";
import { readUpTo } from "../internal/readUpTo";

/**
 * Reads a whole body, refusing it past `maxBytes` as soon as the count is
 * passed (the rest is never read: the stream is cancelled). With `truncate`,
 * a longer body is cut at `maxBytes` instead of refused (an error page: its
 * status matters, not all of its text).
 */
export async function readBoundedText(response: Response, maxBytes: number, truncate = false): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > maxBytes && !truncate) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  const { text, cut } = await readUpTo(response, maxBytes);
  if (cut && !truncate) throw tooLarge(maxBytes);
  return text;
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

/**
 * `Retry-After` (RFC 9110 §10.2.3) as milliseconds from `now`: delay-seconds,
 * or an HTTP-date in any of its three forms (§5.6.7); undefined when absent or
 * anything else (`Date.parse` is not used: it reads "Later 5" as a date).
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = parseHttpDate(trimmed, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

const DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const LONG_DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const CLOCK = "(\\d{2}):(\\d{2}):(\\d{2})";
const MONTH = `(${MONTH_NAMES.join("|")})`;
// Sun, 06 Nov 1994 08:49:37 GMT
const IMF_FIXDATE = new RegExp(`^(?:${DAY_NAMES.join("|")}), (\\d{2}) ${MONTH} (\\d{4}) ${CLOCK} GMT$`);
// Sunday, 06-Nov-94 08:49:37 GMT
const RFC850_DATE = new RegExp(`^(?:${LONG_DAY_NAMES.join("|")}), (\\d{2})-${MONTH}-(\\d{2}) ${CLOCK} GMT$`);
// Sun Nov  6 08:49:37 1994
const ASCTIME_DATE = new RegExp(`^(?:${DAY_NAMES.join("|")}) ${MONTH} ((?:\\d| )\\d) ${CLOCK} (\\d{4})$`);

/** An HTTP-date as epoch milliseconds; undefined when it is not one, or names no real moment (31 Feb, 24:00). */
function parseHttpDate(text: string, now: number): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(Number(match[3]), match[2]!, Number(match[1]), match.slice(4));
  match = RFC850_DATE.exec(text);
  if (match) {
    // A two-digit year more than 50 years ahead is the most recent past year with those digits (§5.6.7).
    const thisYear = new Date(now).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(match[3]);
    const date = utc(year, match[2]!, Number(match[1]), match.slice(4));
    if (date === undefined || date - now <= FIFTY_YEARS_MS) return date;
    year -= 100;
    return utc(year, match[2]!, Number(match[1]), match.slice(4));
  }
  match = ASCTIME_DATE.exec(text);
  if (match) return utc(Number(match[6]), match[1]!, Number(match[2]!.trim()), match.slice(3, 6));
  return undefined;
}

const FIFTY_YEARS_MS = 50 * 365.25 * 24 * 3600 * 1000;

function utc(year: number, monthName: string, day: number, clock: string[]): number | undefined {
  const [hours, minutes, seconds] = clock.map(Number) as [number, number, number];
  const month = MONTH_NAMES.indexOf(monthName);
  // A leap second (60) is read as the next second's start, as Date.UTC does.
  if (hours > 23 || minutes > 59 || seconds > 60 || day < 1) return undefined;
  const date = new Date(Date.UTC(year, month, day, hours, minutes, seconds));
  // Date.UTC maps years 0–99 to 1900–1999; set the year itself.
  date.setUTCFullYear(year, month, day);
  return date.getUTCDate() === day ? date.getTime() : undefined;
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
