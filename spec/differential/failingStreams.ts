import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import fc from "fast-check";
import { describeError } from "../../src/describeError";
import { AgUiEmptyRunError, AgUiProtocolError, AgUiRunError } from "../../src/errors";
import { streamOf, streamSpec, USER_MESSAGE, type StreamSpec } from "./streams";

/**
 * The differential generator's streams, with the ways a turn can end badly
 * (issue 29): the run's observable failing mid-stream, RUN_ERROR, protocol
 * errors, a stop at any point, and conversations of several turns where a
 * run ends at an interrupt and the resume that answers it may fail too.
 *
 * A turn's events are made when its run starts (`turnScript`): ids get the
 * turn's prefix, so no two turns share one, and a MESSAGES_SNAPSHOT holds
 * the history the run was given where the generator put the user's message,
 * as an agent's snapshot holds the whole thread.
 */

/** The frontend tool the adapter declares without a handler: a call of it that the run leaves unanswered goes to the browser. */
export const PICK_COLOR = { name: "pick_color", description: "Asks the person to pick a color", parameters: { type: "object", properties: {} } };

export const SOURCE_ERROR = "network down";
export const RUN_ERROR_MESSAGE = "the agent crashed";
export const CANCEL_SOURCE_ERROR = "cancellation lost";
export const CANCEL_RUN_ERROR = "the cancellation failed";

/**
 * How a turn's run ends. `at` is a fraction of the stream: 0 is before its first event, 1 after its last;
 * for a failure, a fraction of the places before the first event and inside a run (`failurePlace`).
 */
export type Ending =
  | { kind: "finish" }
  /** The last RUN_FINISHED carries an interrupt outcome: a decision card, answered by a later resume turn. */
  | { kind: "interrupt" }
  /** The run's observable errors (`new Error("network down")`) after the events before `at`. */
  | { kind: "sourceError"; at: number }
  /** RUN_ERROR instead of the events from `at` on. */
  | { kind: "runError"; at: number }
  /** A TEXT_MESSAGE_CONTENT of a message never started, put in at `at`; the rest follows. */
  | { kind: "strayContent"; at: number }
  /** From `at`: a message starts, and RUN_FINISHED comes while it is open. */
  | { kind: "finishWhileOpen"; at: number }
  /** From `at`: a message starts, streams, and the stream completes with it open. */
  | { kind: "endMidMessage"; at: number }
  /** The stream completes after the events before `at` (`at` < 1). */
  | { kind: "cut"; at: number }
  /**
   * The events before `at`, then the run waits (never completes) and the turn is stopped: by aborting the
   * request signal (Carbon's stop aborts it), by Carbon's stop button (the bus event the adapter follows), or both.
   * `settle`: how many macrotasks pass between the last event and the stop (0: Carbon may not have had the chunks yet).
   */
  | { kind: "stop"; at: number; how: "signal" | "button" | "both"; settle: number };

/** What a message turn's cancellation run (when interrupts are pending) does. */
export type CancellationScript = "finish" | "runError" | "sourceError";

export interface TurnSpec {
  /** A resume answers the pending interrupt (approve); with none pending, the turn is a message. */
  action: "message" | "resume";
  stream: StreamSpec;
  ending: Ending;
  /** Calls of `search` become calls of `pick_color` (declared to the adapter without a handler). */
  pickColor: boolean;
  cancellation: CancellationScript;
}

export interface Scenario {
  turns: TurnSpec[];
}

/** A fraction in thousandths: spread over the stream (a double would mostly be ~0 or ~1), shrinking towards 0. */
const at = fc.integer({ min: 0, max: 1000 }).map((thousandths) => thousandths / 1000);

export const ending: fc.Arbitrary<Ending> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: "finish" as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: "interrupt" as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("sourceError" as const), at }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("runError" as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("strayContent" as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("finishWhileOpen" as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("endMidMessage" as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cut" as const), at: fc.integer({ min: 0, max: 999 }).map((thousandths) => thousandths / 1000) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("stop" as const), at, how: fc.constantFrom("signal" as const, "button" as const, "both" as const), settle: fc.integer({ min: 0, max: 2 }) }),
  },
);

/** The differential streams, short: at most two runs of at most three entities, never cut (an ending cuts). */
const shortStream: fc.Arbitrary<StreamSpec> = streamSpec.map((spec) => ({
  runs: spec.runs.slice(0, 2).map((run) => ({ ...run, entities: run.entities.slice(0, 3) })),
}));

export const turnSpec: fc.Arbitrary<TurnSpec> = fc.record({
  action: fc.constantFrom("message" as const, "message" as const, "resume" as const),
  stream: shortStream,
  ending,
  pickColor: fc.boolean(),
  cancellation: fc.constantFrom<CancellationScript>("finish", "finish", "runError", "sourceError"),
});

/**
 * One to three turns. A resume needs an interrupt pending: most turns before one end at an interrupt (the
 * others leave it a message, or answer an interrupt an earlier turn left, or one a failed resume put back).
 */
export const scenario: fc.Arbitrary<Scenario> = fc.array(fc.tuple(turnSpec, fc.nat({ max: 3 })), { minLength: 1, maxLength: 3 }).map((turns) => ({
  turns: turns.map(([turn], index) => {
    const next = turns[index + 1];
    return next && next[0].action === "resume" && next[1] > 0 ? { ...turn, ending: { kind: "interrupt" as const } } : turn;
  }),
}));

type Entity = StreamSpec["runs"][number]["entities"][number];
const hello: Entity = { kind: "text", form: "explicit", parts: ["Hello"], reopenParts: [] };
const unansweredSearch: Entity = { kind: "tool", form: "explicit", name: "search", argParts: ["{}"], parent: "none", result: "none", encrypted: false };
/** `stream` with `entity` first in its first run, its events (up to three) the run's first. */
const leading = (stream: StreamSpec, entity: Entity): StreamSpec => ({
  runs: stream.runs.map((run, index) => (index === 0 ? { ...run, entities: [entity, ...run.entities], order: [0, 0, 0, ...run.order.slice(3)] } : run)),
});

/**
 * The cases issue 29 names, each its own family so that one's counterexample does not hide another's:
 * a source error once the answer has text; a resume (of a run that ended at an interrupt) whose run fails;
 * a run that finishes (or ends at an interrupt) having called `pick_color`, declared without a handler,
 * and left it unanswered: the next message's input must not carry that call without a result.
 */
export const families: Record<string, fc.Arbitrary<Scenario>> = {
  "a source error after the answer's text": fc.record({ first: turnSpec, at: fc.integer({ min: 700, max: 1000 }) }).map(({ first, at }) => ({
    turns: [{ ...first, action: "message", stream: leading(first.stream, hello), ending: { kind: "sourceError", at: at / 1000 } }],
  })),
  "a resume whose run fails": fc
    .record({
      asks: turnSpec,
      resumes: turnSpec,
      failure: fc.oneof(...(["sourceError", "runError", "finishWhileOpen", "endMidMessage", "cut"] as const).map((kind) => fc.record({ kind: fc.constant(kind), at: fc.integer({ min: 0, max: 999 }).map((n) => n / 1000) }))),
    })
    .map(({ asks, resumes, failure }) => ({ turns: [{ ...asks, action: "message", ending: { kind: "interrupt" } }, { ...resumes, action: "resume", ending: failure }] })),
  "a run that called pick_color (declared without a handler), left it unanswered and finished, or ended at an interrupt": fc
    .record({ turn: turnSpec, ending: fc.constantFrom<Ending>({ kind: "finish" }, { kind: "interrupt" }) })
    .map(({ turn, ending }) => ({ turns: [{ ...turn, action: "message", pickColor: true, stream: leading(turn.stream, unansweredSearch), ending }] })),
};

/** Where (0..length) a fraction of a stream of `length` events falls. */
export const position = (fraction: number, length: number) => Math.min(length, Math.floor(fraction * (length + 1)));

/**
 * Where a failure goes, `at` spread over the places before the first event and inside a run. Not after a
 * RUN_FINISHED (before the next RUN_STARTED, or at the end): the adapter ends the turn's run there
 * (splitRuns), and what follows is another question than the ones issue 29 asks.
 */
export function failurePlace(events: readonly BaseEvent[], at: number): number {
  const places = [0, ...events.map((_, index) => index).filter((index) => index > 0 && inRun(events, index))];
  return places[Math.min(places.length - 1, Math.floor(at * places.length))]!;
}

/** Whether the events before `index` leave a run open (started, not yet finished or errored). */
export function inRun(events: readonly BaseEvent[], index: number): boolean {
  let open = false;
  for (const event of events.slice(0, index)) {
    if (event.type === EventType.RUN_STARTED) open = true;
    else if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) open = false;
  }
  return open;
}

/** The explicit-form text messages open at `index` that have streamed text by then: a stop there must mark them stopped. */
export function openTextAt(events: readonly BaseEvent[], index: number): string[] {
  const text = new Map<string, string>();
  for (const event of events.slice(0, index) as (BaseEvent & { messageId?: string; delta?: string })[]) {
    // A subagent's words are its step's, never an answer item: cutting them marks no item stopped.
    if (event.type === EventType.TEXT_MESSAGE_START && (event as { subagentRunId?: string }).subagentRunId === undefined) text.set(event.messageId!, "");
    else if (event.type === EventType.TEXT_MESSAGE_CONTENT && text.has(event.messageId!)) text.set(event.messageId!, text.get(event.messageId!)! + event.delta);
    else if (event.type === EventType.TEXT_MESSAGE_END || event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
      if (event.type === EventType.TEXT_MESSAGE_END) text.delete(event.messageId!);
      else text.clear();
    }
  }
  return [...text].filter(([, content]) => content !== "").map(([id]) => id);
}

const ID_KEYS = ["messageId", "toolCallId", "parentMessageId", "entityId", "runId"] as const;

/**
 * The ids of the generator's events, prefixed with the turn's; the user's message becomes the latest one of
 * the history the run was given (a parent), and that whole history in a snapshot.
 */
function withTurnIds(event: BaseEvent, prefix: string, history: readonly Message[]): BaseEvent {
  const copy = structuredClone(event) as BaseEvent & Record<string, unknown>;
  const userId = [...history].reverse().find((message) => message.role === "user")?.id ?? `${prefix}${USER_MESSAGE.id}`;
  for (const key of ID_KEYS) if (typeof copy[key] === "string") copy[key] = copy[key] === USER_MESSAGE.id ? userId : `${prefix}${copy[key] as string}`;
  if (copy.type === EventType.MESSAGES_SNAPSHOT) {
    copy.messages = (copy.messages as Message[]).flatMap((message) => {
      if (message.id === USER_MESSAGE.id) return structuredClone([...history]);
      const renamed = { ...message, id: `${prefix}${message.id}` } as Message & { toolCalls?: { id: string }[]; toolCallId?: string };
      if (renamed.toolCalls) renamed.toolCalls = renamed.toolCalls.map((call) => ({ ...call, id: `${prefix}${call.id}` }));
      if (renamed.toolCallId) renamed.toolCallId = `${prefix}${renamed.toolCallId}`;
      return [renamed];
    });
  }
  return copy;
}

/** What one scripted run does: its events in order, and then how it ends. */
export interface Script {
  events: BaseEvent[];
  /** complete: the observable completes; error: it errors with `error`; hang: it never completes (until stopped). */
  then: { kind: "complete" } | { kind: "error"; error: Error } | { kind: "hang" };
}

/** What the turn must come to, from its events alone. */
export interface Expected {
  /** `stopped`: stopped, or no answer at all, or an answer whose items all completed before the stop (nothing was open to mark). */
  kind: "finished" | "failed" | "stopped";
  /** The inline error's words without "This answer is incomplete.", when the stream says them. */
  reason?: string;
  /** Explicit text messages open with text at a stop: their items must say "Response stopped". */
  mustMarkStopped?: string[];
}

// The words `describeError` has for each way the stream fails.
const CANNOT_FOLLOW = describeError(new AgUiProtocolError("a rule broken", EventType.RUN_FINISHED));
const BROKE_OFF = describeError(new AgUiProtocolError("ended early"));
const EMPTY_RUN = describeError(new AgUiEmptyRunError());
const agentSays = (message: string) => describeError(new AgUiRunError(message));

/** The turn's run: the generator's stream, its ids the turn's, ended as the turn's `ending` says. */
export function turnScript(spec: TurnSpec, prefix: string, history: readonly Message[], interruptId: string): { script: Script; expected: Expected } {
  const renamed: StreamSpec = spec.pickColor
    ? { ...spec.stream, runs: spec.stream.runs.map((run) => ({ ...run, entities: run.entities.map((entity) => (entity.kind === "tool" && entity.name === "search" ? { ...entity, name: PICK_COLOR.name } : entity)) })) }
    : spec.stream;
  const events = streamOf(renamed).map((event) => withTurnIds(event, prefix, history));
  const { ending } = spec;
  const ghost = `${prefix}ghost`;
  const ghostStart = { type: EventType.TEXT_MESSAGE_START, messageId: ghost, role: "assistant" } as BaseEvent;
  const ghostText = { type: EventType.TEXT_MESSAGE_CONTENT, messageId: ghost, delta: "Boo" } as BaseEvent;
  const runFinished = { type: EventType.RUN_FINISHED, threadId: "thread-turns", runId: `${prefix}run-x` } as BaseEvent;
  const complete = { kind: "complete" as const };
  switch (ending.kind) {
    case "finish":
      return { script: { events, then: complete }, expected: { kind: "finished" } };
    case "interrupt": {
      const last = events.at(-1) as BaseEvent & { outcome?: unknown };
      last.outcome = { type: "interrupt", interrupts: [{ id: interruptId, reason: "approval", message: "Go on?" }] };
      return { script: { events, then: complete }, expected: { kind: "finished" } };
    }
    case "sourceError": {
      const index = failurePlace(events, ending.at);
      return { script: { events: events.slice(0, index), then: { kind: "error", error: new Error(SOURCE_ERROR) } }, expected: { kind: "failed", reason: agentSays(SOURCE_ERROR) } };
    }
    case "runError": {
      const index = failurePlace(events, ending.at);
      const runError = { type: EventType.RUN_ERROR, message: RUN_ERROR_MESSAGE } as BaseEvent;
      return { script: { events: [...events.slice(0, index), runError], then: complete }, expected: { kind: "failed", reason: agentSays(RUN_ERROR_MESSAGE) } };
    }
    case "strayContent": {
      const index = failurePlace(events, ending.at);
      const stray = { type: EventType.TEXT_MESSAGE_CONTENT, messageId: ghost, delta: "Boo" } as BaseEvent;
      // Inside a run the stray content is skipped (verifySequence); before or after every run, nothing but RUN_STARTED may come.
      const expected: Expected = inRun(events, index) ? { kind: "finished" } : { kind: "failed", reason: CANNOT_FOLLOW };
      return { script: { events: [...events.slice(0, index), stray, ...events.slice(index)], then: complete }, expected };
    }
    case "finishWhileOpen": {
      const index = failurePlace(events, ending.at);
      return { script: { events: [...events.slice(0, index), ghostStart, ghostText, runFinished], then: complete }, expected: { kind: "failed", reason: CANNOT_FOLLOW } };
    }
    case "endMidMessage": {
      const index = failurePlace(events, ending.at);
      return {
        script: { events: [...events.slice(0, index), ghostStart, ghostText], then: complete },
        expected: { kind: "failed", reason: inRun(events, index) ? BROKE_OFF : CANNOT_FOLLOW },
      };
    }
    case "cut": {
      const index = Math.min(events.length - 1, position(ending.at, events.length));
      const prefixEvents = events.slice(0, index);
      const expected: Expected =
        index === 0 ? { kind: "failed", reason: EMPTY_RUN } : prefixEvents.at(-1)!.type === EventType.RUN_FINISHED ? { kind: "finished" } : { kind: "failed", reason: BROKE_OFF };
      return { script: { events: prefixEvents, then: complete }, expected };
    }
    case "stop": {
      const index = position(ending.at, events.length);
      // Only the stream's first run is the turn's own: a later run is a turn of its own, which a stop may end before it
      // began (it then shows nothing), so what it has open need not say "Response stopped".
      const inFirstRun = events.slice(0, index).filter((event) => event.type === EventType.RUN_STARTED).length <= 1;
      return { script: { events: events.slice(0, index), then: { kind: "hang" } }, expected: { kind: "stopped", mustMarkStopped: inFirstRun ? openTextAt(events, index) : [] } };
    }
  }
}

/** The cancellation run of a message sent while interrupts are pending. */
export function cancellationScript(kind: CancellationScript, prefix: string): { script: Script; expected: Expected } {
  const started = { type: EventType.RUN_STARTED, threadId: "thread-turns", runId: `${prefix}cancel` } as BaseEvent;
  const finished = { type: EventType.RUN_FINISHED, threadId: "thread-turns", runId: `${prefix}cancel` } as BaseEvent;
  switch (kind) {
    case "finish":
      return { script: { events: [started, finished], then: { kind: "complete" } }, expected: { kind: "finished" } };
    case "runError":
      return { script: { events: [started, { type: EventType.RUN_ERROR, message: CANCEL_RUN_ERROR } as BaseEvent], then: { kind: "complete" } }, expected: { kind: "failed", reason: agentSays(CANCEL_RUN_ERROR) } };
    case "sourceError":
      return { script: { events: [started], then: { kind: "error", error: new Error(CANCEL_SOURCE_ERROR) } }, expected: { kind: "failed", reason: agentSays(CANCEL_SOURCE_ERROR) } };
  }
}

/** A readable line per event, for counterexamples. */
export function describeEvents(script: Script): string {
  const lines = script.events.map((event) => {
    const { type, messageId, toolCallId, toolCallName, delta, message, outcome } = event as BaseEvent & Record<string, unknown>;
    const id = (toolCallId ?? messageId) as string | undefined;
    const details = [id, toolCallName, typeof delta === "string" ? JSON.stringify(delta) : undefined, message, outcome ? JSON.stringify(outcome) : undefined].filter((part) => part !== undefined);
    return `${type}${details.length > 0 ? ` ${details.join(" ")}` : ""}`;
  });
  lines.push(script.then.kind === "error" ? `(observable errors: ${script.then.error.message})` : script.then.kind === "hang" ? "(waits: stopped here)" : "(completes)");
  return lines.join("\n      ");
}
