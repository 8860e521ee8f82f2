import { EventType, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import { Conversation, type Activity } from "../../../src/conversation";
import { AgUiPatchError, type CarbonAgUiError } from "../../../src/errors";
import type { PipelineElement } from "../../../src/instructions";
import { activities } from "../../../src/operators/map/activities";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";
import type { ApplyToConversationOptions } from "../../../src/operators/record/applyToConversation";
import { recorded } from "../../support/recorded";

/** activities() with the one writer after it: what the conversation holds. */
const keepActivities = (conversation: Conversation, options?: ApplyToConversationOptions) => recorded(conversation, () => activities(), options);

const snapshot = (messageId: string, content: object, replace?: boolean) =>
  ({ type: EventType.ACTIVITY_SNAPSHOT, messageId, activityType: "search", content, ...(replace !== undefined && { replace }) }) as BaseEvent;
const delta = (messageId: string, ...patch: object[]) => ({ type: EventType.ACTIVITY_DELTA, messageId, activityType: "search", patch }) as BaseEvent;
const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;

describe("activities", () => {
  it("keeps each activity by message id: snapshots replace (or, with replace: false, leave an existing one alone), deltas patch; onActivity sees each change", () => {
    const conversation = new Conversation();
    const seen: Activity[] = [];
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c-d-x-|", elements({
        a: snapshot("m1", { query: "rxjs", hits: 0 }),
        b: snapshot("m1", { hits: 3 }, false),
        d: snapshot("m2", { hits: 1 }, false),
        c: delta("m1", { op: "add", path: "/done", value: true }),
        x: ev.custom("x"),
      }));
      expectObservable(source.pipe(keepActivities(conversation, { onActivity: (activity) => seen.push(activity) }))).toBe("---------x-|", elements({ x: ev.custom("x") }));
      expectSubscriptions(source.subscriptions).toBe("^----------!");
    });
    const contents = [{ query: "rxjs", hits: 0 }, { query: "rxjs", hits: 0, done: true }];
    expect(seen).toEqual([...contents.map((content) => ({ messageId: "m1", activityType: "search", content })), { messageId: "m2", activityType: "search", content: { hits: 1 } }]);
    expect(conversation.activities.get("m1")?.content).toEqual(contents[1]);
    expect(Object.isFrozen(conversation.activities.get("m1")?.content)).toBe(true);
  });

  it("replaces the content by default", () => {
    const conversation = new Conversation();
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-a-b-|", elements({ a: snapshot("m1", { old: 1 }), b: snapshot("m1", { fresh: 2 }) })).pipe(keepActivities(conversation))).toBe("-----|");
    });
    expect(conversation.activities.get("m1")?.content).toEqual({ fresh: 2 });
  });

  it("reports a failed delta, or one for an unknown activity, and changes nothing", () => {
    const conversation = new Conversation();
    const warnings: CarbonAgUiError[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-u-a-f-|", elements({
        u: delta("nope", { op: "add", path: "/x", value: 1 }),
        a: snapshot("m1", { hits: 1 }),
        f: delta("m1", { op: "replace", path: "/hits", value: 2 }, { op: "remove", path: "/missing" }),
      }));
      expectObservable(source.pipe(keepActivities(conversation, { onWarning: (warning) => warnings.push(warning) }))).toBe("-------|");
    });
    expect(warnings.map((warning) => [warning instanceof AgUiPatchError, (warning as AgUiPatchError).target])).toEqual([[true, "activity nope"], [true, "activity m1"]]);
    expect(conversation.activities.get("m1")?.content).toEqual({ hits: 1 });
  });

  it("errors when onActivity throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-x-|", elements({ a: snapshot("m1", {}), x: ev.custom("x") }));
      const onActivity = () => {
        throw new Error("host bug");
      };
      expectObservable(source.pipe(keepActivities(new Conversation(), { onActivity }))).toBe("-#", undefined, new Error("host bug"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  it("errors when a downstream callback throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const result = cold("-x-|", elements({ x: ev.custom("x") })).pipe(
        keepActivities(new Conversation()),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
    });
  });

  it("maps the activity events to writes, and nothing else", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({
        s: { type: EventType.ACTIVITY_SNAPSHOT, messageId: "m1", activityType: "plan", content: { step: 1 }, replace: false } as BaseEvent,
        d: { type: EventType.ACTIVITY_DELTA, messageId: "m1", activityType: "plan", patch: [{ op: "replace", path: "/step", value: 2 }] } as BaseEvent,
        c: ev.custom("x"),
      });
      expectObservable(cold("-s-d-c-|", values).pipe(activities())).toBe("-S-D-c-|", elements({
        S: { kind: "activity.snapshot", messageId: "m1", activityType: "plan", content: { step: 1 }, replace: false },
        D: { kind: "activity.delta", messageId: "m1", activityType: "plan", patch: [{ op: "replace", path: "/step", value: 2 }] },
        c: ev.custom("x"),
      }));
    });
  });

  itFollowsTheOperatorContract(() => activities(), ev.custom("x") as PipelineElement);
});
