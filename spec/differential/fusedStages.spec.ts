import { EventType, type BaseEvent } from "@ag-ui/core";
import fc from "fast-check";
import { Observable, take, type OperatorFunction } from "rxjs";
import { Conversation } from "../../src/conversation";
import { pipeFused } from "../../src/operators/fusion";
import { agUiToCarbonStages } from "../../src/operators/agUiToCarbon";
import { streamOf, streamSpec } from "./streams";

/** Events that break a rule: a schema (skipped), or the sequence (the turn fails). */
const junk: BaseEvent[] = [
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 5, delta: "x" } as unknown as BaseEvent,
  { type: "TELEPATHY" } as unknown as BaseEvent,
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "never-started", delta: "x" } as BaseEvent,
  { type: EventType.STATE_DELTA, delta: [{ op: "remove", path: "/missing" }] } as BaseEvent,
  { type: EventType.ACTIVITY_DELTA, messageId: "nobody", activityType: "plan", patch: [] } as BaseEvent,
];

const disturbance = fc.record(
  {
    /** Where to put a junk event, and which. */
    junkAt: fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat({ max: junk.length - 1 })),
    /** The source errors after this fraction of its events. */
    errorAt: fc.double({ min: 0, max: 1, noNaN: true }),
    /** The consumer unsubscribes after this many chunks. */
    takeChunks: fc.nat({ max: 12 }),
    /** onEvent throws on this event. */
    throwOnEvent: fc.nat({ max: 40 }),
  },
  { requiredKeys: [] },
);

interface Observed {
  notifications: unknown[];
  /** How many events the source got out before it saw it was unsubscribed. */
  pulled: number;
  messages: unknown;
  state: unknown;
  activities: unknown;
}

function observe(events: readonly BaseEvent[], spec: Disturbance, fused: boolean): Observed {
  const conversation = new Conversation({ state: {} });
  let seenEvents = 0;
  const stages = agUiToCarbonStages(
    {
      responseId: "r1",
      coalesce: false,
      onWarning: () => undefined,
      onInvalidEvent: () => undefined,
      onInvalidItem: () => undefined,
      onToolCall: (call) => (call.name === "weather" ? { response_type: "user_defined", user_defined: { card: call.toolCallId } } : undefined),
      onEvent: () => {
        if (seenEvents++ === spec.throwOnEvent) throw new Error("onEvent threw");
      },
    },
    conversation,
  );
  let pulled = 0;
  const errorAt = spec.errorAt === undefined ? Infinity : Math.floor(events.length * spec.errorAt);
  const source = new Observable<BaseEvent>((subscriber) => {
    for (const [index, event] of events.entries()) {
      if (subscriber.closed) return;
      if (index === errorAt) return subscriber.error(new Error("connection lost"));
      pulled++;
      subscriber.next(structuredClone(event));
    }
    subscriber.complete();
  });
  const composed = fused ? pipeFused(source, stages) : stages.reduce<Observable<unknown>>((result, stage) => result.pipe(stage as OperatorFunction<unknown, unknown>), source);
  const notifications: unknown[] = [];
  (spec.takeChunks === undefined ? composed : composed.pipe(take(spec.takeChunks))).subscribe({
    next: (value) => notifications.push({ next: value }),
    error: (error: Error) => notifications.push({ error: `${error.name}: ${error.message}` }),
    complete: () => notifications.push("complete"),
  });
  return { notifications, pulled, messages: conversation.messages, state: conversation.state, activities: [...conversation.activities] };
}

type Disturbance = {
  junkAt?: [number, number];
  errorAt?: number;
  takeChunks?: number;
  throwOnEvent?: number;
};

describe("agUiToCarbon's fused stages (pipeFused) against the same stages as plain rxjs operators", () => {
  it("emit the same chunks, errors and completions, pull the same events, and leave the same conversation", () => {
    fc.assert(
      fc.property(streamSpec, disturbance, (spec, disturb) => {
        const events = streamOf(spec);
        if (disturb.junkAt) {
          const [at, which] = disturb.junkAt;
          events.splice(Math.floor(events.length * at), 0, junk[which]!);
        }
        expect(observe(events, disturb, true)).toEqual(observe(events, disturb, false));
      }),
      { numRuns: 300 },
    );
  });
});
