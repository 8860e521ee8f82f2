import { EventType, type BaseEvent } from "@ag-ui/core";
import fc from "fast-check";
import { Observable, Subject, take, type OperatorFunction } from "rxjs";
import { Conversation } from "../../src/conversation";
import { pipeFused } from "../../src/operators/fusion";
import { agUiToCarbonStages } from "../../src/operators/agUiToCarbon";
import { streamOf, streamSpec, type StreamSpec } from "./streams";

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
    /** Carbon's stop button is pressed as this streamed piece (a text, reasoning or tool-argument delta) is seen: the stop lands right after it, mid-message. */
    stopOnDelta: fc.nat({ max: 3 }),
  },
  { requiredKeys: [] },
);

const STREAMED = new Set<string>([EventType.TEXT_MESSAGE_CONTENT, EventType.REASONING_MESSAGE_CONTENT, EventType.TOOL_CALL_ARGS]);

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
  const stop = new Subject<void>();
  let seenDeltas = 0;
  let seenEvents = 0;
  const stages = agUiToCarbonStages(
    {
      responseId: "r1",
      coalesce: false,
      onWarning: () => undefined,
      onInvalidEvent: () => undefined,
      onInvalidItem: () => undefined,
      onToolCall: (call) => (call.name === "weather" ? { response_type: "user_defined", user_defined: { card: call.toolCallId } } : undefined),
      stop,
      onEvent: (event) => {
        if (STREAMED.has(event.type) && seenDeltas++ === spec.stopOnDelta) stop.next();
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
  // Fused, each stage is also shown what its reactsTo leaves out, and must pass it on untouched.
  const composed = fused ? pipeFused(source, stages, { checkReactsTo: true }) : stages.reduce<Observable<unknown>>((result, stage) => result.pipe(stage as OperatorFunction<unknown, unknown>), source);
  const notifications: unknown[] = [];
  (spec.takeChunks === undefined ? composed : composed.pipe(take(spec.takeChunks))).subscribe({
    next: (value) => notifications.push({ next: value }),
    error: (error: Error) => notifications.push({ error: `${error.name}: ${error.message}` }),
    complete: () => notifications.push("complete"),
  });
  return { notifications, pulled, messages: conversation.messages, state: conversation.state, activities: [...conversation.activities] };
}

const zeros = Array.from({ length: 40 }, () => 0);
const MID_MESSAGE_STOPS: [StreamSpec, Disturbance][] = [
  { kind: "text" as const, form: "explicit" as const, parts: ["Hel", "lo"], reopenParts: [] },
  // escapeHtml holds a final "!" (it may start an image) until the next character, or the turn's end.
  { kind: "text" as const, form: "explicit" as const, parts: ["Hi!", " there"], reopenParts: [] },
  { kind: "reasoning" as const, form: "explicit" as const, parts: ["Hmm"], encrypted: false, span: false },
  { kind: "tool" as const, form: "explicit" as const, name: "search", argParts: ['{"q":', '"x"}'], parent: "none" as const, result: "none" as const, encrypted: false },
].map((entity) => [{ runs: [{ entities: [entity], order: zeros, futureOutcome: false }] } as StreamSpec, { stopOnDelta: 0 }]);

type Disturbance = {
  junkAt?: [number, number];
  errorAt?: number;
  takeChunks?: number;
  throwOnEvent?: number;
  stopOnDelta?: number;
};

describe("agUiToCarbon's fused stages (pipeFused) against the same stages as plain rxjs operators", () => {
  it("emit the same chunks, errors and completions, pull the same events, and leave the same conversation, through stops, unsubscriptions, source errors and throwing callbacks", () => {
    fc.assert(
      fc.property(streamSpec, disturbance, (spec, disturb) => {
        const events = streamOf(spec);
        if (disturb.junkAt) {
          const [at, which] = disturb.junkAt;
          events.splice(Math.floor(events.length * at), 0, junk[which]!);
        }
        expect(observe(events, disturb, true)).toEqual(observe(events, disturb, false));
      }),
      {
        numRuns: 300,
        // A stop in the middle of each kind of message, every time: what each mapping keeps of a cut message.
        examples: MID_MESSAGE_STOPS,
      },
    );
  });
});
