import { asyncScheduler, defer, Observable, throwError } from "rxjs";
import { parseRetryAfter } from "../../src/tool-client/body";
import { errorFromProblem, ToolProtocolError, ToolServerError, ToolTransportError } from "../../src/tool-client/errors";
import { reachedServer, type HttpMethod } from "../../src/tool-client/http";
import { retryDelay, retryPolicy } from "../../src/tool-client/retryPolicy";
import { testScheduler } from "../support/marbles";

const policy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };
const noJitter = () => 0;

const status = (code: number, retryAfterMs?: number) => errorFromProblem({ type: "about:blank", status: code }, code, retryAfterMs);
const budgetExceeded = (retryAfterMs?: number) => errorFromProblem({ type: "urn:tool-server:problem:budget-exceeded", kind: "budget-exceeded" }, 429, retryAfterMs);
const reset = () => new ToolTransportError("reset", "network", true);
const refused = () => new ToolTransportError("refused", "network", false);
const timedOut = () => new ToolTransportError("timed out", "timeout", true);

/**
 * Attempts that fail with `errors` in turn and then answer "a"; records the
 * virtual time of each attempt.
 */
function attempts(errors: unknown[], now: () => number): { source: Observable<string>; times: number[] } {
  const times: number[] = [];
  let next = 0;
  const source = defer(() => {
    times.push(now());
    const error = errors[next++];
    return error === undefined ? new Observable<string>((subscriber) => (subscriber.next("a"), subscriber.complete())) : throwError(() => error);
  });
  return { source, times };
}

describe("retryPolicy", () => {
  const runRow = (method: HttpMethod, error: unknown) => {
    const scheduler = testScheduler();
    let outcome: { times: number[]; failed: unknown } = { times: [], failed: undefined };
    scheduler.run(({ flush }) => {
      const { source, times } = attempts([error], () => scheduler.now());
      let failed: unknown;
      source.pipe(retryPolicy(method, policy, scheduler, noJitter)).subscribe({ error: (e: unknown) => (failed = e) });
      flush();
      outcome = { times, failed };
    });
    return outcome;
  };

  describe.each<[string, () => unknown, boolean, boolean]>([
    // what failed              error                         GET retried  POST retried
    ["network error (reset)", reset, true, false],
    ["connection never made", refused, true, true],
    ["timeout", timedOut, true, false],
    ["408", () => status(408), true, false],
    ["429 with Retry-After", () => status(429, 2_000), true, true],
    ["429 without Retry-After", () => status(429), true, false],
    ["429 budget-exceeded with Retry-After (the budget recovers then)", () => budgetExceeded(2_000), true, true],
    ["429 budget-exceeded without Retry-After (it does not recover)", () => budgetExceeded(), false, false],
    ["502", () => status(502), true, false],
    ["503 with Retry-After", () => status(503, 2_000), true, true],
    ["503 without Retry-After", () => status(503), true, false],
    ["504", () => status(504), true, false],
    ["500", () => status(500), false, false],
    ["400", () => status(400), false, false],
    ["401", () => status(401), false, false],
    ["403", () => status(403), false, false],
    ["404", () => status(404), false, false],
    ["409", () => status(409), false, false],
    ["422", () => status(422), false, false],
    ["an answer that breaks the protocol", () => new ToolProtocolError("not JSON"), false, false],
  ])("after %s", (_what, makeError, getRetried, postRetried) => {
    it.each<[HttpMethod, boolean]>([
      ["GET", getRetried],
      ["POST", postRetried],
    ])("%s is retried: %s", (method, retried) => {
      const error = makeError();
      const { times, failed } = runRow(method, error);
      if (retried) {
        const wait = error instanceof ToolServerError && error.retryAfterMs !== undefined ? error.retryAfterMs : policy.baseDelayMs;
        expect(times).toEqual([0, wait]);
        expect(failed).toBeUndefined();
      } else {
        expect(times).toEqual([0]);
        expect(failed).toBe(error);
      }
    });
  });

  it("waits Retry-After given as seconds or as an HTTP date (read against the scheduler's clock)", () => {
    for (const header of ["7", "Thu, 01 Jan 1970 00:00:07 GMT"]) {
      const scheduler = testScheduler();
      scheduler.run(({ expectObservable }) => {
        const { source } = attempts([status(429, parseRetryAfter(header, scheduler.now()))], () => scheduler.now());
        expectObservable(source.pipe(retryPolicy("POST", policy, scheduler, noJitter))).toBe("7s (a|)");
      });
    }
  });

  it("backs off exponentially with up to 25 % jitter, capped at maxDelayMs, then gives up after maxRetries", () => {
    for (const [random, expected] of [
      [() => 0, [0, 500, 1_500, 3_000]],
      [() => 1, [0, 375, 1_125, 2_250]],
    ] as const) {
      const scheduler = testScheduler();
      scheduler.run(({ flush }) => {
        const error = reset();
        const { source, times } = attempts([error, error, error, error], () => scheduler.now());
        let failed: unknown;
        source.pipe(retryPolicy("GET", { ...policy, maxDelayMs: 1_500 }, scheduler, random)).subscribe({ error: (e: unknown) => (failed = e) });
        flush();
        expect(times).toEqual(expected);
        expect(failed).toBe(error);
      });
    }
  });

  it("does not wait for a Retry-After longer than maxDelayMs: the error (with its retryAfterMs) goes to the caller", () => {
    for (const error of [status(429, 60_000), budgetExceeded(60_000)]) {
      for (const method of ["GET", "POST"] as const) {
        expect(runRow(method, error)).toEqual({ times: [0], failed: error });
      }
    }
  });

  it("does not wait for a Retry-After a timer cannot wait (2^31 ms or more), even with maxDelayMs: Infinity", () => {
    const unbounded = { maxRetries: Infinity, baseDelayMs: 500, maxDelayMs: Infinity };
    for (const method of ["GET", "POST"] as const) {
      expect(retryDelay(method, status(503, 2 ** 31), 1, unbounded, noJitter)).toBeUndefined();
      expect(retryDelay(method, status(503, 2 ** 31 - 1), 1, unbounded, noJitter)).toBe(2 ** 31 - 1);
    }
    // Backoff is capped below 2^31 ms too, however many retries in.
    expect(retryDelay("GET", reset(), 80, unbounded, noJitter)).toBe(2 ** 31 - 1);
  });

  it("never retries when the policy is false", () => {
    const scheduler = testScheduler();
    scheduler.run(({ expectObservable }) => {
      const { source, times } = attempts([refused()], () => scheduler.now());
      expectObservable(source.pipe(retryPolicy("GET", false, scheduler))).toBe("#", undefined, refused());
      expect(times).toEqual([]);
    });
  });

  it("answers with the first attempt that succeeds and unsubscribes from every attempt", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold("  --#", undefined, status(503));
      const second = cold("       -a|");
      const sources = [first, second];
      const source = defer(() => sources.shift()!);
      expectObservable(source.pipe(retryPolicy("GET", { ...policy, baseDelayMs: 3 }, asyncScheduler, noJitter))).toBe("------a|");
      expectSubscriptions(first.subscriptions).toBe("  ^-!");
      expectSubscriptions(second.subscriptions).toBe("-----^-!");
    });
  });

  it("stops the pending attempt and the backoff timer when unsubscribed", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold("  --#", undefined, status(503));
      const second = cold("       -a|");
      const sources = [first, second];
      const source = defer(() => sources.shift()!);
      expectObservable(source.pipe(retryPolicy("GET", { ...policy, baseDelayMs: 3 }, asyncScheduler, noJitter)), "^---!").toBe("-");
      expectSubscriptions(first.subscriptions).toBe("  ^-!");
      expectSubscriptions(second.subscriptions).toBe([]);
    });
  });
});

describe("retryDelay", () => {
  it("grows the backoff from the retry count, whatever failed before", () => {
    expect([1, 2, 3, 4, 10].map((count) => retryDelay("GET", reset(), count, policy, noJitter))).toEqual([500, 1_000, 2_000, 4_000, 30_000]);
  });
});

describe("reachedServer", () => {
  const fetchFailed = (cause: unknown) => Object.assign(new TypeError("fetch failed"), { cause });
  it.each([
    ["ECONNREFUSED", false],
    ["ENOTFOUND", false],
    ["EAI_AGAIN", false],
    ["UND_ERR_CONNECT_TIMEOUT", false],
    ["ECONNRESET", true],
    ["UND_ERR_SOCKET", true],
  ])("undici's %s: %s", (code, reached) => {
    expect(reachedServer(fetchFailed(Object.assign(new Error(code), { code })))).toBe(reached);
  });

  it("is false when every address of a happy-eyeballs attempt was refused, true when one was reset", () => {
    const refusedAll = new AggregateError([Object.assign(new Error(), { code: "ECONNREFUSED" }), Object.assign(new Error(), { code: "ECONNREFUSED" })]);
    const oneReset = new AggregateError([Object.assign(new Error(), { code: "ECONNREFUSED" }), Object.assign(new Error(), { code: "ECONNRESET" })]);
    expect(reachedServer(fetchFailed(refusedAll))).toBe(false);
    expect(reachedServer(fetchFailed(oneReset))).toBe(true);
  });

  it("is true for a browser's wordless 'Failed to fetch' (a POST is then not retried)", () => {
    expect(reachedServer(new TypeError("Failed to fetch"))).toBe(true);
  });
});
