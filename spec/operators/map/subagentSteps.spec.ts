import { EventType, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import type { CarbonChainOfThoughtStep } from "../../../src/carbon";
import type { ChainStepChange, PipelineElement } from "../../../src/instructions";
import { SUBAGENT_UNFINISHED, SUBAGENT_WAITING, SUBAGENT_WORKER, subagentSteps } from "../../../src/operators/map/subagentSteps";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;
const started = (subagentRunId: string, name: string, more: object = {}) => ({ type: EventType.SUBAGENT_STARTED, subagentRunId, name, ...more }) as BaseEvent;
const finished = (subagentRunId: string, more: object = {}) => ({ type: EventType.SUBAGENT_FINISHED, subagentRunId, ...more }) as BaseEvent;
const failed = (subagentRunId: string, message: string) => ({ type: EventType.SUBAGENT_ERROR, subagentRunId, message }) as BaseEvent;
const said = (subagentRunId: string, text: string, as: "text" | "reasoning" = "text"): PipelineElement => ({ kind: "subagent.said", subagentRunId, said: as, text });
const change = (key: string, step: CarbonChainOfThoughtStep, under?: string): ChainStepChange => ({ key, step, ...(under !== undefined && { under }) });
const steps = (...changes: ChainStepChange[]): PipelineElement => ({ kind: "chain.steps", changes });
const runFinished = (outcome?: object) => ({ type: EventType.RUN_FINISHED, threadId: "t", runId: "r", ...(outcome && { outcome }) }) as BaseEvent;

describe("subagentSteps", () => {
  it("shows an invocation as a step of its own, under the call that started it: processing, what it said, success", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S----r-w-F----|", elements({
        S: started("s1", "researcher", { description: "Finds sources", parentToolCallId: "c1" }),
        r: said("s1", "Which tides?\nOcean ones.", "reasoning"),
        w: said("s1", "Tides follow the moon."),
        F: finished("s1", { result: { sources: 3 } }),
      }));
      const step = { title: "researcher", tool_name: "researcher", description: "Finds sources", status: "processing" } as const;
      const thought = "> Which tides?\n> Ocean ones.";
      expectObservable(source.pipe(subagentSteps())).toBe("-(aS)-b-c-(dF)-|", {
        a: steps(change("subagent:s1", step, "tool:c1")),
        S: started("s1", "researcher", { description: "Finds sources", parentToolCallId: "c1" }),
        b: steps(change("subagent:s1", { ...step, response: { content: thought } })),
        c: steps(change("subagent:s1", { ...step, response: { content: `${thought}\n\nTides follow the moon.` } })),
        d: steps(change("subagent:s1", { ...step, response: { content: `${thought}\n\nTides follow the moon.` }, status: "success" })),
        F: finished("s1", { result: { sources: 3 } }),
      });
      expectSubscriptions(source.subscriptions).toBe("^--------------!");
    });
  });

  it("describes an invocation its start does not describe as a worker (Carbon 1.9.1 labels every step's tool_name \"Tool\")", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----|", elements({ S: started("s1", "writer", { parentToolCallId: "h1" }) }));
      expectObservable(source.pipe(subagentSteps())).toBe("-(aS)-|", {
        a: steps(change("subagent:s1", { title: "writer", tool_name: "writer", description: "Worker", status: "processing" }, "tool:h1")),
        S: started("s1", "writer", { parentToolCallId: "h1" }),
      });
    });
  });

  it("shows the result of an invocation that said nothing", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----F----|", elements({ S: started("s1", "researcher"), F: finished("s1", { result: "3 sources" }) }));
      expectObservable(source.pipe(subagentSteps())).toBe("-(aS)-(bF)-|", {
        a: steps(change("subagent:s1", { title: "researcher", tool_name: "researcher", description: SUBAGENT_WORKER, status: "processing" })),
        S: started("s1", "researcher"),
        b: steps(change("subagent:s1", { title: "researcher", tool_name: "researcher", description: SUBAGENT_WORKER, status: "success", response: { content: "3 sources" } })),
        F: finished("s1", { result: "3 sources" }),
      });
    });
  });

  it("fails the step of an invocation that errors, with its message, and goes on", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----w-E----x-|", elements({ S: started("s1", "researcher"), w: said("s1", "Looking."), E: failed("s1", "researcher ran out of budget"), x: ev.custom("x") }));
      expectObservable(source.pipe(subagentSteps())).toBe("-(aS)-b-(cE)-x-|", {
        a: steps(change("subagent:s1", { title: "researcher", tool_name: "researcher", description: SUBAGENT_WORKER, status: "processing" })),
        S: started("s1", "researcher"),
        b: steps(change("subagent:s1", { title: "researcher", tool_name: "researcher", description: SUBAGENT_WORKER, status: "processing", response: { content: "Looking." } })),
        c: steps(change("subagent:s1", { title: "researcher", tool_name: "researcher", description: SUBAGENT_WORKER, status: "failure", response: { content: "Looking.\n\nresearcher ran out of budget" } })),
        E: failed("s1", "researcher ran out of budget"),
        x: ev.custom("x"),
      });
    });
  });

  it("says a nested invocation's lineage, numbers a name that came before, and places each under its parent", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({
        S: started("s1", "researcher"),
        N: started("s2", "summariser", { parentSubagentRunId: "s1" }),
        T: started("s3", "researcher"),
      });
      expectObservable(cold("-S----N----T----|", values).pipe(subagentSteps())).toBe("-(aS)-(bN)-(cT)-|", {
        ...values,
        a: steps(change("subagent:s1", { title: "researcher", tool_name: "researcher", description: SUBAGENT_WORKER, status: "processing" })),
        b: steps(change("subagent:s2", { title: "researcher › summariser", tool_name: "summariser", description: SUBAGENT_WORKER, status: "processing" }, "subagent:s1")),
        c: steps(change("subagent:s3", { title: "researcher (2)", tool_name: "researcher", description: SUBAGENT_WORKER, status: "processing" })),
      });
    });
  });

  it("leaves a suspended invocation waiting for an answer, and at the run's end one an interrupt of its own names; fails the others", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const outcome = { type: "interrupt", interrupts: [{ id: "i1", reason: "input_required", subagentRunId: "s2" }] };
      const values = elements({ S: started("s1", "a"), F: finished("s1", { outcome: { type: "suspended", interruptIds: ["i0"] } }), T: started("s2", "b"), U: started("s3", "c"), R: runFinished(outcome) });
      expectObservable(cold("-S----F----T----U----R----|", values).pipe(subagentSteps())).toBe("-(aS)-(bF)-(cT)-(dU)-(eR)-|", {
        ...values,
        a: steps(change("subagent:s1", { title: "a", tool_name: "a", description: SUBAGENT_WORKER, status: "processing" })),
        b: steps(change("subagent:s1", { title: "a", tool_name: "a", status: "success", description: SUBAGENT_WAITING })),
        c: steps(change("subagent:s2", { title: "b", tool_name: "b", description: SUBAGENT_WORKER, status: "processing" })),
        d: steps(change("subagent:s3", { title: "c", tool_name: "c", description: SUBAGENT_WORKER, status: "processing" })),
        e: steps(change("subagent:s2", { title: "b", tool_name: "b", status: "success", description: SUBAGENT_WAITING }), change("subagent:s3", { title: "c", tool_name: "c", description: SUBAGENT_WORKER, status: "failure", response: { content: SUBAGENT_UNFINISHED } })),
      });
    });
  });

  it("fails the open invocations when the run fails or is stopped, before passing the end on", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ S: started("s1", "a"), t: instr.stopped() });
      expectObservable(cold("-S----t----|", values).pipe(subagentSteps())).toBe("-(aS)-(bt)-|", {
        ...values,
        a: steps(change("subagent:s1", { title: "a", tool_name: "a", description: SUBAGENT_WORKER, status: "processing" })),
        b: steps(change("subagent:s1", { title: "a", tool_name: "a", description: SUBAGENT_WORKER, status: "failure", response: { content: SUBAGENT_UNFINISHED } })),
      });
    });
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ S: started("s1", "a"), E: { type: EventType.RUN_ERROR, message: "boom" } });
      expectObservable(cold("-S----E----|", values).pipe(subagentSteps())).toBe("-(aS)-(bE)-|", {
        ...values,
        a: steps(change("subagent:s1", { title: "a", tool_name: "a", description: SUBAGENT_WORKER, status: "processing" })),
        b: steps(change("subagent:s1", { title: "a", tool_name: "a", description: SUBAGENT_WORKER, status: "failure", response: { content: SUBAGENT_UNFINISHED } })),
      });
    });
  });

  it("passes other elements through unchanged, and words of no invocation of the run nowhere", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ c: ev.custom("x"), d: instr.textDelta("m1", "hi"), w: said("elsewhere", "hi") });
      expectObservable(cold("-c-d-w-|", values).pipe(subagentSteps())).toBe("-c-d---|", values);
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S-|", elements({ S: started("s1", "a") }));
      const result = source.pipe(
        subagentSteps(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  it("passes a source error through, failing the open invocations first", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----#", elements({ S: started("s1", "a") }));
      expectObservable(source.pipe(subagentSteps())).toBe("-(aS)-(b#)", {
        S: started("s1", "a"),
        a: steps(change("subagent:s1", { title: "a", tool_name: "a", description: SUBAGENT_WORKER, status: "processing" })),
        b: steps(change("subagent:s1", { title: "a", tool_name: "a", description: SUBAGENT_WORKER, status: "failure", response: { content: SUBAGENT_UNFINISHED } })),
      });
    });
  });

  itFollowsTheOperatorContract(() => subagentSteps(), ev.custom("x") as PipelineElement);
});
