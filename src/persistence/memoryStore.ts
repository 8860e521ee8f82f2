import type { ConversationSnapshot } from "./snapshot";
import { byLatestSave, summaryOf, type ConversationStore, type ThreadSummary } from "./store";

/**
 * A store in memory, for tests and for a page that keeps conversations only
 * while it is open (threads to switch between). Each snapshot is kept as
 * JSON text, as a real store would: what `load` gives is a copy, and a
 * snapshot that is not JSON fails `save`.
 */
export function memoryStore(): ConversationStore {
  const kept = new Map<string, { json: string; summary: ThreadSummary }>();
  return {
    load: async (threadId) => {
      const entry = kept.get(threadId);
      return entry === undefined ? undefined : JSON.parse(entry.json);
    },
    save: async (snapshot: ConversationSnapshot) => {
      kept.set(snapshot.threadId, { json: JSON.stringify(snapshot), summary: summaryOf(snapshot) });
    },
    remove: async (threadId) => {
      kept.delete(threadId);
    },
    list: async () => Array.from(kept.values(), (entry) => entry.summary).sort(byLatestSave),
  };
}
