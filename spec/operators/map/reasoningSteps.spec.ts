import { EventType, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import type { CarbonReasoningStep } from "../../../src/carbon";
import type { PipelineElement } from "../../../src/instructions";
import { reasoningSteps } from "../../../src/operators/map/reasoningSteps";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;
const start = (messageId: string) => ({ type: EventType.REASONING_MESSAGE_START, messageId, role: "reasoning" }) as BaseEvent;
const think = (messageId: string, delta: string) => ({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta }) as BaseEvent;
const end = (messageId: string) => ({ type: EventType.REASONING_MESSAGE_END, messageId }) as BaseEvent;
const steps = (...list: CarbonReasoningStep[]): PipelineElement => ({ kind: "options", options: { reasoning: { steps: list } } });
const remembered = (id: string, content: string): PipelineElement => ({ kind: "history.message", message: { id, role: "reasoning", content } });

describe("reasoningSteps", () => {
  it("shows each reasoning message as a live step and keeps it in the history; spans only frame them", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-S----a-b-E-T----c-F-e-|", elements({
        s: { type: EventType.REASONING_START, messageId: "span" },
        S: start("r1"),
        a: think("r1", "Compare "),
        b: think("r1", "both."),
        E: end("r1"),
        T: start("r2"),
        c: think("r2", "Check."),
        F: end("r2"),
        e: { type: EventType.REASONING_END, messageId: "span" },
      }));
      expectObservable(source.pipe(reasoningSteps())).toBe("---(rS)-a-b-E-(RT)-c-F---|", {
        r: instr.reserve("r1", "reasoning"),
        R: instr.reserve("r2", "reasoning"),
        S: steps({ title: "Reasoning" }),
        a: steps({ title: "Reasoning", content: "Compare " }),
        b: steps({ title: "Reasoning", content: "Compare both." }),
        E: remembered("r1", "Compare both."),
        T: steps({ title: "Reasoning", content: "Compare both." }, { title: "Reasoning (2)" }),
        c: steps({ title: "Reasoning", content: "Compare both." }, { title: "Reasoning (2)", content: "Check." }),
        F: remembered("r2", "Check."),
      });
      expectSubscriptions(source.subscriptions).toBe("^------------------------!");
    });
  });

  it("keeps a subagent's reasoning out of the panel: to the history with its subagentRunId and to its step", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E---|", elements({ S: { ...start("r1"), subagentRunId: "s1" }, a: think("r1", "Hmm"), E: end("r1") }));
      expectObservable(source.pipe(reasoningSteps())).toBe("-r---(hw)|", {
        r: { kind: "history.reserve", messageId: "r1", role: "reasoning", subagentRunId: "s1" },
        h: { kind: "history.message", message: { id: "r1", role: "reasoning", content: "Hmm", subagentRunId: "s1" } },
        w: { kind: "subagent.said", subagentRunId: "s1", said: "reasoning", text: "Hmm" },
      });
    });
  });

  it("keeps encrypted values for the history, never showing them", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-x-|", elements({ x: { type: EventType.REASONING_ENCRYPTED_VALUE, subtype: "tool-call", entityId: "t1", encryptedValue: "gAAAA" } }));
      expectObservable(source.pipe(reasoningSteps())).toBe("-x-|", {
        x: { kind: "history.encryptedValue", subtype: "tool-call", entityId: "t1", encryptedValue: "gAAAA" },
      });
    });
  });

  it("keeps the text so far of reasoning cut by a stop, before passing the stop on", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----a-t---|", elements({ S: start("r1"), a: think("r1", "Hmm"), t: instr.stopped() }));
      expectObservable(source.pipe(reasoningSteps())).toBe("-(rS)-a-(ht)|", {
        r: instr.reserve("r1", "reasoning"),
        S: steps({ title: "Reasoning" }),
        a: steps({ title: "Reasoning", content: "Hmm" }),
        h: remembered("r1", "Hmm"),
        t: instr.stopped(),
      });
    });
  });

  it("goes on with a reasoning message that ended when a START reopens it: same step, its text continued", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----a-E-S-b-E-|", elements({ S: start("r1"), a: think("r1", "Hmm"), E: end("r1"), b: think("r1", ", yes") }));
      expectObservable(source.pipe(reasoningSteps())).toBe("-(rS)-a-h---b-H-|", {
        r: instr.reserve("r1", "reasoning"),
        S: steps({ title: "Reasoning" }),
        a: steps({ title: "Reasoning", content: "Hmm" }),
        h: remembered("r1", "Hmm"),
        b: steps({ title: "Reasoning", content: "Hmm, yes" }),
        H: remembered("r1", "Hmm, yes"),
      });
    });
  });

  it("passes other elements through unchanged", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ c: ev.custom("x"), d: instr.textDelta("m1", "hi") });
      expectObservable(cold("-c-d-|", values).pipe(reasoningSteps())).toBe("-c-d-|", values);
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S-a-|", elements({ S: start("r1"), a: think("r1", "x") }));
      const result = source.pipe(
        reasoningSteps(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  it("passes a source error through, keeping cut reasoning first", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S----a-#", elements({ S: start("r1"), a: think("r1", "Hmm") }));
      expectObservable(source.pipe(reasoningSteps())).toBe("-(rS)-a-(h#)", {
        r: instr.reserve("r1", "reasoning"),
        S: steps({ title: "Reasoning" }),
        a: steps({ title: "Reasoning", content: "Hmm" }),
        h: remembered("r1", "Hmm"),
      });
    });
  });

  itFollowsTheOperatorContract(() => reasoningSteps(), ev.custom("x") as PipelineElement);
});
