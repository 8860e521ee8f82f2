import type { BaseEvent } from "@ag-ui/core";
import { agUiToCarbon, type AgUiToCarbonOptions } from "carbon-agui-rx";
import { asyncScheduler, type Observable } from "rxjs";
import { TestScheduler, type RunHelpers } from "rxjs/testing";
import { TEST_RESPONSE_ID } from "./carbon";
import { CarbonRecorder } from "./recorder";

export interface CarbonExpectation {
  /** The Carbon chunks, as a marble (frames as in `TestScheduler.run`). */
  toBe(marble: string, values?: Record<string, unknown>, error?: unknown): void;
  /** What a person would see once the stream is done (`CarbonRecorder.transcript()`). */
  toShow(transcript: string): void;
}

export interface MarbleTestHelpers extends RunHelpers {
  /** A cold AG-UI event stream. */
  agent(marble: string, values?: Record<string, BaseEvent>, error?: unknown): Observable<BaseEvent>;
  /** Runs the events through `agUiToCarbon()` (response id "r1", deltas merged per virtual frame, your options added) and asserts what comes out. */
  expectCarbon(events: Observable<BaseEvent>, options?: AgUiToCarbonOptions): CarbonExpectation;
}

export interface MarbleTestOptions {
  /** How to compare; throw on a difference. Default: a deep equality that ignores undefined fields and compares errors by name and message. Pass jest's `(a, e) => expect(a).toEqual(e)` for its diffs. */
  assertDeepEqual?: (actual: unknown, expected: unknown) => void;
}

/**
 * Marble-tests what an agent's events become in Carbon, in virtual time, with
 * any test runner (it throws on a mismatch):
 *
 * ```ts
 * marbleTest(({ agent, expectCarbon }) => {
 *   const events = agent("a-b-(cd|)", { a: ev.runStarted(), b: ev.textStart("m1"), c: ev.text("m1", "Hi"), d: ev.textEnd("m1") });
 *   expectCarbon(events).toShow("Assistant: Hi");
 * });
 * ```
 */
export function marbleTest(body: (helpers: MarbleTestHelpers) => void, options: MarbleTestOptions = {}): void {
  const assertDeepEqual = options.assertDeepEqual ?? assertEqual;
  const afterFlush: (() => void)[] = [];
  new TestScheduler(assertDeepEqual).run((helpers) => {
    body({
      ...helpers,
      agent: (marble, values, error) => helpers.cold(marble, values, error),
      expectCarbon: (events, pipelineOptions = {}) => {
        // Deltas merge per virtual frame: production's 100 ms window would swallow every marble's deltas into one.
        // The async scheduler, which run() makes virtual, even where requestAnimationFrame exists (jsdom, browsers).
        const chunks = events.pipe(agUiToCarbon({ responseId: TEST_RESPONSE_ID, coalesce: { scheduler: asyncScheduler, intervalMs: 0 }, ...pipelineOptions }));
        return {
          toBe: (marble, values, error) => helpers.expectObservable(chunks).toBe(marble, values, error),
          toShow: (transcript) => {
            const recorder = new CarbonRecorder();
            chunks.subscribe({ next: (chunk) => void recorder.messaging.addMessageChunk(chunk), error: () => undefined });
            afterFlush.push(() => assertDeepEqual(recorder.transcript(), transcript));
          },
        };
      },
    });
  });
  for (const check of afterFlush) check();
}

function assertEqual(actual: unknown, expected: unknown): void {
  if (deepEqual(actual, expected)) return;
  const show = (value: unknown) => JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Error ? { name: inner.name, message: inner.message } : inner), 2);
  throw new Error(`Expected:\n${show(expected)}\nReceived:\n${show(actual)}`);
}

function deepEqual(actual: unknown, expected: unknown): boolean {
  if (Object.is(actual, expected)) return true;
  if (actual instanceof Error && expected instanceof Error) return actual.name === expected.name && actual.message === expected.message;
  if (typeof actual !== "object" || typeof expected !== "object" || actual === null || expected === null) return false;
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  const keys = (value: object) => Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
  const actualKeys = keys(actual);
  const expectedKeys = keys(expected);
  return actualKeys.length === expectedKeys.length && expectedKeys.every((key) => deepEqual((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]));
}
