import { from, map } from "rxjs";
import { AgUiInvalidEventError } from "../../../src/errors";
import type { PipelineElement } from "../../../src/instructions";
import { predictState } from "../../../src/operators/map/predictState";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;
const predicts = (...value: object[]) => ev.custom("PredictState", value) as PipelineElement;
const add = (key: string, value: unknown): PipelineElement => ({ kind: "state.delta", delta: [{ op: "add", path: `/${key}`, value }] });

describe("predictState", () => {
  it("lets the state follow a predicted tool's argument as it streams, and sets it whole at the call's end", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = elements({
        p: predicts({ state_key: "doc", tool: "write", tool_argument: "text" }),
        S: ev.toolStart("c1", "write"),
        a: ev.toolArgs("c1", '{"text":"Hel'),
        b: ev.toolArgs("c1", 'lo wor'),
        c: ev.toolArgs("c1", 'ld"}'),
        E: ev.toolEnd("c1"),
      });
      const source = cold("-p-S-a----b----c----E----|", values);
      expectObservable(source.pipe(predictState())).toBe("-p-S-(da)-(eb)-(fc)-(gE)-|", {
        ...values,
        d: add("doc", "Hel"),
        e: add("doc", "Hello wor"),
        f: add("doc", "Hello world"),
        g: add("doc", "Hello world"),
      });
      expectSubscriptions(source.subscriptions).toBe("^------------------------!");
    });
  });

  it("follows the whole arguments without a tool_argument, waits for an argument that has not come, and leaves other tools alone", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({
        p: predicts({ state_key: "plan", tool: "plan" }, { state_key: "title", tool: "name", tool_argument: "title" }),
        S: ev.toolStart("c1", "plan"),
        a: ev.toolArgs("c1", '{"steps":["a"'),
        T: ev.toolStart("c2", "name"),
        b: ev.toolArgs("c2", '{"other":1,'),
        U: ev.toolStart("c3", "search"),
        c: ev.toolArgs("c3", '{"q":"x"}'),
      });
      expectObservable(cold("-p-S-a----T-b-U-c-|", values).pipe(predictState())).toBe("-p-S-(da)-T-b-U-c-|", { ...values, d: add("plan", { steps: ["a"] }) });
    });
  });

  it("escapes the state key as a JSON Pointer token", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ p: predicts({ state_key: "a/b~c", tool: "w" }), S: ev.toolStart("c1", "w"), a: ev.toolArgs("c1", "{}") });
      expectObservable(cold("-p-S-a----|", values).pipe(predictState())).toBe("-p-S-(da)-|", { ...values, d: { kind: "state.delta", delta: [{ op: "add", path: "/a~1b~0c", value: {} }] } });
    });
  });

  it("reads the arguments again only once they have grown by an eighth: a long argument costs linear time", () => {
    const source = [predicts({ state_key: "doc", tool: "write", tool_argument: "text" }), ev.toolStart("c1", "write"), ev.toolArgs("c1", '{"text":"'), ...Array.from({ length: 10_000 }, () => ev.toolArgs("c1", "x")), ev.toolArgs("c1", '"}'), ev.toolEnd("c1")] as PipelineElement[];
    const deltas: string[] = [];
    from(source)
      .pipe(predictState())
      .subscribe((element) => {
        if ("kind" in element && element.kind === "state.delta") deltas.push((element.delta[0] as { value: string }).value);
      });
    expect(deltas.length).toBeLessThan(90);
    expect(deltas.at(-1)).toBe("x".repeat(10_000));
  });

  it("ends the prediction at a step's start or end, and takes a later PredictState's list in place of the earlier", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({
        p: predicts({ state_key: "doc", tool: "write" }),
        s: ev.stepStarted("next"),
        S: ev.toolStart("c1", "write"),
        a: ev.toolArgs("c1", "{}"),
        q: predicts({ state_key: "other", tool: "draft" }),
        T: ev.toolStart("c2", "write"),
        b: ev.toolArgs("c2", "{}"),
      });
      expectObservable(cold("-p-s-S-a-q-T-b-|", values).pipe(predictState())).toBe("-p-s-S-a-q-T-b-|", values);
    });
  });

  it("reports a PredictState that is not a list of predictions, and skips it", () => {
    const reported: AgUiInvalidEventError[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ p: predicts({ state_key: 1, tool: "write" }), S: ev.toolStart("c1", "write"), a: ev.toolArgs("c1", "{}") });
      expectObservable(cold("-p-S-a-|", values).pipe(predictState({ onInvalidEvent: (_event, error) => reported.push(error) }))).toBe("-p-S-a-|", values);
    });
    expect(reported.map((error) => error.message)).toEqual(["Invalid CUSTOM PredictState event: value[0]: expected { state_key: string, tool: string, tool_argument?: string }"]);
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-p-|", elements({ p: predicts({ state_key: "doc", tool: "write" }) }));
      const result = source.pipe(
        predictState(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  itFollowsTheOperatorContract(() => predictState(), ev.custom("x") as PipelineElement);
});
