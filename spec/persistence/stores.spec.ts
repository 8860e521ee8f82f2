import "fake-indexeddb/auto";
import { indexedDbStore } from "../../src/persistence/indexedDbStore";
import { memoryStore } from "../../src/persistence/memoryStore";
import { summaryOf, type ConversationStore } from "../../src/persistence/store";
import { aSnapshot, TIME } from "./fixtures";

/** `aSnapshot` telling `n` apart by its question. */
const numbered = (n: number, overrides: Parameters<typeof aSnapshot>[0] = {}) =>
  aSnapshot({ entries: [{ kind: "act", id: "e1", time: TIME, act: { type: "message", message: { id: "u", role: "user", content: `question ${n}` } } }], head: "e1", ...overrides });

let databases = 0;
const stores: [string, () => ConversationStore][] = [
  ["memoryStore", () => memoryStore()],
  ["indexedDbStore", () => indexedDbStore({ database: `spec-${++databases}` })],
];

describe.each(stores)("%s", (_name, makeStore) => {
  it("loads what was saved, as a copy, and nothing for a thread it does not hold", async () => {
    const store = makeStore();
    const snapshot = aSnapshot();
    await store.save(snapshot);
    const loaded = await store.load("thread-1");
    expect(loaded).toEqual(snapshot);
    expect(loaded).not.toBe(snapshot);
    expect(await store.load("thread-2")).toBeUndefined();
  });

  it("keeps one snapshot per thread, the latest saved", async () => {
    const store = makeStore();
    await store.save(numbered(1));
    await store.save(numbered(2));
    expect(await store.load("thread-1")).toEqual(numbered(2));
    expect(await store.list()).toHaveLength(1);
  });

  it("lists the threads kept, the latest saved first, with their titles", async () => {
    const store = makeStore();
    await store.save(aSnapshot({ threadId: "old", savedAt: "2026-12-01T08:00:00.000Z" }));
    await store.save(aSnapshot({ threadId: "new", savedAt: "2026-12-01T09:00:00.000Z", entries: [] }));
    expect(await store.list()).toEqual([
      { threadId: "new", title: "", savedAt: "2026-12-01T09:00:00.000Z" },
      { threadId: "old", title: "Weather in Oslo?", savedAt: "2026-12-01T08:00:00.000Z" },
    ]);
  });

  it("removes a thread, and removing one it does not hold is not an error", async () => {
    const store = makeStore();
    await store.save(aSnapshot());
    await store.remove("thread-1");
    await store.remove("never-saved");
    expect(await store.load("thread-1")).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });
});

describe("summaryOf", () => {
  it("titles a thread with its first question, on one line, cut to 80 characters (an imported one's first request too)", () => {
    const long = `${"word ".repeat(30)}\n\nend`;
    const { title } = summaryOf(aSnapshot({ entries: [{ kind: "act", id: "q", time: TIME, act: { type: "message", message: { id: "q", role: "user", content: long } } }], head: "q" }));
    expect(title).toHaveLength(80);
    expect(title).toMatch(/^word word .*…$/);
    const imported = aSnapshot({ entries: [{ kind: "imported", id: "i", time: TIME, messages: [], activities: [], transcript: [{ kind: "request", id: "q", text: "From before", time: TIME }] }], head: "i" });
    expect(summaryOf(imported).title).toBe("From before");
  });
});

/** A `localStorage` stand-in. */
function webStorage() {
  const items = new Map<string, string>();
  return { items, getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), removeItem: (key: string) => void items.delete(key) };
}

describe("indexedDbStore's save on unload", () => {
  it("keeps the snapshot synchronously in web storage; the next load takes it when newer, moves it to IndexedDB and clears it", async () => {
    const unloadStorage = webStorage();
    const store = indexedDbStore({ database: `spec-unload-${++databases}`, unloadStorage });
    await store.save(numbered(1, { savedAt: "2026-12-01T10:00:00.000Z" }));
    store.saveNow!(numbered(2, { savedAt: "2026-12-01T10:05:00.000Z" }));
    expect(unloadStorage.items.size).toBe(1);
    expect(await store.load("thread-1")).toEqual(numbered(2, { savedAt: "2026-12-01T10:05:00.000Z" }));
    expect(unloadStorage.items.size).toBe(0);
    expect(await store.load("thread-1")).toEqual(numbered(2, { savedAt: "2026-12-01T10:05:00.000Z" }));
    expect(await store.list()).toEqual([expect.objectContaining({ savedAt: "2026-12-01T10:05:00.000Z" })]);
  });

  it("ignores an unload copy older than what IndexedDB holds, and a later save clears it", async () => {
    const unloadStorage = webStorage();
    const store = indexedDbStore({ database: `spec-unload-${++databases}`, unloadStorage });
    store.saveNow!(numbered(0, { savedAt: "2026-12-01T09:00:00.000Z" }));
    await store.save(numbered(1, { savedAt: "2026-12-01T10:00:00.000Z" }));
    expect(unloadStorage.items.size).toBe(0);
    store.saveNow!(numbered(-1, { savedAt: "2026-12-01T08:00:00.000Z" }));
    expect(await store.load("thread-1")).toEqual(numbered(1, { savedAt: "2026-12-01T10:00:00.000Z" }));
    expect(unloadStorage.items.size).toBe(0);
  });
});

describe("indexedDbStore", () => {
  it("lists only the summaries it wrote, skipping records that are not summaries", async () => {
    const database = `spec-foreign-${++databases}`;
    const store = indexedDbStore({ database });
    await store.save(aSnapshot());
    const { createStore, set } = await import("idb-keyval");
    await set("summary:forged", { threadId: 42 }, createStore(database, "conversations"));
    expect((await store.list()).map((summary) => summary.threadId)).toEqual(["thread-1"]);
  });

  it("rejects, and does not throw, in a page without IndexedDB", async () => {
    const { indexedDB } = globalThis;
    // @ts-expect-error -- a page where storage is turned off
    delete globalThis.indexedDB;
    try {
      const store = indexedDbStore({ database: "spec-none" });
      await expect(store.save(aSnapshot())).rejects.toThrow(/indexedDB is not defined/);
      await expect(store.list()).rejects.toThrow();
    } finally {
      globalThis.indexedDB = indexedDB;
    }
  });
});

describe("memoryStore", () => {
  it("fails to save what is not JSON", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(memoryStore().save({ ...aSnapshot(), savedAt: cyclic } as never)).rejects.toThrow(TypeError);
  });
});
