import type { LogEntry, ThreadLogData } from "../thread/log";

/** The snapshot format this library writes. It reads version 1 too (`parseSnapshot` migrates it). */
export const SNAPSHOT_VERSION = 2;

/**
 * A thread as plain JSON, enough to restore it with no agent: its log, as
 * AG-UI's serialization keeps a thread (each run's events, compacted, and
 * what the person did between them), with the branch it was on. The
 * history the agent is sent, the chat, the cards and the versions are all
 * read from it again. Never a token, a header, `tools`, `context` or
 * `forwardedProps`: those are the adapter's options, not the thread's.
 */
export interface ConversationSnapshot {
  version: typeof SNAPSHOT_VERSION;
  threadId: string;
  /** ISO 8601: when it was taken. */
  savedAt: string;
  entries: readonly LogEntry[];
  /** The current branch's last entry. */
  head?: string;
}

/** A snapshot of a thread's log now. Its entries are the log's values, not copies. */
export function snapshotOf(log: ThreadLogData, savedAt: Date): ConversationSnapshot {
  return { version: SNAPSHOT_VERSION, threadId: log.threadId, savedAt: savedAt.toISOString(), entries: log.entries, ...(log.head !== undefined && { head: log.head }) };
}

/** The log a snapshot holds. */
export const logOf = (snapshot: ConversationSnapshot): ThreadLogData => ({ threadId: snapshot.threadId, entries: snapshot.entries, ...(snapshot.head !== undefined && { head: snapshot.head }) });
