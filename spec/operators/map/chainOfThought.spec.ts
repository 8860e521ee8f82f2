import { map } from "rxjs";
import type { PipelineElement } from "../../../src/instructions";
import { chainOfThought } from "../../../src/operators/map/chainOfThought";
import { instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const step = (title: string, status: "processing" | "success" | "failure" = "processing") => ({ title, status });
const steps = (...changes: { key: string; step: ReturnType<typeof step>; under?: string }[]): PipelineElement => ({ kind: "chain.steps", changes });
const chain = (...titles: string[]): PipelineElement => ({ kind: "options", options: { chain_of_thought: titles.map((title) => expect.objectContaining({ title })) } });

describe("chainOfThought", () => {
  it("puts each step in the one chain: a step under another after it and those already under it, a changed step in its place", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c-d-e-|", {
        a: steps({ key: "tool:t1", step: step("t1") }),
        b: steps({ key: "tool:t2", step: step("t2") }),
        c: steps({ key: "subagent:s1", step: step("s1"), under: "tool:t1" }),
        d: steps({ key: "tool:s1-call", step: step("s1 call"), under: "subagent:s1" }),
        e: steps({ key: "tool:t1", step: step("t1", "success") }),
      });
      expectObservable(source.pipe(chainOfThought())).toBe("-a-b-c-d-e-|", {
        a: chain("t1"),
        b: chain("t1", "t2"),
        c: chain("t1", "s1", "t2"),
        d: chain("t1", "s1", "s1 call", "t2"),
        e: { kind: "options", options: { chain_of_thought: [step("t1", "success"), step("s1"), step("s1 call"), step("t2")] } },
      });
      expectSubscriptions(source.subscriptions).toBe("^----------!");
    });
  });

  it("puts a step under one it has not seen last, and passes everything else on untouched", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-t-|", { a: steps({ key: "subagent:s9", step: step("s9"), under: "tool:unknown" }), t: instr.finished() });
      expectObservable(source.pipe(chainOfThought())).toBe("-a-t-|", { a: chain("s9"), t: instr.finished() });
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-|", { a: steps({ key: "tool:t1", step: step("t1") }) });
      const result = source.pipe(
        chainOfThought(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  itFollowsTheOperatorContract(() => chainOfThought(), instr.finished());
});
