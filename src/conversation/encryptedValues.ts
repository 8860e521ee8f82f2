import type { Message, ToolCall } from "@ag-ui/core";
import type { MessageList } from "./messageList";

/** How many encrypted values may wait for their message or tool call at once; the oldest goes first. */
const MAX_WAITING = 256;

type Subtype = "message" | "tool-call";

/**
 * A provider's encrypted reasoning values (REASONING_ENCRYPTED_VALUE), put
 * on the message or tool call they belong to, to be sent back verbatim with
 * later runs. One that arrives before its message or tool call waits for it
 * (at most `MAX_WAITING` wait).
 */
export class EncryptedValues {
  private readonly waiting = new Map<string, string>();

  /** Puts the value on its message or tool call in `list`; when neither is there yet, it waits. Returns whether `list` changed. */
  attach(list: MessageList, subtype: Subtype, entityId: string, value: string): boolean {
    if (apply(list, subtype, entityId, value)) return true;
    if (this.waiting.size >= MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value as string);
    this.waiting.set(`${subtype}:${entityId}`, value);
    return false;
  }

  /** Puts the values waiting for `message` (or its tool calls) on it, now that it is in `list`. */
  settle(list: MessageList, message: Message): void {
    if (this.waiting.size === 0) return;
    const keys = [`message:${message.id}`, ...((message as { toolCalls?: ToolCall[] }).toolCalls ?? []).map((call) => `tool-call:${call.id}`)];
    for (const key of keys) {
      const value = this.waiting.get(key);
      if (value === undefined) continue;
      this.waiting.delete(key);
      const [subtype, ...rest] = key.split(":");
      apply(list, subtype as Subtype, rest.join(":"), value);
    }
  }
}

/** Sets the value on its message or tool call in `list`; false when neither is there yet. */
function apply(list: MessageList, subtype: Subtype, entityId: string, encryptedValue: string): boolean {
  if (subtype === "message") {
    const message = list.get(entityId);
    if (!message) return false;
    // A message with nothing but its encrypted value (encrypted reasoning) is kept for it.
    list.reserved.delete(entityId);
    list.replaceAt(entityId, { ...message, encryptedValue } as Message);
    return true;
  }
  for (let position = list.items.length - 1; position >= 0; position--) {
    const message = list.items[position] as Message & { toolCalls?: ToolCall[] };
    if (!message.toolCalls?.some((call) => call.id === entityId)) continue;
    const toolCalls = message.toolCalls.map((call) => (call.id === entityId ? { ...call, encryptedValue } : call));
    list.items[position] = { ...message, toolCalls } as Message;
    return true;
  }
  return false;
}
