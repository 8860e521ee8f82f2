import type { BaseEvent } from "@ag-ui/core";
import { Conversation } from "../../../src/conversation";
import type { ClarificationData } from "../../../src/hitl";
import type { PipelineElement } from "../../../src/instructions";
import { clarification } from "../../../src/operators/end/clarification";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { clarificationContext, recorded } from "../../support/recorded";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const finished = ev.runFinished() as PipelineElement;
const card = (user_defined: ClarificationData): PipelineElement => ({ kind: "item.complete", itemId: "clarification", item: { response_type: "user_defined", user_defined } });

describe("clarification", () => {
  it("shows a clarification card when the state says the agent is asking, and tells onClarification", () => {
    const conversation = new Conversation({ threadId: "t1", state: { phase: "needs_detail", ask: "Which account?" } });
    const told: ClarificationData[] = [];
    const detectClarification = (state: unknown) => {
      const { phase, ask } = state as { phase: string; ask: string };
      return phase === "needs_detail" ? { question: ask } : false;
    };
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-f---|", { f: finished });
      expectObservable(source.pipe(recorded(conversation, (current) => clarification({ detectClarification, onClarification: (data) => told.push(data) }, clarificationContext(current))))).toBe("-(cf)|", {
        c: card({ kind: "clarification", question: "Which account?", threadId: "t1" }),
        f: finished,
      });
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
    expect(told).toEqual([{ kind: "clarification", question: "Which account?", threadId: "t1" }]);
  });

  it("shows a question once: a later run that leaves the state as it was does not ask again; setting the state anew does", () => {
    let conversation = new Conversation({ threadId: "t1", state: { phase: "needs_detail", ask: "Which date?" } });
    const detectClarification = (state: unknown) => ((state as { phase?: string }).phase === "needs_detail" ? { question: (state as { ask: string }).ask } : false);
    const asked = { kind: "clarification" as const, question: "Which date?", threadId: "t1" };
    const runOf = () =>
      testScheduler().run(({ cold, expectObservable }) => {
        expectObservable(cold("-f---|", { f: finished }).pipe(recorded(conversation, (current) => clarification({ detectClarification }, clarificationContext(current))))).toBe(shown.shift()!, { c: card(asked), f: finished });
      });
    const shown = ["-(cf)|", "-f---|", "-f---|", "-(cf)|", "-(cf)|"];
    runOf(); // asked
    runOf(); // the person answered; the agent's state still carries the marker
    runOf();
    conversation.replaceState({ phase: "needs_detail", ask: "Which date?" }); // the agent asks anew (a STATE_SNAPSHOT in its run)
    runOf();
    conversation = new Conversation({ threadId: "t1", state: { phase: "needs_detail", ask: "Which date?" } }); // a new thread has seen no card
    runOf();
  });

  it("shows nothing when the verdict is false, and is not asked when the run ended in interrupts", () => {
    const asked: unknown[] = [];
    const detectClarification = (state: unknown) => {
      asked.push(state);
      return false;
    };
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { f: finished, i: ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "x" }] } }) as PipelineElement };
      expectObservable(cold("-f-i-|", values).pipe(recorded(new Conversation({ state: { n: 1 } }), (current) => clarification({ detectClarification }, clarificationContext(current))))).toBe("-f-i-|", values);
    });
    expect(asked).toEqual([{ n: 1 }]);
  });

  it("lets a throwing predicate fail the turn", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const detectClarification = () => {
        throw new Error("host bug");
      };
      expectObservable(cold("-f-|", { f: finished }).pipe(recorded(new Conversation(), (current) => clarification({ detectClarification }, clarificationContext(current))))).toBe("-#", undefined, new Error("host bug"));
    });
  });

  itFollowsTheOperatorContract(() => recorded(new Conversation(), (current) => clarification({ detectClarification: () => true }, clarificationContext(current))), ev.custom("x") as BaseEvent as PipelineElement);
});
