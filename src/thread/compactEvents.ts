import { EventType, type BaseEvent } from "@ag-ui/core";
import { TextBuffer } from "../internal/textBuffer";

/** The delta events that merge, and the field that names what they stream into. */
const DELTAS: Partial<Record<string, "messageId" | "toolCallId">> = {
  [EventType.TEXT_MESSAGE_CONTENT]: "messageId",
  [EventType.TEXT_MESSAGE_CHUNK]: "messageId",
  [EventType.TOOL_CALL_ARGS]: "toolCallId",
  [EventType.TOOL_CALL_CHUNK]: "toolCallId",
  [EventType.REASONING_MESSAGE_CONTENT]: "messageId",
  [EventType.REASONING_MESSAGE_CHUNK]: "messageId",
};


/** Whether `event` carries only the fields a delta may carry and still merge into the one before it: anything else (a chunk's role, name, parent) starts a new event. */
function onlyMergeable(event: BaseEvent): boolean {
  for (const key in event) {
    if (key !== "type" && key !== "delta" && key !== "messageId" && key !== "toolCallId" && key !== "subagentRunId" && key !== "timestamp") return false;
  }
  return true;
}

/** How many events wait before they are compacted: few enough that memory still follows the text. */
const BATCH = 512;

type Delta = BaseEvent & { delta?: string; messageId?: string; toolCallId?: string; subagentRunId?: string };

/**
 * A run's events as the log keeps them, appended one at a time: each delta
 * that follows a delta of the same message or call (a text's, a call's
 * arguments', reasoning's; chunks too) joins it, as `@ag-ui/client`'s
 * `compactEvents` merges them, so memory follows the text, not the number
 * of deltas. Unlike it, nothing moves: only deltas next to each other join,
 * so the events replay to exactly what they showed live. `events()` gives
 * them, the state folded (see `compactEvents`).
 */
export class CompactingEvents {
  private readonly kept: BaseEvent[] = [];
  /** Events not compacted yet: they are taken a batch at a time, in one tight loop, away from the pipeline's. */
  private waiting: BaseEvent[] = [];
  private stopped = false;
  /** The delta last kept, while the next event may join it. */
  private open: { at: number; field: "messageId" | "toolCallId"; target: string | undefined; type: string; subagentRunId: string | undefined; text: TextBuffer } | undefined;

  get isEmpty(): boolean {
    return this.kept.length === 0 && this.waiting.length === 0;
  }

  add(event: BaseEvent): void {
    if (!this.stopped && this.waiting.push(event) === BATCH) this.compactWaiting();
  }

  /** Takes no more events: what came so far is all there is. */
  stop(): void {
    this.stopped = true;
  }

  /** The events so far, compacted. */
  events(): BaseEvent[] {
    this.compactWaiting();
    this.close();
    return foldState(this.kept);
  }

  private compactWaiting(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const event of waiting) this.compact(event);
  }

  private compact(event: BaseEvent): void {
    const open = this.open;
    // The common case first: the next delta of the message or call streaming.
    if (open !== undefined && event.type === open.type) {
      const delta = event as Delta;
      const target = delta[open.field];
      if ((target === undefined || target === open.target) && delta.subagentRunId === open.subagentRunId && onlyMergeable(event)) return open.text.append(delta.delta ?? "");
    }
    this.close();
    const field = DELTAS[event.type];
    if (field !== undefined) {
      const delta = event as Delta;
      this.open = { at: this.kept.length, field, target: delta[field], type: event.type, subagentRunId: delta.subagentRunId, text: TextBuffer.of(delta.delta ?? "") };
    }
    this.kept.push(event);
  }

  /** The open delta takes its joined text. */
  private close(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    const first = this.kept[open.at] as Delta;
    const text = open.text.toString();
    if (text !== (first.delta ?? "")) this.kept[open.at] = { ...first, delta: text } as BaseEvent;
  }
}

/**
 * A run's events compacted (see `CompactingEvents`): consecutive deltas of
 * one message or call joined, and the state events before the run's last
 * STATE_SNAPSHOT left out (that snapshot replaces whatever they made). What
 * they show when replayed is what the events showed.
 */
export function compactEvents(events: readonly BaseEvent[]): BaseEvent[] {
  const compacting = new CompactingEvents();
  for (const event of events) compacting.add(event);
  return compacting.events();
}

/** The events without the state events that come before the last STATE_SNAPSHOT. */
function foldState(events: readonly BaseEvent[]): BaseEvent[] {
  let last = -1;
  for (let at = events.length - 1; at >= 0; at--) {
    if (events[at]!.type === EventType.STATE_SNAPSHOT) {
      last = at;
      break;
    }
  }
  if (last === -1) return [...events];
  return events.filter((event, at) => at >= last || (event.type !== EventType.STATE_SNAPSHOT && event.type !== EventType.STATE_DELTA));
}
