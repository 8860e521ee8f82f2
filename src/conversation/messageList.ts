import type { Message, ToolCall } from "@ag-ui/core";

/**
 * The messages of a history in order, with each one's position by id, and
 * the places held for messages that have started but hold nothing yet
 * (`reserved`, left out of what is published). What `History` and the
 * snapshot reconciliation edit; they keep positions right through it.
 */
export class MessageList {
  readonly items: Message[] = [];
  readonly positions = new Map<string, number>();
  readonly reserved = new Set<string>();

  has(id: string): boolean {
    return this.positions.has(id);
  }

  /** The message with this id, where it stands. */
  get(id: string): Message | undefined {
    const position = this.positions.get(id);
    return position === undefined ? undefined : this.items[position];
  }

  /** Puts `message` in the place of the one with its id (which must be there). */
  replaceAt(id: string, message: Message): void {
    this.items[this.positions.get(id)!] = message;
  }

  append(message: Message): void {
    this.positions.set(message.id, this.items.length);
    this.items.push(message);
  }

  /** Holds a place last for a message that has started (see `History.reserve`). */
  reserve(id: string, role: Message["role"], subagentRunId?: string): void {
    if (this.positions.has(id)) return;
    const by = subagentRunId === undefined ? {} : { subagentRunId };
    this.append((role === "assistant" ? { id, role, ...by } : { id, role, content: "", ...by }) as Message);
    this.reserved.add(id);
  }

  /**
   * Records `message` in its place, or, when new, at `at` (default: a tool
   * result after its call's results, anything else last). An update of the
   * same role keeps the fields it does not carry and merges tool calls by
   * id; tool calls under another role's message each go to an assistant
   * message of their own, named after the call, as `@ag-ui/client` does.
   */
  place(message: Message, at?: number): void {
    const existing = this.get(message.id);
    const toolCalls = (message as { toolCalls?: ToolCall[] }).toolCalls;
    if (existing && existing.role !== "assistant" && message.role === "assistant" && toolCalls && !this.reserved.has(message.id)) {
      for (const call of toolCalls) this.place({ id: call.id, role: "assistant", toolCalls: [call] });
      return;
    }
    if (!existing) return this.insert(at ?? (message.role === "tool" ? this.resultPosition(message.toolCallId) : this.items.length), message);
    this.replaceAt(message.id, this.reserved.delete(message.id) || existing.role !== message.role ? message : mergeMessages(existing, message));
  }

  /** The messages published: the list without the places held for messages that have nothing yet. */
  visible(): Message[] {
    return this.reserved.size === 0 ? this.items.slice() : this.items.filter((message) => !this.reserved.has(message.id));
  }

  /**
   * Where a new result of `toolCallId` goes: after the assistant message holding the call and the results after it; else last.
   * A scan, as `@ag-ui/client`'s: an index of the calls would spare it, but not make `upsert` O(1), which republishes a copy
   * of the list on every change and, for a result in the middle, shifts the positions after it.
   */
  private resultPosition(toolCallId: string): number {
    const owner = this.items.findIndex((message) => message.role === "assistant" && message.toolCalls?.some((call) => call.id === toolCallId));
    if (owner === -1) return this.items.length;
    let position = owner + 1;
    while (position < this.items.length && this.items[position]!.role === "tool") position++;
    return position;
  }

  private insert(position: number, message: Message): void {
    this.items.splice(position, 0, message);
    for (let at = position; at < this.items.length; at++) this.positions.set(this.items[at]!.id, at);
  }
}

/**
 * A message updated by another of the same id and role: its fields win, tool
 * calls are merged by id, and the message stays whose it was (a subagent's
 * call added to the parent's message leaves it the parent's, as
 * `@ag-ui/client` keeps the attribution a message was created with).
 */
function mergeMessages(existing: Message, update: Message): Message {
  const merged = { ...existing, ...update } as Message & { toolCalls?: ToolCall[]; subagentRunId?: string };
  const owner = (existing as { subagentRunId?: string }).subagentRunId;
  if (owner === undefined) delete merged.subagentRunId;
  else merged.subagentRunId = owner;
  const before = (existing as { toolCalls?: ToolCall[] }).toolCalls;
  const after = (update as { toolCalls?: ToolCall[] }).toolCalls;
  if (before && after) {
    const byId = new Map(before.map((call) => [call.id, call]));
    for (const call of after) byId.set(call.id, { ...byId.get(call.id), ...call });
    merged.toolCalls = [...byId.values()];
  }
  return merged;
}
