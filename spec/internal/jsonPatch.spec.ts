import { inspect } from "node:util";
import { applyPatchAtomically, patchWarning } from "../../src/internal/jsonPatch";

const base = () => ({ name: "plan", steps: ["search", "read", "write"], meta: { owner: "ada", tags: { a: 1 } }, done: false });
/** toEqual ignores key order; a rolled-back document must have kept it too. */
const expectExactly = (document: unknown, expected: unknown) => {
  expect(document).toEqual(expected);
  expect(JSON.stringify(document)).toBe(JSON.stringify(expected));
};

describe("applyPatchAtomically", () => {
  it("applies all six RFC 6902 operations in place", () => {
    const document = base();
    const outcome = applyPatchAtomically(document, [
      { op: "add", path: "/steps/-", value: "review" },
      { op: "remove", path: "/steps/0" },
      { op: "replace", path: "/done", value: true },
      { op: "move", from: "/meta/owner", path: "/owner" },
      { op: "copy", from: "/meta/tags", path: "/labels" },
      { op: "test", path: "/steps/0", value: "read" },
    ]);
    expect(outcome).toEqual({ document, dropped: [] });
    expect(document).toEqual({ name: "plan", steps: ["read", "write", "review"], meta: { tags: { a: 1 } }, owner: "ada", labels: { a: 1 }, done: true });
  });

  it("replaces the root, whatever JSON value it holds", () => {
    expect(applyPatchAtomically({ a: 1 }, [{ op: "replace", path: "", value: null }]).document).toBeNull();
    expect(applyPatchAtomically(false, [{ op: "replace", path: "", value: [1] }]).document).toEqual([1]);
  });

  it("leaves the document exactly as it was when an operation fails", () => {
    const document = base();
    const outcome = applyPatchAtomically(document, [
      { op: "add", path: "/steps/1", value: "plan" },
      { op: "move", from: "/steps/0", path: "/steps/-" },
      { op: "replace", path: "/meta", value: {} },
      { op: "remove", path: "/name" },
      { op: "test", path: "/done", value: true },
    ]);
    expect(outcome.error).toBeDefined();
    expect(outcome.document).toBe(document);
    expectExactly(document, base());
  });

  it("rolls back any sequence of operations that ends in a failure (seeded random patches)", () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const paths = ["/name", "/steps/0", "/steps/1", "/steps/-", "/meta", "/meta/owner", "/meta/tags/a", "/extra", "/done"];
    const ops = ["add", "remove", "replace", "move", "copy", "test"] as const;
    let changedBeforeFailing = 0;
    for (let trial = 0; trial < 500; trial++) {
      const document = base();
      const patch = Array.from({ length: 1 + random(6) }, () => {
        const op = ops[random(ops.length)]!;
        const path = paths[random(paths.length)]!;
        return op === "move" || op === "copy" ? { op, from: paths[random(paths.length)]!.replace("/-", "/0"), path } : { op, path, value: random(3) };
      });
      const outcome = applyPatchAtomically(document, [...patch, { op: "test", path: "/name", value: "never this" }]);
      expect(outcome.error).toBeDefined();
      expectExactly(outcome.document, base());
      const withoutFailure = applyPatchAtomically(base(), patch);
      if (withoutFailure.error === undefined && JSON.stringify(withoutFailure.document) !== JSON.stringify(base())) changedBeforeFailing++;
    }
    // The trials must really have changed the document before the failure rolled it back.
    expect(changedBeforeFailing).toBeGreaterThan(100);
  });

  it("drops operations that are not RFC 6902 ones and applies the rest", () => {
    const document = base();
    const outcome = applyPatchAtomically(document, [{ op: "increment", path: "/count" }, "junk", { op: "replace", path: "/done", value: true }]);
    expect(outcome.dropped).toEqual([{ op: "increment", path: "/count" }, "junk"]);
    expect(document.done).toBe(true);
  });

  it("copies values in, so the document shares nothing with the patch", () => {
    const value = { nested: [1] };
    const document: { copy?: { nested: number[] } } = {};
    applyPatchAtomically(document, [{ op: "add", path: "/copy", value }]);
    value.nested.push(2);
    expect(document.copy).toEqual({ nested: [1] });
  });

  it("refuses to touch the prototype", () => {
    const outcome = applyPatchAtomically({}, [{ op: "add", path: "/__proto__/polluted", value: true }]);
    expect(outcome.error).toBeDefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("fails a move into its own child, or a move or copy from a path that holds nothing, changing nothing", () => {
    for (const move of [
      { op: "move", from: "/meta", path: "/meta/inner" },
      { op: "move", from: "/missing", path: "/found" },
      { op: "move", from: "", path: "/self" },
      { op: "copy", from: "/missing", path: "" },
    ]) {
      const document = base();
      const outcome = applyPatchAtomically(document, [move]);
      expect(outcome.error).toBeDefined();
      expectExactly(outcome.document, base());
    }
  });

  it("puts a key removed by a step of a failed patch back where it was, not at the end", () => {
    const state = { plan: { a: 1 }, keep: [1, 2] };
    const outcome = applyPatchAtomically(state, [{ op: "move", from: "/plan", path: "/plan/old" }]);
    expect(outcome.error).toBeDefined();
    expect(JSON.stringify(outcome.document)).toBe('{"plan":{"a":1},"keep":[1,2]}');
    const nested = { meta: { first: 1, second: 2, third: 3 }, last: true };
    const failed = applyPatchAtomically(nested, [
      { op: "remove", path: "/meta/first" },
      { op: "remove", path: "/meta/second" },
      { op: "add", path: "/meta/fourth", value: 4 },
      { op: "move", from: "/meta", path: "/moved" },
      { op: "test", path: "/last", value: false },
    ]);
    expect(failed.error).toBeDefined();
    expect(JSON.stringify(failed.document)).toBe('{"meta":{"first":1,"second":2,"third":3},"last":true}');
  });

  it("moves a key onto itself as a remove then an add, as fast-json-patch (and so @ag-ui/client) does: the key goes last", () => {
    const outcome = applyPatchAtomically({ b: 0, a: 0 }, [{ op: "move", from: "/b", path: "/b" }]);
    expect(JSON.stringify(outcome.document)).toBe('{"a":0,"b":0}');
    expect(applyPatchAtomically(["x", "y"], [{ op: "move", from: "/0", path: "/0" }]).document).toEqual(["x", "y"]);
    expect(applyPatchAtomically({ a: 1 }, [{ op: "move", from: "", path: "" }]).document).toEqual({ a: 1 });
  });

  it("restores a root moved away when a later operation fails", () => {
    const outcome = applyPatchAtomically(["first", "second"], [{ op: "move", from: "/0", path: "" }, { op: "test", path: "/x", value: 2 }]);
    expect(outcome.error).toBeDefined();
    expect(outcome.document).toEqual(["first", "second"]);
  });
});

describe("patchWarning", () => {
  /** A state of 10,000 keys, each holding something private. */
  const largeState = () => {
    const state: Record<string, unknown> = { plan: { a: 1 } };
    for (let key = 0; key < 10_000; key++) state[`key${key}`] = `private value ${key}`;
    return state;
  };
  const shown = (warning: unknown) => `${JSON.stringify(warning)} ${inspect(warning, { depth: Infinity })}`;

  it("says which operation failed, where and why, never the document, however large", () => {
    const delta = [{ op: "add", path: "/seen", value: true }, { op: "move", from: "/plan", path: "/plan/old" }];
    const warning = patchWarning(applyPatchAtomically(largeState(), delta), "STATE_DELTA", "state", delta)!;
    expect(warning.message).toBe('A STATE_DELTA for the state was not applied and nothing changed: operation 1 (move from "/plan" to "/plan/old") failed: a value cannot move into its own child');
    expect(warning).toMatchObject({ target: "state", index: 1, operation: { op: "move", from: "/plan", path: "/plan/old" } });
    expect(shown(warning)).not.toContain("private value");
    // The message, and the warning as JSON or as node prints it (its stack and the delta included), stay small.
    expect(warning.message.length).toBeLessThan(200);
    expect(shown(warning).length).toBeLessThan(4_000);
  });

  it("names fast-json-patch's reason by its code, without the tree or the operation's value it puts in its message", () => {
    const delta = [{ op: "test", path: "/key7", value: "a guess at a secret" }];
    const warning = patchWarning(applyPatchAtomically(largeState(), delta), "STATE_DELTA", "state", delta)!;
    expect(warning.message).toBe('A STATE_DELTA for the state was not applied and nothing changed: operation 0 (test at "/key7") failed: Test operation failed (TEST_OPERATION_FAILED)');
    expect(shown(warning.message)).not.toContain("private value");
    expect(shown({ ...warning, delta: undefined })).not.toMatch(/private value|a guess at a secret/);
  });

  it("clips a long path, and names skipped operations by index, op and path rather than quoting them", () => {
    const long = `/${"x".repeat(5_000)}`;
    const failing = [{ op: "remove", path: long }];
    const failed = patchWarning(applyPatchAtomically({}, failing), "ACTIVITY_DELTA", "activity m1", failing)!;
    expect(failed.message.length).toBeLessThan(400);
    const skipped = [{ op: "increment", path: "/count", value: "private value" }, "junk", { op: "add", path: "/seen", value: 1 }];
    const warning = patchWarning(applyPatchAtomically({}, skipped), "STATE_DELTA", "state", skipped)!;
    expect(warning.message).toBe('Skipped 2 operation(s) of a STATE_DELTA for the state that RFC 6902 does not define: operation 0 ("increment" at "/count"), operation 1 (not an operation)');
  });
});
