import { AgUiSnapshotError } from "../../src/errors";
import { parseSnapshot } from "../../src/persistence/schema";
import { aSnapshot, TIME } from "./fixtures";

const problemsOf = (raw: unknown) => {
  try {
    parseSnapshot(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(AgUiSnapshotError);
    return error as AgUiSnapshotError;
  }
  throw new Error("parseSnapshot accepted it");
};

describe("parseSnapshot", () => {
  it("reads a snapshot as it was saved, JSON round trip included", () => {
    const snapshot = aSnapshot();
    expect(parseSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
  });

  it("keeps encrypted values verbatim", () => {
    const parsed = parseSnapshot(aSnapshot());
    expect(parsed.messages[1]).toMatchObject({ encryptedValue: "opaque-provider-blob" });
  });

  it("drops fields it does not know, so a document carrying forwardedProps or headers does not bring them along", () => {
    const parsed = parseSnapshot({ ...aSnapshot(), forwardedProps: { token: "secret" }, headers: { authorization: "Bearer x" } });
    expect(parsed).not.toHaveProperty("forwardedProps");
    expect(parsed).not.toHaveProperty("headers");
  });

  it("refuses what is not an object", () => {
    for (const raw of [undefined, null, "text", 42, []]) expect(problemsOf(raw).message).toMatch(/not a snapshot/);
  });

  it("discards another version with a typed error, naming the version only when it is a number", () => {
    expect(problemsOf({ ...aSnapshot(), version: 0 }).message).toBe("The stored conversation has version 0; this library reads version 1, so it was discarded");
    expect(problemsOf({ ...aSnapshot(), version: 2 }).message).toMatch(/has version 2;/);
    const { version: _version, ...unversioned } = aSnapshot();
    expect(problemsOf(unversioned).message).toMatch(/has no version;/);
    expect(problemsOf({ ...aSnapshot(), version: "secret-looking-string" }).message).not.toContain("secret-looking-string");
  });

  it("says which field does not fit and where, without its value", () => {
    const snapshot = aSnapshot();
    const broken = { ...snapshot, messages: [snapshot.messages[0], { id: "m", role: "assistant", content: { secret: "do-not-echo" } }] };
    const error = problemsOf(broken);
    expect(error.problems).toEqual([expect.stringMatching(/^messages\.1(\.content)?: /)]);
    expect(error.message).not.toContain("do-not-echo");
  });

  it("checks the transcript, the interrupts and their decisions", () => {
    const snapshot = aSnapshot();
    expect(problemsOf({ ...snapshot, transcript: [{ kind: "response", id: "r", time: TIME, items: [{ text: "no type" }] }] }).problems[0]).toMatch(/^transcript\.0\.items\.0\.response_type: /);
    expect(problemsOf({ ...snapshot, transcript: [{ kind: "request", id: "q", text: "hi", time: "yesterday" }] }).problems[0]).toMatch(/^transcript\.0\.time: /);
    expect(problemsOf({ ...snapshot, pendingInterrupts: [{ interrupt: { id: "i" }, decision: { type: "maybe" } }] }).problems.join(" ")).toMatch(/pendingInterrupts\.0\.interrupt\.reason: .*pendingInterrupts\.0\.decision\.type: /);
  });

  it("lists at most 10 problems", () => {
    const messages = Array.from({ length: 30 }, (_, index) => ({ id: index, role: "user", content: "x" }));
    expect(problemsOf({ ...aSnapshot(), messages }).problems).toHaveLength(10);
  });

  it("refuses a document that is not JSON (a cycle)", () => {
    const cyclic: Record<string, unknown> = { ...aSnapshot() };
    cyclic.state = cyclic;
    expect(problemsOf(cyclic).message).toBe("The stored conversation is not JSON (TypeError)");
  });
});

describe("parseSnapshot's limits", () => {
  it("refuses a document larger than maxChars", () => {
    const big = { ...aSnapshot(), state: { text: "x".repeat(5_000) } };
    expect(() => parseSnapshot(big, { maxChars: 4_000 })).toThrow(/characters long, more than the 4000 allowed/);
    expect(parseSnapshot(big, { maxChars: 10_000 }).state).toEqual({ text: "x".repeat(5_000) });
  });

  it("refuses more entries than maxEntries", () => {
    const error = (() => {
      try {
        return parseSnapshot(aSnapshot(), { maxEntries: 3 });
      } catch (thrown) {
        return thrown as AgUiSnapshotError;
      }
    })() as AgUiSnapshotError;
    expect(error.problems).toEqual([expect.stringMatching(/^messages: Too big/)]);
  });
});
