import type { Message } from "@ag-ui/core";
import type { MessageList } from "./messageList";

/** What a MESSAGES_SNAPSHOT changed in the history: the messages it added or replaced, and whether it removed any. */
export interface Reconciled {
  updated: Message[];
  removed: boolean;
}

/**
 * Reconciles `list` with `messages` (a MESSAGES_SNAPSHOT) by id, as
 * `@ag-ui/client` does: the messages held that the snapshot has stay where
 * they are, as the snapshot has them (keeping an `encryptedValue` only they
 * had); the others go, except reasoning messages when the snapshot has none
 * (a server that does not keep them); the snapshot's new messages follow,
 * in its order, but for a new tool result, which goes right after the
 * message before it in the snapshot (and the kept ones after that), or last
 * when the history does not hold that one.
 *
 * It costs what the snapshot holds and changes: one pass over the snapshot,
 * one over the list (no search per message, no shifting per insertion). A
 * message the snapshot has as the list holds it keeps its object.
 */
export function reconcileSnapshot(list: MessageList, messages: readonly Message[]): Reconciled {
  const snapshot = new Map<string, Message>(messages.map((message) => [message.id, message]));
  const keepReasoning = !messages.some((message) => message.role === "reasoning");
  const updated: Message[] = [];
  let removed = false;
  const { items, positions, reserved } = list;
  // The messages held, each where it stands: replaced, kept or dropped (the list closes up in the same pass).
  let write = 0;
  for (let read = 0; read < items.length; read++) {
    const known = items[read]!;
    const update = snapshot.get(known.id);
    let kept: Message | undefined = known;
    if (update) {
      const wasReserved = reserved.delete(known.id);
      const reconciled = keptEncryptedValue(known, update);
      if (wasReserved || !sameJson(reconciled, known)) updated.push((kept = reconciled));
    } else if (known.role !== "reasoning" || !keepReasoning) {
      kept = undefined;
      positions.delete(known.id);
      // A place held for a message that never came was never shown: dropping it changes nothing seen.
      if (!reserved.delete(known.id)) removed = true;
    }
    if (kept === undefined) continue;
    items[write] = kept;
    if (write !== read) positions.set(kept.id, write);
    write++;
  }
  items.length = write;
  // The new messages: last, in the snapshot's order, but for a tool result after the message before it.
  // A LangGraph result sent under another id than it streamed so lands between its call and the answer after it.
  const tail: Message[] = [];
  /** New tool results going right after a held message (and the kept ones after it), by that message's id. */
  const after = new Map<string, Message[]>();
  /** Where the message before in the snapshot went, when new; its id, when held. */
  let previous: Message[] | string | undefined;
  for (const message of snapshot.values()) {
    if (positions.has(message.id)) {
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
  if (after.size > 0) insertAfter(list, after, snapshot);
  for (const message of tail) list.append(message);
  return { updated, removed };
}

/**
 * Puts each list of `after` right after the held message it is under and
 * the messages after that one that `snapshot` lacks, in one pass over the
 * list from the first of those messages.
 */
function insertAfter(list: MessageList, after: ReadonlyMap<string, readonly Message[]>, snapshot: ReadonlyMap<string, Message>): void {
  let from = list.items.length;
  for (const id of after.keys()) from = Math.min(from, list.positions.get(id)!);
  const rest = list.items.splice(from);
  let waiting: readonly Message[] | undefined;
  for (const message of rest) {
    if (waiting && snapshot.has(message.id)) {
      for (const inserted of waiting) list.append(inserted);
      waiting = undefined;
    }
    list.append(message);
    waiting = after.get(message.id) ?? waiting;
  }
  for (const inserted of waiting ?? []) list.append(inserted);
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
