import { Observable, type SchedulerLike, type Subscription } from "rxjs";
import { errorFromResponse, parseJson, readBoundedText } from "./body";
import { ToolProtocolError, ToolTransportError } from "./errors";

export type HttpMethod = "GET" | "POST";

/** Everything one request needs besides what it asks. */
export interface Transport {
  /** The base URL's href, without a trailing slash. */
  base: string;
  /** Resolves the bearer token for one attempt (undefined: no header). */
  token(): Promise<string | undefined>;
  fetch: typeof fetch;
  timeoutMs: number;
  maxResponseSize: number;
  scheduler: SchedulerLike;
}

export interface RequestSpec {
  method: HttpMethod;
  /** The route after the base URL, starting with "/", its segments already encoded. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  headers?: Record<string, string>;
  /** Names the call in error messages ("invoke add"). */
  what: string;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/**
 * One attempt, as a cold Observable: each subscription makes a fresh request
 * (with a fresh token), bounded by `timeoutMs`; unsubscribing aborts it.
 */
export function attempt$(transport: Transport, spec: RequestSpec): Observable<JsonAnswer> {
  return new Observable<JsonAnswer>((subscriber) => {
    const controller = new AbortController();
    let timedOut = false;
    // The timeout ends the attempt itself: a token function or a fetch that ignores the abort cannot hold it open.
    const timeout = scheduleTimeout(transport.scheduler, transport.timeoutMs, () => {
      timedOut = true;
      controller.abort();
      subscriber.error(new ToolTransportError(`${spec.what}: no answer within ${transport.timeoutMs} ms`, "timeout", true));
    });
    const send = async (): Promise<JsonAnswer> => {
      const response = await sendRequest(transport, spec, controller.signal, () => timedOut);
      return { status: response.status, body: parseJson(await readBody(response, transport, spec, () => timedOut), spec.what) };
    };

    send().then(
      (answer) => {
        subscriber.next(answer);
        subscriber.complete();
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      timeout?.unsubscribe();
      controller.abort();
    };
  });
}

/**
 * One path segment, percent-encoded. "." and ".." are refused rather than
 * encoded: the URL parser removes them, and their `%2e` spellings too, so no
 * encoding keeps them in the path; "" would leave an empty segment. A lone
 * surrogate cannot be encoded. Each is a `TypeError` naming `name`.
 */
export function pathSegment(value: string, name: string): string {
  if (typeof value !== "string" || value === "" || value === "." || value === "..") throw new TypeError(`ToolClient: ${name} must be a string other than "", "." and ".." (a URL would drop it from the path)`);
  // In u-mode a surrogate pair is one code point, so this matches lone surrogates only.
  if (/[\uD800-\uDFFF]/u.test(value)) throw new TypeError(`ToolClient: ${name} contains a lone surrogate, which a URL cannot carry`);
  return encodeURIComponent(value);
}

/** Visible ASCII, spaces and tabs: what any fetch sends as a header value unchanged. */
export const canBeHeader = (value: string): boolean => /^[\t\x20-\x7e]*$/.test(value);

/** Timers cannot wait 2^31 ms or more (they would fire at once): such a wait, or Infinity, means no timeout. */
export const NO_TIMEOUT_FROM_MS = 2 ** 31;
/** The longest wait a timer can make; every backoff and server-asked delay is capped at it or not waited for. */
export const MAX_TIMER_MS = NO_TIMEOUT_FROM_MS - 1;

/** Schedules `work` after `milliseconds`, unless that is no timeout at all. */
export function scheduleTimeout(scheduler: SchedulerLike, milliseconds: number, work: () => void): Subscription | undefined {
  return milliseconds >= NO_TIMEOUT_FROM_MS ? undefined : scheduler.schedule(work, milliseconds);
}

/** A positive number of milliseconds, or Infinity; a `TypeError` naming the option otherwise. */
export function checkedDuration(name: string, value: number | undefined, fallback: number): number {
  return checkedPositive(name, value, fallback, "milliseconds");
}

/** A positive number of bytes, or Infinity (no bound); a `TypeError` naming the option otherwise (NaN would switch the bound off). */
export function checkedSize(name: string, value: number | undefined, fallback: number): number {
  return checkedPositive(name, value, fallback, "bytes");
}

function checkedPositive(name: string, value: number | undefined, fallback: number, unit: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0)) throw new TypeError(`ToolClient: ${name} must be a positive number of ${unit}, or Infinity`);
  return value;
}

/**
 * Sends one request with the bearer token: the response when its status is
 * 2xx (its body not read yet), the typed error otherwise. A request that
 * fails on the network is a `ToolTransportError` (`timedOut()` tells a
 * timeout from a reset).
 */
export async function sendRequest(transport: Transport, spec: RequestSpec, signal: AbortSignal, timedOut: () => boolean = () => false): Promise<Response> {
  const token = await transport.token();
  const headers: Record<string, string> = { accept: "application/json", ...spec.headers };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (spec.body !== undefined) headers["content-type"] = "application/json";
  const query = spec.query?.toString();
  let response: Response;
  try {
    response = await transport.fetch(`${transport.base}${spec.path}${query ? `?${query}` : ""}`, {
      method: spec.method,
      headers,
      body: spec.body === undefined ? null : JSON.stringify(spec.body),
      // The protocol has no redirects: following one would re-send the arguments, the token's request and the
      // Idempotency-Key to wherever the server points, and take that place's answer as the tool's.
      redirect: "manual",
      signal,
    });
  } catch (error) {
    throw transportError(error, timedOut(), spec, transport.timeoutMs, reachedServer(error));
  }
  // A browser shows a manual redirect as an opaque response with status 0.
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel().catch(() => undefined);
    throw new ToolProtocolError(`${spec.what}: the tool server answered with a redirect (${response.status || "opaque"}), which the protocol does not have`);
  }
  if (!response.ok) throw errorFromResponse(response, await readBody(response, transport, spec, timedOut, true), transport.scheduler.now());
  return response;
}

/**
 * The whole body, bounded by `maxResponseSize` (an error body is cut there,
 * so its status still decides); a connection that breaks while it is read is
 * a `ToolTransportError`.
 */
async function readBody(response: Response, transport: Transport, spec: RequestSpec, timedOut: () => boolean, truncate = false): Promise<string> {
  try {
    return await readBoundedText(response, transport.maxResponseSize, truncate);
  } catch (error) {
    throw error instanceof ToolProtocolError ? error : transportError(error, timedOut(), spec, transport.timeoutMs, true);
  }
}

function transportError(error: unknown, timedOut: boolean, spec: RequestSpec, timeoutMs: number, reached: boolean): ToolTransportError {
  return timedOut
    ? new ToolTransportError(`${spec.what}: no answer within ${timeoutMs} ms`, "timeout", true, { cause: error })
    : new ToolTransportError(`${spec.what}: the request failed on the network`, "network", reached, { cause: error });
}

// Error codes (Node, undici) that mean no connection was ever made, so the server saw nothing.
const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * False only when the error proves the connection was never made. A browser's
 * "Failed to fetch" says nothing, so it counts as reached: a POST is then not retried.
 */
export function reachedServer(error: unknown): boolean {
  const seen = new Set<unknown>();
  const neverConnected = (candidate: unknown): boolean => {
    if (typeof candidate !== "object" || candidate === null || seen.has(candidate)) return false;
    seen.add(candidate);
    const { code, errors, cause } = candidate as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === "string" && NEVER_CONNECTED.has(code)) return true;
    // Happy eyeballs: every address was refused.
    if (Array.isArray(errors) && errors.length > 0 && errors.every(neverConnected)) return true;
    return neverConnected(cause);
  };
  return !neverConnected(error);
}
