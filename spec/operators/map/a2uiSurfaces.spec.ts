import { map } from "rxjs";
import type { PipelineElement } from "../../../src/instructions";
import { a2uiSurfaces } from "../../../src/operators/map/a2uiSurfaces";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const snapshot = (messageId: string, content: object, activityType = "a2ui-surface"): PipelineElement => ({ kind: "activity.snapshot", messageId, activityType, content: content as Record<string, unknown>, replace: true });
const item = (activityId: string): PipelineElement => ({ kind: "item.complete", itemId: `a2ui-${activityId}`, item: { response_type: "user_defined", user_defined: { kind: "a2ui", activityId } } });

describe("a2uiSurfaces", () => {
  it("shows each surface as one item where it first comes, before any text, and its later snapshots as no item", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = {
        b: snapshot("s1", { status: "building" }),
        p: snapshot("s1", { a2ui_operations: [] }),
        t: instr.textDelta("m1", "Here is a form."),
        o: snapshot("plan", { step: 1 }, "plan"),
      };
      const source = cold("-b----p-t-o-|", values);
      expectObservable(source.pipe(a2uiSurfaces())).toBe("-(ib)-p-t-o-|", { ...values, i: item("s1") });
      expectSubscriptions(source.subscriptions).toBe("^-----------!");
    });
  });

  it("adds no item for a surface an earlier answer showed, and shows one a messages snapshot brings", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = {
        p: snapshot("old", { a2ui_operations: [] }),
        h: { kind: "history.snapshot", messages: [{ id: "s2", role: "activity", activityType: "a2ui-surface", content: { status: "building" } }, { id: "old", role: "activity", activityType: "a2ui-surface", content: {} }] } as PipelineElement,
      };
      expectObservable(cold("-p-h----|", values).pipe(a2uiSurfaces({ knownActivityIds: ["old"] }))).toBe("-p-(ih)-|", { ...values, i: item("s2") });
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-p-|", { p: snapshot("s1", {}) });
      const result = source.pipe(
        a2uiSurfaces(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  itFollowsTheOperatorContract(() => a2uiSurfaces(), ev.custom("x") as PipelineElement);
});
