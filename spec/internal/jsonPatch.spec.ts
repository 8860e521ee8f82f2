import { applyPatchAtomically } from "../../src/internal/jsonPatch";

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

  it("restores a root moved away when a later operation fails", () => {
    const outcome = applyPatchAtomically(["first", "second"], [{ op: "move", from: "/0", path: "" }, { op: "test", path: "/x", value: 2 }]);
    expect(outcome.error).toBeDefined();
    expect(outcome.document).toEqual(["first", "second"]);
  });
});
