import { map } from "rxjs";
import { Conversation } from "../../src/conversation";
import type { PipelineElement } from "../../src/instructions";
import { trackHistory } from "../../src/operators/trackHistory";
import { ev, instr } from "../support/builders";
import { testScheduler } from "../support/marbles";
import { itFollowsTheOperatorContract } from "../support/operatorContract";

const hello = { id: "m1", role: "assistant", content: "Hello" } as const;
const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;

describe("trackHistory", () => {
  it("records history messages in the conversation and passes everything through", () => {
    const conversation = new Conversation({ threadId: "t" });
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = elements({ h: instr.history(hello), d: instr.textDelta("m2", "x") });
      const source = cold("-h-d-|", values);
      expectObservable(source.pipe(trackHistory(conversation))).toBe("-h-d-|", values);
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
    expect(conversation.messages).toEqual([hello]);
  });

  it("replaces a message with the same id where it stands", () => {
    const conversation = new Conversation({ messages: [{ id: "u1", role: "user", content: "Hi" }, hello] });
    testScheduler().run(({ cold, expectObservable }) => {
      const values = elements({ h: instr.history({ ...hello, content: "Hello again" }) });
      expectObservable(cold("-h-|", values).pipe(trackHistory(conversation))).toBe("-h-|", values);
    });
    expect(conversation.messages.map((message) => message.content)).toEqual(["Hi", "Hello again"]);
  });

  it("errors when a downstream callback throws, after recording the message", () => {
    const conversation = new Conversation();
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-h-|", elements({ h: instr.history(hello) }));
      const result = source.pipe(
        trackHistory(conversation),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
    expect(conversation.messages).toEqual([hello]);
  });

  it("records nothing after an early unsubscription", () => {
    const conversation = new Conversation();
    testScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot("-c-h-|", elements({ c: ev.custom("c"), h: instr.history(hello) }));
      expectObservable(source.pipe(trackHistory(conversation)), "^--!").toBe("-c--", elements({ c: ev.custom("c") }));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
    expect(conversation.messages).toEqual([]);
  });

  itFollowsTheOperatorContract(() => trackHistory(new Conversation()), ev.custom("x") as PipelineElement);
});
