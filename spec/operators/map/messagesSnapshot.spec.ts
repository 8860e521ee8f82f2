import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import { map } from "rxjs";
import { Conversation } from "../../../src/conversation";
import type { PipelineElement } from "../../../src/instructions";
import { messagesSnapshot } from "../../../src/operators/map/messagesSnapshot";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { recorded } from "../../support/recorded";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const snapshot = (...messages: Message[]) => ({ type: EventType.MESSAGES_SNAPSHOT, messages }) as BaseEvent as PipelineElement;
const earlier: Message[] = [
  { id: "u1", role: "user", content: "Hi" },
  { id: "a1", role: "assistant", content: "Hello" },
];

describe("messagesSnapshot", () => {
  it("replaces the history and shows only the assistant messages the conversation had not seen", () => {
    const conversation = new Conversation({ messages: earlier });
    const next: Message[] = [...earlier, { id: "u2", role: "user", content: "And?" }, { id: "a2", role: "assistant", content: "From a graph that does not stream." }];
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-c-|", { s: snapshot(...next), c: ev.custom("x") as PipelineElement });
      expectObservable(source.pipe(recorded(conversation, (current) => messagesSnapshot({ knownMessageIds: current.messages.map((message) => message.id) })))).toBe("-a-c-|", {
        a: instr.textComplete("a2", "From a graph that does not stream."),
        c: ev.custom("x") as PipelineElement,
      });
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
    expect(conversation.messages).toEqual(next);
  });

  it("shows nothing for assistant messages without text, and keeps fields only the conversation had", () => {
    const conversation = new Conversation({ messages: [{ id: "r1", role: "reasoning", content: "Hmm", encryptedValue: "enc" }] });
    const toolOnly: Message = { id: "a3", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "search", arguments: "{}" } }] };
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-s-|", { s: snapshot({ id: "r1", role: "reasoning", content: "Hmm." }, toolOnly) }).pipe(recorded(conversation, (current) => messagesSnapshot({ knownMessageIds: current.messages.map((message) => message.id) })))).toBe("---|");
    });
    expect(conversation.messages).toEqual([{ id: "r1", role: "reasoning", content: "Hmm.", encryptedValue: "enc" }, toolOnly]);
  });

  it("errors when a downstream callback throws, after replacing the history", () => {
    const conversation = new Conversation({ messages: earlier });
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-|", { s: snapshot({ id: "a9", role: "assistant", content: "New" }) });
      const result = source.pipe(
        recorded(conversation, (current) => messagesSnapshot({ knownMessageIds: current.messages.map((message) => message.id) })),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
    expect(conversation.messages.map((message) => message.id)).toEqual(["a9"]);
  });

  itFollowsTheOperatorContract(() => recorded(new Conversation(), (current) => messagesSnapshot({ knownMessageIds: current.messages.map((message) => message.id) })), ev.custom("x") as PipelineElement);
});
