import { AgUiSnapshotError } from "../../src/errors";
import { parseSnapshot } from "../../src/persistence/schema";
import type { RunEntry } from "../../src/thread/log";
import { aSnapshot, aVersion1Snapshot, TIME } from "./fixtures";

const problemsOf = (raw: unknown) => {
  try {
    parseSnapshot(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(AgUiSnapshotError);
    return error as AgUiSnapshotError;
  }
  throw new Error("parseSnapshot accepted it");
};
const runOf = (raw: { entries: readonly unknown[] }) => raw.entries[1] as RunEntry;

describe("parseSnapshot", () => {
  it("reads a snapshot as it was saved, JSON round trip included", () => {
    const snapshot = aSnapshot();
    expect(parseSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
  });

  it("keeps the events as they came, an encrypted value verbatim", () => {
    expect(runOf(parseSnapshot(aSnapshot())).events).toContainEqual(expect.objectContaining({ encryptedValue: "opaque-provider-blob" }));
  });

  it("drops fields it does not know, so a document carrying forwardedProps or headers does not bring them along", () => {
    const parsed = parseSnapshot({ ...aSnapshot(), forwardedProps: { token: "secret" }, headers: { authorization: "Bearer x" } });
    expect(parsed).not.toHaveProperty("forwardedProps");
    expect(parsed).not.toHaveProperty("headers");
  });

  it("refuses what is not an object", () => {
    for (const raw of [undefined, null, "text", 42, []]) expect(problemsOf(raw).message).toMatch(/not a snapshot/);
  });

  it("reads version 1 into a log, and discards another version with a typed error, naming the version only when it is a number", () => {
    expect(parseSnapshot(aVersion1Snapshot()).version).toBe(2);
    expect(problemsOf({ ...aSnapshot(), version: 0 }).message).toBe("The stored conversation has version 0; this library reads versions 1 and 2, so it was discarded");
    expect(problemsOf({ ...aSnapshot(), version: 3 }).message).toMatch(/has version 3;/);
    const { version: _version, ...unversioned } = aSnapshot();
    expect(problemsOf(unversioned).message).toMatch(/has no version;/);
    expect(problemsOf({ ...aSnapshot(), version: "secret-looking-string" }).message).not.toContain("secret-looking-string");
  });

  it("says which field does not fit and where, without its value", () => {
    const snapshot = aSnapshot();
    const broken = { ...snapshot, entries: [{ ...snapshot.entries[0], act: { type: "message", message: { id: "m", role: "user", content: { secret: "do-not-echo" } } } }, ...snapshot.entries.slice(1)] };
    const error = problemsOf(broken);
    expect(error.problems.join(" ")).toMatch(/^entries\.0\.act\.message/);
    expect(error.message).not.toContain("do-not-echo");
  });

  it("checks each entry: a run's end and events, an act's kind, a decision, that the head is an entry and that every entry grows from one before it", () => {
    const snapshot = aSnapshot();
    const [asked, run, decided] = snapshot.entries as [unknown, RunEntry, unknown];
    expect(problemsOf({ ...snapshot, entries: [asked, { ...run, ended: "maybe" }] }).problems[0]).toMatch(/^entries\.1\.ended: /);
    expect(problemsOf({ ...snapshot, entries: [asked, { ...run, events: [{ noType: true }] }] }).problems[0]).toMatch(/^entries\.1\.events\.0\.type: /);
    expect(problemsOf({ ...snapshot, entries: [asked, run, { ...(decided as object), act: { type: "decision", interruptId: "i", decision: { type: "maybe" } } }] }).problems[0]).toMatch(/^entries\.2\.act\.decision/);
    expect(problemsOf({ ...snapshot, entries: [{ ...run, time: "yesterday" }] }).problems.join(" ")).toMatch(/entries\.0\.time: /);
    expect(problemsOf({ ...snapshot, head: "nowhere" }).problems[0]).toMatch(/the head must be an entry of the log/);
    expect(problemsOf({ ...snapshot, entries: [run, asked], head: "e1" }).problems[0]).toMatch(/every entry must grow from one written before it/);
  });

  it("lists at most 10 problems", () => {
    const entries = Array.from({ length: 30 }, (_, index) => ({ kind: "act", id: `a${index}`, time: TIME, act: { type: "message", message: { id: index, role: "user", content: "x" } } }));
    expect(problemsOf({ ...aSnapshot(), entries, head: undefined }).problems).toHaveLength(10);
  });

  it("refuses a document that is not JSON (a cycle)", () => {
    const cyclic: Record<string, unknown> = { ...aSnapshot() };
    cyclic.savedAt = cyclic;
    expect(problemsOf(cyclic).message).toBe("The stored conversation is not JSON (TypeError)");
  });
});

describe("parseSnapshot's limits", () => {
  it("refuses a document larger than maxChars", () => {
    const big = aSnapshot({ entries: [{ kind: "act", id: "e1", time: TIME, act: { type: "message", message: { id: "u", role: "user", content: "x".repeat(5_000) } } }], head: "e1" });
    expect(() => parseSnapshot(big, { maxChars: 4_000 })).toThrow(/characters long, more than the 4000 allowed/);
    expect(parseSnapshot(big, { maxChars: 10_000 }).entries).toHaveLength(1);
  });

  it("refuses more entries than maxEntries, and more events in a run than maxEvents", () => {
    const refused = (limits: object) => {
      try {
        parseSnapshot(aSnapshot(), limits);
      } catch (thrown) {
        return (thrown as AgUiSnapshotError).problems;
      }
      return [];
    };
    expect(refused({ maxEntries: 3 })).toEqual([expect.stringMatching(/^entries: Too big/)]);
    expect(refused({ maxEvents: 10 })).toEqual([expect.stringMatching(/^entries\.1\.events: Too big/)]);
  });
});
