import { createStore, delMany, get, getMany, keys, setMany, type UseStore } from "idb-keyval";
import { isRecord } from "../internal/isRecord";
import type { ConversationSnapshot } from "./snapshot";
import { byLatestSave, isThreadSummary, summaryOf, type ConversationStore } from "./store";

export interface IndexedDbStoreOptions {
  /** The IndexedDB database. Default "carbon-agui-rx". */
  database?: string;
  /** Its object store. Default "conversations". */
  storeName?: string;
  /** Where `saveNow` writes when the page goes away. Default `globalThis.localStorage`. */
  unloadStorage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
}

const SNAPSHOT = "snapshot:";
const SUMMARY = "summary:";

/** When a stored document says it was saved; "" for one that says nothing usable. */
const savedAt = (document: unknown): string => (isRecord(document) && typeof document.savedAt === "string" ? document.savedAt : "");

/**
 * A browser store in IndexedDB (through `idb-keyval`), for conversations
 * that outlive the page: one record for each thread's snapshot (an object,
 * copied by IndexedDB's structured clone off the caller's task: faster than
 * JSON text, see docs/dependencies.md) and one for its summary, written
 * together in one transaction, so `list` reads no snapshot. Every tab of the
 * origin shares it.
 *
 * A page going away cannot finish an IndexedDB write (measured in
 * Chromium: a transaction begun on `pagehide` is lost on reload), so
 * `saveNow` writes the snapshot as JSON to `localStorage`, synchronously;
 * the next `load` of that thread takes it when it is newer than the
 * IndexedDB record, moves it there, and clears it. A snapshot too large for
 * `localStorage` is lost then (the last turn's save stays).
 */
export function indexedDbStore(options: IndexedDbStoreOptions = {}): ConversationStore {
  const { database = "carbon-agui-rx", storeName = "conversations", unloadStorage = globalThis.localStorage } = options;
  let opened: UseStore | undefined;
  // Opened on first use, inside each call: a page without IndexedDB gets a rejection, not a throw.
  const store = () => (opened ??= createStore(database, storeName));
  const unloadKey = (threadId: string) => `${database}/${storeName}/unload:${threadId}`;
  const write = (snapshot: ConversationSnapshot) =>
    setMany(
      [
        [`${SNAPSHOT}${snapshot.threadId}`, snapshot],
        [`${SUMMARY}${snapshot.threadId}`, summaryOf(snapshot)],
      ],
      store(),
    );
  return {
    load: async (threadId) => {
      const stored = await get<unknown>(`${SNAPSHOT}${threadId}`, store());
      const unloaded = unloadStorage?.getItem(unloadKey(threadId));
      if (unloaded === null || unloaded === undefined) return stored;
      unloadStorage?.removeItem(unloadKey(threadId));
      const saved = JSON.parse(unloaded) as ConversationSnapshot;
      if (savedAt(stored) >= savedAt(saved)) return stored;
      // Checked by whoever reads it (parseSnapshot) before it is used; kept in IndexedDB as the latest.
      if (typeof saved?.threadId === "string" && saved.threadId === threadId) await write(saved);
      return saved;
    },
    save: async (snapshot: ConversationSnapshot) => {
      await write(snapshot);
      // An older copy kept on unload is stale now.
      unloadStorage?.removeItem(unloadKey(snapshot.threadId));
    },
    saveNow: (snapshot) => unloadStorage?.setItem(unloadKey(snapshot.threadId), JSON.stringify(snapshot)),
    remove: async (threadId) => {
      unloadStorage?.removeItem(unloadKey(threadId));
      await delMany([`${SNAPSHOT}${threadId}`, `${SUMMARY}${threadId}`], store());
    },
    list: async () => {
      const summaryKeys = (await keys(store())).filter((key) => typeof key === "string" && key.startsWith(SUMMARY));
      const summaries = await getMany<unknown>(summaryKeys, store());
      return summaries.filter(isThreadSummary).sort(byLatestSave);
    },
  };
}
