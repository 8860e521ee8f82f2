import "fake-indexeddb/auto";
import { indexedDbStore } from "../../src/persistence/indexedDbStore";
import { memoryStore } from "../../src/persistence/memoryStore";
import { summaryOf, type ConversationStore } from "../../src/persistence/store";
import { aSnapshot } from "./fixtures";

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
    await store.save(aSnapshot({ state: { n: 1 } }));
    await store.save(aSnapshot({ state: { n: 2 } }));
    expect(await store.load("thread-1")).toMatchObject({ state: { n: 2 } });
    expect(await store.list()).toHaveLength(1);
  });

  it("lists the threads kept, the latest saved first, with their titles", async () => {
    const store = makeStore();
    await store.save(aSnapshot({ threadId: "old", savedAt: "2026-12-01T08:00:00.000Z" }));
    await store.save(aSnapshot({ threadId: "new", savedAt: "2026-12-01T09:00:00.000Z", transcript: [] }));
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
  it("titles a thread with its first request, on one line, cut to 80 characters", () => {
    const long = `${"word ".repeat(30)}\n\nend`;
    const { title } = summaryOf(aSnapshot({ transcript: [{ kind: "request", id: "q", text: long, time: "2026-12-01T10:00:00.000Z" }] }));
    expect(title).toHaveLength(80);
    expect(title).toMatch(/^word word .*…$/);
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
    await store.save(aSnapshot({ savedAt: "2026-12-01T10:00:00.000Z", state: { n: 1 } }));
    store.saveNow!(aSnapshot({ savedAt: "2026-12-01T10:05:00.000Z", state: { n: 2 } }));
    expect(unloadStorage.items.size).toBe(1);
    expect(await store.load("thread-1")).toMatchObject({ state: { n: 2 } });
    expect(unloadStorage.items.size).toBe(0);
    expect(await store.load("thread-1")).toMatchObject({ state: { n: 2 } });
    expect(await store.list()).toEqual([expect.objectContaining({ savedAt: "2026-12-01T10:05:00.000Z" })]);
  });

  it("ignores an unload copy older than what IndexedDB holds, and a later save clears it", async () => {
    const unloadStorage = webStorage();
    const store = indexedDbStore({ database: `spec-unload-${++databases}`, unloadStorage });
    store.saveNow!(aSnapshot({ savedAt: "2026-12-01T09:00:00.000Z", state: { n: 0 } }));
    await store.save(aSnapshot({ savedAt: "2026-12-01T10:00:00.000Z", state: { n: 1 } }));
    expect(unloadStorage.items.size).toBe(0);
    store.saveNow!(aSnapshot({ savedAt: "2026-12-01T08:00:00.000Z", state: { n: -1 } }));
    expect(await store.load("thread-1")).toMatchObject({ state: { n: 1 } });
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
    await expect(memoryStore().save(aSnapshot({ state: cyclic }))).rejects.toThrow(TypeError);
  });
});
