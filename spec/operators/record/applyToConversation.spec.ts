import { map } from "rxjs";
import { Conversation } from "../../../src/conversation";
import type { PipelineElement } from "../../../src/instructions";
import { applyToConversation } from "../../../src/operators/record/applyToConversation";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const hello = { id: "m1", role: "assistant", content: "Hello" } as const;
const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;

describe("applyToConversation", () => {
  it("records history messages in the conversation, where they end, and passes everything else on", () => {
    const conversation = new Conversation({ threadId: "t" });
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = elements({ h: instr.history(hello), d: instr.textDelta("m2", "x") });
      const source = cold("-h-d-|", values);
      expectObservable(source.pipe(applyToConversation(conversation))).toBe("---d-|", values);
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
    expect(conversation.messages).toEqual([hello]);
  });

  it("replaces a message with the same id where it stands", () => {
    const conversation = new Conversation({ messages: [{ id: "u1", role: "user", content: "Hi" }, hello] });
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ h: instr.history({ ...hello, content: "Hello again" }) });
      expectObservable(cold("-h-|", values).pipe(applyToConversation(conversation))).toBe("---|", values);
    });
    expect(conversation.messages.map((message) => message.content)).toEqual(["Hi", "Hello again"]);
  });

  it("errors when a downstream callback throws, after recording the message", () => {
    const conversation = new Conversation();
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-h-|", elements({ h: instr.history(hello) }));
      const result = source.pipe(
        applyToConversation(conversation),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("---|");
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
    expect(conversation.messages).toEqual([hello]);
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-h-d-|", elements({ h: instr.history({ ...hello, content: "Hello again" }), d: instr.textDelta("m2", "x") }));
      const result = source.pipe(
        applyToConversation(conversation),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("---#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
    expect(conversation.messages.map((message) => message.content)).toEqual(["Hello again"]);
  });

  it("records nothing after an early unsubscription", () => {
    const conversation = new Conversation();
    testScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot("-c-h-|", elements({ c: ev.custom("c"), h: instr.history(hello) }));
      expectObservable(source.pipe(applyToConversation(conversation)), "^--!").toBe("-c--", elements({ c: ev.custom("c") }));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
    expect(conversation.messages).toEqual([]);
  });

  it("records every kind of write, and reports a patch that fails", () => {
    const conversation = new Conversation({ state: { n: 1 } });
    const warnings: string[] = [];
    const activities: string[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({
        r: { kind: "history.reserve", messageId: "m0", role: "assistant" },
        h: instr.history(hello),
        e: { kind: "history.encryptedValue", subtype: "message", entityId: "m1", encryptedValue: "sealed" },
        s: { kind: "state.snapshot", snapshot: { n: 2 } },
        d: { kind: "state.delta", delta: [{ op: "remove", path: "/missing" }] },
        a: { kind: "activity.snapshot", messageId: "p1", activityType: "plan", content: { step: 1 }, replace: true },
        b: { kind: "activity.delta", messageId: "p1", activityType: "plan", patch: [{ op: "replace", path: "/step", value: 2 }] },
        i: { kind: "interrupts.pending", interrupts: [{ id: "i1", reason: "approval" }] },
        c: { kind: "clarification.shown", question: "Which?" },
      });
      const source = cold("(rhesdabic)|", values);
      expectObservable(source.pipe(applyToConversation(conversation, { onWarning: (warning) => warnings.push(warning.message), onActivity: (activity) => activities.push(JSON.stringify(activity.content)) }))).toBe("-----------|");
    });
    expect(conversation.messages).toEqual([{ ...hello, encryptedValue: "sealed" }]);
    expect(conversation.state).toEqual({ n: 2 });
    expect(warnings).toHaveLength(1);
    expect(activities).toEqual(['{"step":1}', '{"step":2}']);
    expect(conversation.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(["i1"]);
    expect(conversation.clarificationShownForState).toBe("Which?");
  });

  it("adds each run's usage to the thread's totals, summed by provider and model, and tells onUsage which run it was", () => {
    const conversation = new Conversation({ threadId: "t1" });
    const told: unknown[] = [];
    const totals: unknown[] = [];
    conversation.usage$.subscribe((usage) => totals.push(usage));
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({
        a: { kind: "run.usage", runId: "r1", usage: [{ model: "m", inputTokens: 10, outputTokens: 2 }] },
        b: { kind: "run.usage", runId: "r2", usage: [{ model: "m", inputTokens: 5, outputTokens: 1 }, { model: "n", totalTokens: 7 }] },
      });
      expectObservable(cold("-a-b-|", values).pipe(applyToConversation(conversation, { onUsage: (usage, run) => told.push([usage, run]) }))).toBe("-----|");
    });
    expect(conversation.usage).toEqual([
      { model: "m", inputTokens: 15, outputTokens: 3 },
      { model: "n", totalTokens: 7 },
    ]);
    expect(told).toEqual([
      [[{ model: "m", inputTokens: 10, outputTokens: 2 }], { threadId: "t1", runId: "r1" }],
      [[{ model: "m", inputTokens: 5, outputTokens: 1 }, { model: "n", totalTokens: 7 }], { threadId: "t1", runId: "r2" }],
    ]);
    expect(totals).toHaveLength(3);
  });

  itFollowsTheOperatorContract(() => applyToConversation(new Conversation()), ev.custom("x") as PipelineElement);
});
