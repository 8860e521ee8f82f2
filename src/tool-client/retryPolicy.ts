import { retry, throwError, timer, type MonoTypeOperatorFunction, type SchedulerLike } from "rxjs";
import { ToolServerError, ToolTransportError } from "./errors";
import { MAX_TIMER_MS, type HttpMethod } from "./http";
import type { RetryOptions } from "./types";

/**
 * The retry policy from the options: `false`, or every field set. A field
 * left `undefined` keeps its default; a negative or non-numeric one is a `TypeError`.
 */
export function retrySettings(options: RetryOptions | false | undefined, fallback: RetryPolicy | false = DEFAULT_RETRY): RetryPolicy | false {
  if (options === false) return false;
  if (options === undefined) return fallback;
  const base = fallback === false ? DEFAULT_RETRY : fallback;
  const field = (name: keyof RetryOptions): number => {
    const value = options[name];
    if (value === undefined) return base[name];
    if (typeof value !== "number" || Number.isNaN(value) || value < 0) throw new TypeError(`ToolClient: retry.${name} must be a number of at least 0`);
    return value;
  };
  return { maxRetries: field("maxRetries"), baseDelayMs: field("baseDelayMs"), maxDelayMs: field("maxDelayMs") };
}

/** The retry policy with every field set. */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

const GET_RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);
const POST_RETRY_STATUSES = new Set([429, 503]);

/**
 * How long to wait before retrying after `error`, or undefined to give up.
 * GETs retry network errors, timeouts and 408/429/502/503/504. A POST may
 * have run the tool, so it retries only a connection that was never made,
 * and a 429 or 503 that says when (`Retry-After`). A `budget-exceeded` is
 * retried only when it says when, since only the server knows whether its
 * budget recovers. A `Retry-After` longer than `maxDelayMs`, or than a timer
 * can wait (2^31 ms), is not waited for: the error goes to the caller.
 */
export function retryDelay(method: HttpMethod, error: unknown, retryCount: number, policy: RetryPolicy, random: () => number): number | undefined {
  const backoff = () => Math.min(policy.maxDelayMs, MAX_TIMER_MS, policy.baseDelayMs * 2 ** (retryCount - 1)) * (1 - 0.25 * random());
  if (error instanceof ToolTransportError) return method === "GET" || !error.reachedServer ? backoff() : undefined;
  if (!(error instanceof ToolServerError)) return undefined;
  const { status, retryAfterMs } = error;
  if (retryAfterMs === undefined ? error.kind === "budget-exceeded" : retryAfterMs > Math.min(policy.maxDelayMs, MAX_TIMER_MS)) return undefined;
  if (method === "GET") return GET_RETRY_STATUSES.has(status) ? (retryAfterMs ?? backoff()) : undefined;
  return POST_RETRY_STATUSES.has(status) ? retryAfterMs : undefined;
}

/**
 * The retry policy as an operator: resubscribes (a new attempt) after the
 * delay `retryDelay` gives, on `scheduler`; `false` never retries.
 */
export function retryPolicy<T>(method: HttpMethod, policy: RetryPolicy | false, scheduler: SchedulerLike, random: () => number = Math.random): MonoTypeOperatorFunction<T> {
  if (policy === false) return (source) => source;
  return retry({
    count: policy.maxRetries,
    delay: (error: unknown, retryCount) => {
      const delay = retryDelay(method, error, retryCount, policy, random);
      return delay === undefined ? throwError(() => error) : timer(delay, scheduler);
    },
  });
}
