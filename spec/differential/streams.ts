import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import fc from "fast-check";

/**
 * Random, valid AG-UI 1.0 streams for the differential suite: several runs,
 * each a random interleaving of text, tool-call and reasoning messages (in
 * explicit or chunk form), subagent invocations (their own messages, calls
 * and reasoning, attributed to them), state and activity snapshots and
 * deltas, and message snapshots, optionally cut at any point.
 *
 * Ids are prefixed by kind so that no two kinds share one (a producer that
 * reuses a text message's id for an activity breaks the protocol).
 */

export const THREAD_ID = "thread-differential";
export const USER_MESSAGE: Message = { id: "user-1", role: "user", content: "Hi" };

type Form = "explicit" | "chunk";

interface TextSpec {
  kind: "text";
  form: Form;
  parts: string[];
  /** Explicit form only: a second START / CONTENT / END with the same id, later. */
  reopenParts: string[];
}
interface ToolSpec {
  kind: "tool";
  form: Form;
  name: string;
  argParts: string[];
  /** none: no parentMessageId; text: the run's first text message; user: the user's message; fresh: an id nothing else has. */
  parent: "none" | "text" | "user" | "fresh";
  result: "none" | "after" | "beforeEnd";
  encrypted: boolean;
}
interface ReasoningSpec {
  kind: "reasoning";
  form: Form;
  /** None: an encrypted-only reasoning message. */
  parts: string[];
  encrypted: boolean;
  span: boolean;
}
type StateValue = number | { x: number };
interface StateSpec {
  kind: "state";
  snapshot?: Record<string, StateValue>;
  /** RFC 6902 operations on `/key` (or `/key/x`), some of which fail: the whole delta must then change nothing. */
  delta: { op: "add" | "replace" | "remove" | "move" | "copy" | "test"; path: string; from: string; value: StateValue }[];
}
interface ActivitySpec {
  kind: "activity";
  slot: number;
  activityType: string;
  content: Record<string, number>;
  replace: boolean | undefined;
  /** `fails`: removes the key, then tests for it, so the whole delta must change nothing (key order included). */
  delta?: { key: string; value: number; fails: boolean };
}
interface SnapshotSpec {
  kind: "messagesSnapshot";
  /** Which messages closed so far the snapshot keeps, by a bit each. */
  keep: boolean[];
  newAssistant: boolean;
  newActivity: boolean;
}

/** A subagent invocation: its messages, calls and reasoning, interleaved and attributed to it, then its end. */
interface SubagentSpec {
  kind: "subagent";
  name: string;
  inner: (TextSpec | ToolSpec | ReasoningSpec)[];
  order: number[];
  ends: "finished" | "suspended" | "error";
}

type EntitySpec = TextSpec | ToolSpec | ReasoningSpec | StateSpec | ActivitySpec | SnapshotSpec | SubagentSpec;

export interface StreamSpec {
  /** `futureOutcome`: the run ends with an outcome of a later protocol version, which a 1.0 client strips. */
  runs: { entities: EntitySpec[]; order: number[]; futureOutcome: boolean }[];
  /** Cut the whole stream after this fraction of its events (the rest never arrives); undefined: no cut. */
  cut?: number;
}

const text: fc.Arbitrary<string> = fc.constantFrom("Hello", " world", "!", "é", "👨\u200d👩", " a", "b ", "42", "");
const parts = (min: number, max: number) => fc.array(text, { minLength: min, maxLength: max });
const form = fc.constantFrom<Form>("explicit", "chunk");
const key = fc.constantFrom("a", "b", "c");
const stateValue: fc.Arbitrary<StateValue> = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.record({ x: fc.integer({ min: 0, max: 9 }) }));
const pointer = fc.constantFrom("/a", "/a", "/b", "/c", "/a/x", "/a/x", "/b/x", "");

const textEntity: fc.Arbitrary<TextSpec> = fc.record({ kind: fc.constant("text" as const), form, parts: parts(1, 3), reopenParts: fc.oneof({ weight: 3, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: parts(1, 2) }) });
const toolEntity = (parents: ToolSpec["parent"][]): fc.Arbitrary<ToolSpec> =>
  fc.record({
    kind: fc.constant("tool" as const),
    form,
    name: fc.constantFrom("search", "weather"),
    argParts: fc.constantFrom<string[]>(['{"q":', '"x"}'], ["{}"], [], ['{"city":"Oslo"}']),
    parent: fc.constantFrom(...parents),
    result: fc.constantFrom("none" as const, "after" as const, "beforeEnd" as const),
    encrypted: fc.boolean(),
  });
const reasoningEntity: fc.Arbitrary<ReasoningSpec> = fc.record({ kind: fc.constant("reasoning" as const), form, parts: parts(0, 2), encrypted: fc.boolean(), span: fc.boolean() });

const entity: fc.Arbitrary<EntitySpec> = fc.oneof(
  { weight: 4, arbitrary: textEntity },
  { weight: 3, arbitrary: toolEntity(["none", "text", "user", "fresh"]) },
  { weight: 2, arbitrary: reasoningEntity },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("subagent" as const),
      name: fc.constantFrom("researcher", "checker"),
      // A subagent's call belongs to a message of its own (AG-UI 1.0: a call carries its message's attribution).
      inner: fc.array(fc.oneof(textEntity, toolEntity(["none", "fresh"]), reasoningEntity), { minLength: 1, maxLength: 3 }),
      order: fc.array(fc.nat({ max: 99 }), { minLength: 20, maxLength: 20 }),
      ends: fc.constantFrom("finished" as const, "suspended" as const, "error" as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant("state" as const),
        snapshot: fc.dictionary(key, stateValue, { maxKeys: 3 }),
        delta: fc.array(
          fc.record({ op: fc.constantFrom("add" as const, "replace" as const, "remove" as const, "move" as const, "copy" as const, "test" as const), path: pointer, from: pointer, value: stateValue }),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: ["kind", "delta"] },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant("activity" as const),
        slot: fc.integer({ min: 0, max: 1 }),
        activityType: fc.constantFrom("plan", "progress"),
        content: fc.dictionary(key, fc.integer({ min: 0, max: 9 }), { maxKeys: 2 }),
        replace: fc.constantFrom(undefined, true, false),
        delta: fc.record({ key, value: fc.integer({ min: 0, max: 9 }), fails: fc.boolean() }),
      },
      { requiredKeys: ["kind", "slot", "activityType", "content", "replace"] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("messagesSnapshot" as const), keep: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), newAssistant: fc.boolean(), newActivity: fc.boolean() }) },
);

export const streamSpec: fc.Arbitrary<StreamSpec> = fc.record(
  {
    runs: fc.array(
      fc.record({
        entities: fc.array(entity, { minLength: 1, maxLength: 5 }),
        order: fc.array(fc.nat({ max: 99 }), { minLength: 40, maxLength: 40 }),
        futureOutcome: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: ["runs"] },
);

/** What a placeholder for a MESSAGES_SNAPSHOT needs; filled in by `materialize`. */
interface SnapshotPlaceholder {
  type: "SNAPSHOT_PLACEHOLDER";
  spec: SnapshotSpec;
  id: string;
}

type Step = BaseEvent | SnapshotPlaceholder;

/** The events of one entity, in order. */
function entityEvents(spec: EntitySpec, id: string, run: { firstTextId?: string }): Step[] {
  switch (spec.kind) {
    case "text": {
      const messageId = `msg-${id}`;
      if (spec.form === "chunk") {
        return spec.parts.map((delta) => ({ type: EventType.TEXT_MESSAGE_CHUNK, messageId, role: "assistant", delta }));
      }
      const open = (deltas: string[]) => [
        { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" },
        ...deltas.map((delta) => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta })),
        { type: EventType.TEXT_MESSAGE_END, messageId },
      ];
      return [...open(spec.parts), ...(spec.reopenParts.length > 0 ? open(spec.reopenParts) : [])];
    }
    case "tool": {
      const toolCallId = `call-${id}`;
      const parentMessageId =
        spec.parent === "text" ? run.firstTextId : spec.parent === "user" ? USER_MESSAGE.id : spec.parent === "fresh" ? `parent-${id}` : undefined;
      const parent = parentMessageId === undefined ? {} : { parentMessageId };
      const result: BaseEvent[] = spec.result === "none" ? [] : [{ type: EventType.TOOL_CALL_RESULT, messageId: `result-${id}`, toolCallId, content: `result of ${id}`, role: "tool" }];
      const encrypted: BaseEvent[] = spec.encrypted ? [{ type: EventType.REASONING_ENCRYPTED_VALUE, subtype: "tool-call", entityId: toolCallId, encryptedValue: `enc-${toolCallId}` }] : [];
      if (spec.form === "chunk") {
        const chunks: BaseEvent[] = (spec.argParts.length === 0 ? [undefined] : spec.argParts).map((delta) => ({
          type: EventType.TOOL_CALL_CHUNK,
          toolCallId,
          toolCallName: spec.name,
          ...parent,
          ...(delta !== undefined && { delta }),
        }));
        return [...chunks, ...result, ...encrypted];
      }
      const start = { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: spec.name, ...parent };
      const args = spec.argParts.map((delta) => ({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta }));
      const end = { type: EventType.TOOL_CALL_END, toolCallId };
      return spec.result === "beforeEnd" ? [start, ...args, ...result, end, ...encrypted] : [start, ...args, end, ...result, ...encrypted];
    }
    case "reasoning": {
      const messageId = `reasoning-${id}`;
      const encrypted: BaseEvent[] = spec.encrypted ? [{ type: EventType.REASONING_ENCRYPTED_VALUE, subtype: "message", entityId: messageId, encryptedValue: `enc-${messageId}` }] : [];
      const body: BaseEvent[] =
        spec.form === "chunk" && spec.parts.length > 0
          ? spec.parts.map((delta) => ({ type: EventType.REASONING_MESSAGE_CHUNK, messageId, delta }))
          : [
              { type: EventType.REASONING_MESSAGE_START, messageId, role: "reasoning" },
              ...spec.parts.map((delta) => ({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta })),
              { type: EventType.REASONING_MESSAGE_END, messageId },
            ];
      const span = `span-${id}`;
      return spec.span
        ? [{ type: EventType.REASONING_START, messageId: span }, ...body, { type: EventType.REASONING_END, messageId: span }, ...encrypted]
        : [...body, ...encrypted];
    }
    case "state": {
      const snapshot: BaseEvent[] = spec.snapshot ? [{ type: EventType.STATE_SNAPSHOT, snapshot: spec.snapshot }] : [];
      const delta = spec.delta.map(({ op, path, from, value }) =>
        op === "remove" ? { op, path } : op === "move" || op === "copy" ? { op, from, path } : { op, path, value },
      );
      return [...snapshot, ...(delta.length > 0 ? [{ type: EventType.STATE_DELTA, delta }] : [])];
    }
    case "activity": {
      const messageId = `activity-${spec.slot}`;
      const snapshot = { type: EventType.ACTIVITY_SNAPSHOT, messageId, activityType: spec.activityType, content: spec.content, ...(spec.replace !== undefined && { replace: spec.replace }) };
      const at = spec.delta && `/${spec.delta.key}`;
      const patch = spec.delta?.fails ? [{ op: "remove", path: at }, { op: "test", path: at, value: spec.delta.value }] : [{ op: "add", path: at, value: spec.delta?.value }];
      const delta = spec.delta && { type: EventType.ACTIVITY_DELTA, messageId, activityType: spec.activityType, patch };
      return delta ? [snapshot, delta] : [snapshot];
    }
    case "messagesSnapshot":
      return [{ type: "SNAPSHOT_PLACEHOLDER", spec, id }];
    case "subagent": {
      const subagentRunId = `subagent-${id}`;
      const inner = interleave(spec.inner.map((candidate, index) => entityEvents(candidate, `${id}-${index}`, {})), spec.order);
      const end =
        spec.ends === "error"
          ? { type: EventType.SUBAGENT_ERROR, subagentRunId, message: `${spec.name} failed` }
          : { type: EventType.SUBAGENT_FINISHED, subagentRunId, outcome: { type: spec.ends === "finished" ? "success" : "suspended" } };
      return [{ type: EventType.SUBAGENT_STARTED, subagentRunId, name: spec.name }, ...inner.map((event) => ({ ...event, subagentRunId })), end] as Step[];
    }
  }
}

/** Interleaves the entities' event lists, keeping each list's order, by the picks in `order`. */
function interleave(lists: Step[][], order: number[]): Step[] {
  const queues = lists.map((list) => [...list]);
  const result: Step[] = [];
  let pick = 0;
  for (;;) {
    const live = queues.filter((queue) => queue.length > 0);
    if (live.length === 0) return result;
    const queue = live[(order[pick++ % order.length] ?? 0) % live.length]!;
    result.push(queue.shift()!);
  }
}

/**
 * Fills in each MESSAGES_SNAPSHOT as a producer would send it: the messages
 * closed so far (those its `keep` bits select, with the content and encrypted
 * values they have by then), the user's message, and maybe a new assistant
 * message and an activity message. A snapshot in the middle of a message or
 * tool call (between its first and last event) is left out: a producer
 * sends one between messages.
 */
function materialize(steps: Step[]): BaseEvent[] {
  const closed = new Map<string, Message>();
  const texts = new Map<string, { role: "assistant" | "reasoning"; content: string; open: boolean; subagentRunId?: string }>();
  let openChunk: string | undefined;
  const events: BaseEvent[] = [];
  /** Encrypted values so far, by message id: a producer's snapshot carries them. */
  const encrypted = new Map<string, string>();
  // Each message's and tool call's span, first event to last: a snapshot never falls inside one.
  const spans = new Map<string, [number, number]>();
  steps.forEach((step, index) => {
    const { messageId, toolCallId, type } = step as { messageId?: string; toolCallId?: string; type: string };
    const id = type === EventType.TOOL_CALL_RESULT ? undefined : (toolCallId ?? messageId);
    if (id !== undefined) spans.set(id, [spans.get(id)?.[0] ?? index, index]);
  });
  const inside = (index: number) => [...spans.values()].some(([first, last]) => first < index && index < last);
  for (const [index, step] of steps.entries()) {
    if (step.type !== "SNAPSHOT_PLACEHOLDER") {
      const event = step as BaseEvent & Record<string, string>;
      const isChunk = event.type.endsWith("_CHUNK");
      if (!isChunk) openChunk = undefined;
      switch (event.type) {
        case EventType.TEXT_MESSAGE_CHUNK:
        case EventType.REASONING_MESSAGE_CHUNK: {
          const role = event.type === EventType.TEXT_MESSAGE_CHUNK ? "assistant" : "reasoning";
          const entry = texts.get(event.messageId!) ?? { role, content: "", open: false, ...(event.subagentRunId !== undefined && { subagentRunId: event.subagentRunId }) };
          entry.content += event.delta ?? "";
          texts.set(event.messageId!, entry);
          openChunk = event.messageId;
          break;
        }
        case EventType.TOOL_CALL_CHUNK:
          openChunk = event.toolCallId;
          break;
        case EventType.TEXT_MESSAGE_START:
        case EventType.REASONING_MESSAGE_START: {
          const entry = texts.get(event.messageId!) ?? {
            role: event.type === EventType.TEXT_MESSAGE_START ? "assistant" : "reasoning",
            content: "",
            open: true,
            ...(event.subagentRunId !== undefined && { subagentRunId: event.subagentRunId }),
          };
          entry.open = true;
          texts.set(event.messageId!, entry);
          break;
        }
        case EventType.TEXT_MESSAGE_CONTENT:
        case EventType.REASONING_MESSAGE_CONTENT:
          texts.get(event.messageId!)!.content += event.delta;
          break;
        case EventType.TEXT_MESSAGE_END:
        case EventType.REASONING_MESSAGE_END:
          texts.get(event.messageId!)!.open = false;
          break;
        case EventType.REASONING_ENCRYPTED_VALUE:
          if (event.subtype === "message") encrypted.set(event.entityId!, event.encryptedValue!);
          break;
      }
      for (const [id, entry] of texts) {
        if (!entry.open && openChunk !== id && entry.content !== "") {
          const previous = closed.get(id);
          const encryptedValue = encrypted.get(id);
          const { subagentRunId } = entry;
          closed.set(id, { ...previous, id, role: entry.role, content: entry.content, ...(encryptedValue !== undefined && { encryptedValue }), ...(subagentRunId !== undefined && { subagentRunId }) } as Message);
        }
      }
      events.push(event);
      continue;
    }
    if (inside(index)) continue;
    openChunk = undefined;
    const { spec, id } = step;
    const kept = [...closed.values()].filter((_, index) => spec.keep[index % spec.keep.length]);
    const messages: Message[] = [
      USER_MESSAGE,
      ...kept,
      ...(spec.newAssistant ? [{ id: `snapshot-msg-${id}`, role: "assistant" as const, content: `from snapshot ${id}` }] : []),
      ...(spec.newActivity ? [{ id: `snapshot-activity-${id}`, role: "activity" as const, activityType: "plan", content: { step: 1 } }] : []),
    ];
    // What the snapshot dropped is gone for later snapshots too.
    for (const known of new Set([...closed.keys(), ...texts.keys()])) {
      if (kept.some((message) => message.id === known)) continue;
      closed.delete(known);
      texts.delete(known);
    }
    if (spec.newAssistant) closed.set(`snapshot-msg-${id}`, messages.at(spec.newActivity ? -2 : -1)!);
    events.push({ type: EventType.MESSAGES_SNAPSHOT, messages } as BaseEvent);
  }
  return events;
}

/** The stream a spec stands for. */
export function streamOf(spec: StreamSpec): BaseEvent[] {
  const steps: Step[] = [];
  spec.runs.forEach((run, runIndex) => {
    const runId = `run-${runIndex}`;
    const firstText = run.entities.findIndex((candidate) => candidate.kind === "text");
    const context = firstText === -1 ? {} : { firstTextId: `msg-${runIndex}-${firstText}` };
    const lists = run.entities.map((candidate, index) => entityEvents(candidate, `${runIndex}-${index}`, context));
    // A tool call naming the run's first text message as parent must start after that message has.
    steps.push({ type: EventType.RUN_STARTED, threadId: THREAD_ID, runId } as BaseEvent, ...interleave(lists, run.order), {
      type: EventType.RUN_FINISHED,
      threadId: THREAD_ID,
      runId,
      ...(run.futureOutcome && { outcome: { type: "handoff", to: "another-agent" } }),
    } as BaseEvent);
  });
  const events = materialize(steps);
  return spec.cut === undefined ? events : events.slice(0, Math.max(1, Math.floor(events.length * spec.cut)));
}
