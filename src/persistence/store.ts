import { describeContent } from "../contentParts";
import { isRecord } from "../internal/isRecord";
import type { ConversationSnapshot } from "./snapshot";

/** What a list of threads shows of each, without loading it. */
export interface ThreadSummary {
  threadId: string;
  /** The first thing the person asked (at most 80 characters); empty before that. */
  title: string;
  /** ISO 8601: the last save. */
  savedAt: string;
}

/**
 * Where conversations are kept, one snapshot per thread. Each call may fail
 * (a full quota, storage turned off, a server down): the adapter reports it
 * and the chat goes on. `load` gives the document as stored, unchecked:
 * `parseSnapshot` reads it, whichever store it came from.
 */
export interface ConversationStore {
  /** The stored snapshot of a thread, unchecked, or undefined when there is none. */
  load(threadId: string): Promise<unknown>;
  /** Keeps the snapshot as the thread's, in place of the one before. */
  save(snapshot: ConversationSnapshot): Promise<void>;
  remove(threadId: string): Promise<void>;
  /** The threads kept, the latest saved first. */
  list(): Promise<ThreadSummary[]>;
  /**
   * Keeps the snapshot at once, synchronously, for a page that is going
   * away (`pagehide`): a browser drops asynchronous writes begun then (an
   * IndexedDB transaction does not survive a reload). Best effort; `load`
   * prefers it when it is newer. Without it, the adapter calls `save`.
   */
  saveNow?(snapshot: ConversationSnapshot): void;
}

const TITLE_LENGTH = 80;

/** A thread's title from what the person first asked: trimmed, its whitespace collapsed, at most 80 characters (the last "…" when clipped). */
export function titleOf(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

/** The summary of a snapshot, for `list`: titled by the first thing the person asked in it. */
export function summaryOf(snapshot: ConversationSnapshot): ThreadSummary {
  return { threadId: snapshot.threadId, title: titleOf(firstQuestion(snapshot.entries) ?? ""), savedAt: snapshot.savedAt };
}

function firstQuestion(entries: ConversationSnapshot["entries"]): string | undefined {
  for (const entry of entries) {
    if (entry.kind === "act" && entry.act.type === "message") return describeContent(entry.act.message.content);
    const request = entry.kind === "imported" ? entry.transcript.find((shown) => shown.kind === "request") : undefined;
    if (request?.kind === "request") return request.text;
  }
  return undefined;
}

/** Whether a stored summary has the fields a list shows (storage anyone on the page can write). */
export function isThreadSummary(value: unknown): value is ThreadSummary {
  return isRecord(value) && typeof value.threadId === "string" && typeof value.title === "string" && typeof value.savedAt === "string";
}

/** The latest saved first. */
export const byLatestSave = (a: ThreadSummary, b: ThreadSummary): number => (a.savedAt < b.savedAt ? 1 : a.savedAt > b.savedAt ? -1 : 0);
