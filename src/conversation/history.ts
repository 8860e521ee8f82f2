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

  constructor(messages: readonly HistoryMessage[] = []) {
    for (const message of messages) this.place(message);
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
   */
  replace(messages: readonly HistoryMessage[]): void {
    const snapshot = new Map<string, Message>(messages.map((message) => [message.id, message]));
    const keepReasoning = !messages.some((message) => message.role === "reasoning");
    const previous = this.list.slice();
    const wasReserved = new Set(this.reserved);
    this.list.length = 0;
    this.positions.clear();
    this.reserved.clear();
    for (const known of previous) {
      const update = snapshot.get(known.id);
      if (update) {
        const encryptedValue = (known as { encryptedValue?: string }).encryptedValue;
        const keepsValue = known.role === update.role && encryptedValue !== undefined && (update as { encryptedValue?: string }).encryptedValue === undefined;
        this.place(keepsValue ? ({ ...update, encryptedValue } as Message) : update);
      } else if (known.role === "reasoning" && keepReasoning) {
        if (wasReserved.has(known.id)) this.reserve(known.id, "reasoning");
        else this.place(known);
      }
    }
    // A result LangGraph sends under another id than it streamed lands between its call and the answer after it.
    let before: string | undefined;
    for (const message of snapshot.values()) {
      if (!this.positions.has(message.id)) this.place(message, message.role === "tool" ? this.positionAfter(before, snapshot) : this.list.length);
      before = message.id;
    }
    this.publish();
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

  /** Empties the history. */
  clear(): void {
    this.list.length = 0;
    this.positions.clear();
    this.reserved.clear();
    this.pendingEncryptedValues.clear();
    this.publish();
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

  /** Right after the message `id` and the messages after it that `snapshot` lacks; last when `id` is not held. */
  private positionAfter(id: string | undefined, snapshot: ReadonlyMap<string, Message>): number {
    const at = id === undefined ? undefined : this.positions.get(id);
    if (at === undefined) return this.list.length;
    let position = at + 1;
    while (position < this.list.length && !snapshot.has(this.list[position]!.id)) position++;
    return position;
  }

  /** Where a new result of `toolCallId` goes: after the assistant message holding the call and the results after it; else last. */
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
