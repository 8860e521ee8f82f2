import { EventType, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import { Conversation } from "../../../src/conversation";
import { AgUiPatchError, type CarbonAgUiError } from "../../../src/errors";
import type { PipelineElement } from "../../../src/instructions";
import { sharedState } from "../../../src/operators/map/sharedState";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";
import type { ApplyToConversationOptions } from "../../../src/operators/record/applyToConversation";
import { recorded } from "../../support/recorded";

/** sharedState() with the one writer after it: what the conversation holds. */
const keepState = (conversation: Conversation, options?: ApplyToConversationOptions) => recorded(conversation, () => sharedState(), options);

const snapshot = (value: unknown) => ({ type: EventType.STATE_SNAPSHOT, snapshot: value }) as BaseEvent;
const delta = (...operations: unknown[]) => ({ type: EventType.STATE_DELTA, delta: operations }) as BaseEvent;
const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;

describe("sharedState", () => {
  it("keeps the state from snapshots and deltas, and passes other elements on", () => {
    const conversation = new Conversation();
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-d-c-|", elements({
        s: snapshot({ plan: ["search"], done: false }),
        d: delta({ op: "add", path: "/plan/-", value: "write" }, { op: "replace", path: "/done", value: true }),
        c: ev.custom("x"),
      }));
      expectObservable(source.pipe(keepState(conversation))).toBe("-----c-|", elements({ c: ev.custom("x") }));
      expectSubscriptions(source.subscriptions).toBe("^------!");
    });
    expect(conversation.state).toEqual({ plan: ["search", "write"], done: true });
  });

  it("accepts any JSON value as the state", () => {
    const conversation = new Conversation({ state: { a: 1 } });
    for (const value of [null, false, 0, "text", [1, 2]]) {
      testScheduler().run(({ cold, expectObservable }) => {
        expectObservable(cold("-s-|", elements({ s: snapshot(value) })).pipe(keepState(conversation))).toBe("---|");
      });
      expect(conversation.state).toEqual(value);
    }
  });

  it("leaves the state as it was when a delta fails, and reports it", () => {
    const warnings: CarbonAgUiError[] = [];
    const conversation = new Conversation({ state: { count: 1, items: ["a"] } });
    const failing = delta({ op: "replace", path: "/count", value: 2 }, { op: "test", path: "/items/0", value: "z" });
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-d-|", elements({ d: failing })).pipe(keepState(conversation, { onWarning: (warning) => warnings.push(warning) }))).toBe("---|");
    });
    expect(conversation.state).toEqual({ count: 1, items: ["a"] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toBeInstanceOf(AgUiPatchError);
    expect(warnings[0]?.message).toMatch(/^A STATE_DELTA for the state was not applied and nothing changed: /);
    expect((warnings[0] as AgUiPatchError).target).toBe("state");
    expect((warnings[0] as AgUiPatchError).delta).toEqual((failing as unknown as { delta: unknown[] }).delta);
  });

  it("skips operations RFC 6902 does not define, applies the rest, and reports the skipped ones", () => {
    const warnings: CarbonAgUiError[] = [];
    const conversation = new Conversation({ state: { count: 1 } });
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-d-|", elements({ d: delta({ op: "increment", path: "/count" }, { op: "add", path: "/seen", value: true }) }));
      expectObservable(source.pipe(keepState(conversation, { onWarning: (warning) => warnings.push(warning) }))).toBe("---|");
    });
    expect(conversation.state).toEqual({ count: 1, seen: true });
    expect(warnings.map((warning) => warning.message)).toEqual(['Skipped 1 operation(s) of a STATE_DELTA for the state that RFC 6902 does not define: operation 0 ("increment" at "/count")']);
  });

  it("publishes one snapshot per burst of changes on state$", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const conversation = new Conversation({ state: { n: 0 } });
      const source = cold("-(abc)--d-|", elements({
        a: delta({ op: "replace", path: "/n", value: 1 }),
        b: delta({ op: "replace", path: "/n", value: 2 }),
        c: delta({ op: "replace", path: "/n", value: 3 }),
        d: delta({ op: "replace", path: "/n", value: 4 }),
      }));
      source.pipe(keepState(conversation)).subscribe();
      expectObservable(conversation.state$).toBe("01------4", { 0: { n: 0 }, 1: { n: 3 }, 4: { n: 4 } });
    });
  });

  it("errors when onWarning throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-d-c-|", elements({ d: delta({ op: "remove", path: "/missing" }), c: ev.custom("x") }));
      const onWarning = () => {
        throw new Error("strict host");
      };
      expectObservable(source.pipe(keepState(new Conversation({ state: {} }), { onWarning }))).toBe("-#", undefined, new Error("strict host"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  it("errors when a downstream callback throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const result = cold("-c-|", elements({ c: ev.custom("x") })).pipe(
        keepState(new Conversation()),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
    });
  });

  it("maps the state events to writes, and nothing else", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const d = delta({ op: "remove", path: "/missing" });
      const values = elements({ s: snapshot({ a: 1 }), d, c: ev.custom("x") });
      expectObservable(cold("-s-d-c-|", values).pipe(sharedState())).toBe("-S-D-c-|", elements({
        S: { kind: "state.snapshot", snapshot: { a: 1 } },
        D: { kind: "state.delta", delta: [{ op: "remove", path: "/missing" }] },
        c: ev.custom("x"),
      }));
    });
  });

  itFollowsTheOperatorContract(() => sharedState(), ev.custom("x") as PipelineElement);
});
