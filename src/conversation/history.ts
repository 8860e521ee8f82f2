import type { Message, ToolCall } from "@ag-ui/core";
import { BehaviorSubject, type Observable } from "rxjs";
import { findToolCall } from "../internal/findToolCall";

const MAX_PENDING_ENCRYPTED_VALUES = 256;

/** A message of the history: any role but `activity`, which is an activity, not history. */
export type HistoryMessage = Exclude<Message, { role: "activity" }>;

/**
 * The message history of a thread, in the order `@ag-ui/client` keeps it:
 * an array with each message's position by id, so a message is replaced
 * where it stands, republished frozen through `messages$` on each change
 * (never per streamed event).
 */
export class History {
  private readonly list: Message[] = [];
  /** Position of each message in `list`, by id. */
  private readonly positions = new Map<string, number>();
  /** Ids whose place in `list` is held for a message that has started but has nothing to keep yet (see `reserve`); left out of `messages`. */
  private readonly reserved = new Set<string>();
  /** Encrypted values that came before their message or tool call, by `${subtype}:${entityId}`; capped. */
  private readonly pendingEncryptedValues = new Map<string, string>();
  private readonly subject = new BehaviorSubject<readonly Message[]>(Object.freeze([]));

  /** The history, republished on every change. */
  readonly messages$: Observable<readonly Message[]> = this.subject.asObservable();

  /**
   * A history holding `messages` (e.g. restored from storage) in the order
   * given, as `@ag-ui/client` keeps its `initialMessages`: a tool result
   * stays where it is, also after an answer that followed its call
   * (LangGraph's threads), rather than being moved next to the call. One
   * pass: a message is appended, or, when its id came before, updated where
   * that one stands (as `upsert` does).
   */
  constructor(messages: readonly HistoryMessage[] = []) {
    for (const message of messages) {
      if (this.positions.has(message.id)) this.place(message);
      else this.append(message);
    }
    this.publish();
  }

  get messages(): readonly Message[] {
    return this.subject.value;
  }

  /**
   * Adds a message, or updates the one with the same id where it stands. An
   * update of the same role keeps the fields it does not carry and merges tool
   * calls by id, so an assistant message's text and its tool calls can arrive
   * in either order, and in several runs. As in `@ag-ui/client`:
   *
   * - a new `tool` message goes right after the assistant message holding its
   *   call (and the results already there), so a result always follows its call;
   * - tool calls sent under the id of a message that is not an assistant's
   *   (a `parentMessageId` naming the user's message) each go to an assistant
   *   message of their own, named after the call, and leave that message alone.
   */
  upsert(message: HistoryMessage): void {
    this.place(message);
    this.publish();
  }

  /**
   * Holds the place of a message that has just started (its START event), so
   * that the history keeps the order in which messages began, whenever each
   * is complete. The place stays out of `messages` until the message (or an
   * encrypted value for it) arrives; a message that never has anything to
   * keep leaves no trace.
   */
  reserve(id: string, role: "assistant" | "user" | "system" | "developer" | "reasoning"): void {
    if (this.positions.has(id)) return;
    this.positions.set(id, this.list.length);
    this.list.push((role === "assistant" ? { id, role } : { id, role, content: "" }) as Message);
    this.reserved.add(id);
  }

  /**
   * Replaces the history with `messages` (a MESSAGES_SNAPSHOT), reconciled by
   * id as `@ag-ui/client` does: the messages we hold that the snapshot has
   * stay where they are, as the snapshot has them (keeping an
   * `encryptedValue` only we had); the others go, except reasoning messages
   * when the snapshot has none (a server that does not keep them); the
   * snapshot's new messages follow, in its order, but for a new tool result,
   * which goes right after the message before it in the snapshot (and the
   * kept ones after that), or last when the history does not hold that one.
   *
   * It costs what the snapshot holds and changes: one pass over the snapshot,
   * one over the history (no search per message, no shifting per insertion).
   * A message the snapshot has as we hold it keeps its object, and a snapshot
   * that changes nothing publishes nothing.
   */
  replace(messages: readonly HistoryMessage[]): void {
    const snapshot = new Map<string, Message>(messages.map((message) => [message.id, message]));
    const keepReasoning = !messages.some((message) => message.role === "reasoning");
    const updated: Message[] = [];
    let removed = false;
    // The messages we hold, each where it stands: replaced, kept or dropped (the list closes up in the same pass).
    let write = 0;
    for (let read = 0; read < this.list.length; read++) {
      const known = this.list[read]!;
      const update = snapshot.get(known.id);
      let kept: Message | undefined = known;
      if (update) {
        const wasReserved = this.reserved.delete(known.id);
        const reconciled = keptEncryptedValue(known, update);
        if (wasReserved || !sameJson(reconciled, known)) updated.push((kept = reconciled));
      } else if (known.role !== "reasoning" || !keepReasoning) {
        kept = undefined;
        this.positions.delete(known.id);
        // A place held for a message that never came was never shown: dropping it changes nothing seen.
        if (!this.reserved.delete(known.id)) removed = true;
      }
      if (kept === undefined) continue;
      this.list[write] = kept;
      if (write !== read) this.positions.set(kept.id, write);
      write++;
    }
    this.list.length = write;
    // The new messages: last, in the snapshot's order, but for a tool result after the message before it.
    // A LangGraph result sent under another id than it streamed so lands between its call and the answer after it.
    const tail: Message[] = [];
    /** New tool results going right after a held message (and the kept ones after it), by that message's id. */
    const after = new Map<string, Message[]>();
    /** Where the message before in the snapshot went, when new; its id, when held. */
    let previous: Message[] | string | undefined;
    for (const message of snapshot.values()) {
      if (this.positions.has(message.id)) {
        previous = message.id;
        continue;
      }
      let lane = tail;
      if (message.role === "tool" && typeof previous === "string") after.set(previous, (lane = []));
      else if (message.role === "tool" && Array.isArray(previous)) lane = previous;
      lane.push(message);
      updated.push(message);
      previous = lane;
    }
    if (after.size > 0) this.insertAfter(after, snapshot);
    for (const message of tail) this.append(message);
    if (this.pendingEncryptedValues.size > 0) for (const message of updated) this.applyPendingEncryptedValues(this.list[this.positions.get(message.id)!]!);
    if (updated.length > 0 || removed) this.publish();
  }

  /** The latest tool call with this id, with the id of the assistant message that made it. */
  findToolCall(toolCallId: string): { call: ToolCall; messageId: string } | undefined {
    return findToolCall(this.list, toolCallId);
  }

  /** Whether the history holds a message with this id (or the place of one that has started). */
  has(id: string): boolean {
    return this.positions.has(id);
  }

  /**
   * Attaches a provider's encrypted reasoning value to the message or tool
   * call it belongs to, to be sent back with later runs. One that arrives
   * before its message or tool call waits for it (at most 256 wait).
   */
  attachEncryptedValue(subtype: "message" | "tool-call", entityId: string, encryptedValue: string): void {
    if (this.applyEncryptedValue(subtype, entityId, encryptedValue)) return this.publish();
    if (this.pendingEncryptedValues.size >= MAX_PENDING_ENCRYPTED_VALUES) {
      this.pendingEncryptedValues.delete(this.pendingEncryptedValues.keys().next().value as string);
    }
    this.pendingEncryptedValues.set(`${subtype}:${entityId}`, encryptedValue);
  }

  /** Records `message` in its place, or, when new, at `at` (default: a tool result after its call's results, anything else last). */
  private place(message: Message, at?: number): void {
    const position = this.positions.get(message.id);
    const existing = position === undefined ? undefined : this.list[position]!;
    const toolCalls = (message as { toolCalls?: ToolCall[] }).toolCalls;
    if (existing && existing.role !== "assistant" && message.role === "assistant" && toolCalls && !this.reserved.has(message.id)) {
      // Tool calls under another role's message: each in an assistant message of its own, as @ag-ui/client does.
      for (const call of toolCalls) this.place({ id: call.id, role: "assistant", toolCalls: [call] });
      return;
    }
    if (position === undefined) {
      this.insert(at ?? (message.role === "tool" ? this.resultPosition(message.toolCallId) : this.list.length), message);
    } else if (this.reserved.delete(message.id)) {
      this.list[position] = message;
    } else {
      this.list[position] = existing!.role === message.role ? mergeMessages(existing!, message) : message;
    }
    if (this.pendingEncryptedValues.size > 0) this.applyPendingEncryptedValues(this.list[this.positions.get(message.id)!]!);
  }

  /**
   * Puts each list of `after` right after the held message it is under and
   * the messages after that one that `snapshot` lacks, in one pass over the
   * list from the first of those messages.
   */
  private insertAfter(after: ReadonlyMap<string, readonly Message[]>, snapshot: ReadonlyMap<string, Message>): void {
    let from = this.list.length;
    for (const id of after.keys()) from = Math.min(from, this.positions.get(id)!);
    const rest = this.list.splice(from);
    let waiting: readonly Message[] | undefined;
    for (const message of rest) {
      if (waiting && snapshot.has(message.id)) {
        for (const inserted of waiting) this.append(inserted);
        waiting = undefined;
      }
      this.append(message);
      waiting = after.get(message.id) ?? waiting;
    }
    for (const inserted of waiting ?? []) this.append(inserted);
  }

  private append(message: Message): void {
    this.positions.set(message.id, this.list.length);
    this.list.push(message);
  }

  /**
   * Where a new result of `toolCallId` goes: after the assistant message holding the call and the results after it; else last.
   * A scan, as `@ag-ui/client`'s: an index of the calls would spare it, but not make `upsert` O(1), which republishes a copy
   * of the list on every change and, for a result in the middle, shifts the positions after it.
   */
  private resultPosition(toolCallId: string): number {
    const owner = this.list.findIndex((message) => message.role === "assistant" && message.toolCalls?.some((call) => call.id === toolCallId));
    if (owner === -1) return this.list.length;
    let position = owner + 1;
    while (position < this.list.length && this.list[position]!.role === "tool") position++;
    return position;
  }

  private insert(position: number, message: Message): void {
    this.list.splice(position, 0, message);
    for (let at = position; at < this.list.length; at++) this.positions.set(this.list[at]!.id, at);
  }

  private applyPendingEncryptedValues(message: Message): void {
    const ids = [`message:${message.id}`, ...((message as { toolCalls?: ToolCall[] }).toolCalls ?? []).map((call) => `tool-call:${call.id}`)];
    for (const key of ids) {
      const value = this.pendingEncryptedValues.get(key);
      if (value === undefined) continue;
      this.pendingEncryptedValues.delete(key);
      const [subtype, ...rest] = key.split(":");
      this.applyEncryptedValue(subtype as "message" | "tool-call", rest.join(":"), value);
    }
  }

  /** Sets the value on its message or tool call; false when neither is in the history yet. */
  private applyEncryptedValue(subtype: "message" | "tool-call", entityId: string, encryptedValue: string): boolean {
    if (subtype === "message") {
      const position = this.positions.get(entityId);
      if (position === undefined) return false;
      // A message with nothing but its encrypted value (encrypted reasoning) is kept for it.
      this.reserved.delete(entityId);
      this.list[position] = { ...this.list[position]!, encryptedValue } as Message;
      return true;
    }
    for (let position = this.list.length - 1; position >= 0; position--) {
      const message = this.list[position] as Message & { toolCalls?: ToolCall[] };
      if (!message.toolCalls?.some((call) => call.id === entityId)) continue;
      const toolCalls = message.toolCalls.map((call) => (call.id === entityId ? { ...call, encryptedValue } : call));
      this.list[position] = { ...message, toolCalls } as Message;
      return true;
    }
    return false;
  }

  private publish(): void {
    const messages = this.reserved.size === 0 ? this.list.slice() : this.list.filter((message) => !this.reserved.has(message.id));
    this.subject.next(Object.freeze(messages));
  }
}

/** The snapshot's `update` of `known`, with the `encryptedValue` only `known` had (same role). */
function keptEncryptedValue(known: Message, update: Message): Message {
  const encryptedValue = (known as { encryptedValue?: string }).encryptedValue;
  const keeps = known.role === update.role && encryptedValue !== undefined && (update as { encryptedValue?: string }).encryptedValue === undefined;
  return keeps ? ({ ...update, encryptedValue } as Message) : update;
}

/** Whether two JSON values are the same, key order included (so one can stand for the other in what is sent back). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, index) => sameJson(value, other[index]));
  }
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  return keys.every((key, index) => key === otherKeys[index] && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** A message updated by another of the same id and role: its fields win, tool calls are merged by id. */
function mergeMessages(existing: Message, update: Message): Message {
  const merged = { ...existing, ...update } as Message & { toolCalls?: ToolCall[] };
  const before = (existing as { toolCalls?: ToolCall[] }).toolCalls;
  const after = (update as { toolCalls?: ToolCall[] }).toolCalls;
  if (before && after) {
    const byId = new Map(before.map((call) => [call.id, call]));
    for (const call of after) byId.set(call.id, { ...byId.get(call.id), ...call });
    merged.toolCalls = [...byId.values()];
  }
  return merged;
}
