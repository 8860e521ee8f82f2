import { AbstractAgent } from "@ag-ui/client";
import type { BaseEvent, Message } from "@ag-ui/core";
import { from, type Observable } from "rxjs";
import { ev } from "carbon-agui-rx/testing";
import { Conversation } from "../../src/conversation";
import { History, type HistoryMessage } from "../../src/conversation/history";
import { runOurs, runReference, withoutEmptyMessages } from "../differential/reference";
import { THREAD_ID, USER_MESSAGE } from "../differential/streams";

const call = (id: string) => ({ id, type: "function" as const, function: { name: "search", arguments: "{}" } });
const ids = (messages: readonly Message[]) => messages.map((message) => message.id);

/** LangGraph's parallel nodes: each result is followed by the answer it led to, before the next result. */
const interleaved: HistoryMessage[] = [
  { id: "c1", role: "assistant", toolCalls: [call("c1"), call("c2")] },
  { id: "r1", role: "tool", toolCallId: "c1", content: "one" },
  { id: "m1", role: "assistant", content: "Did one." },
  { id: "r2", role: "tool", toolCallId: "c2", content: "two" },
  { id: "m2", role: "assistant", content: "Did two." },
];

/** A thread of `turns` turns: a call, its result, the answer. */
const thread = (turns: number): HistoryMessage[] =>
  Array.from({ length: turns }, (_, turn): HistoryMessage[] => [
    { id: `a${turn}`, role: "assistant", toolCalls: [call(`c${turn}`)] },
    { id: `r${turn}`, role: "tool", toolCallId: `c${turn}`, content: `result ${turn}` },
    { id: `m${turn}`, role: "assistant", content: `answer ${turn}` },
  ]).flat();

/** Proxies for `messages` that count every read of them (property reads, key listings) once `reads` has been called. */
function counted<T extends object>(messages: readonly T[]): { messages: T[]; reads: () => number } {
  let reads: number | undefined;
  const count = <R>(result: R): R => {
    if (reads !== undefined) reads++;
    return result;
  };
  const handler: ProxyHandler<T> = {
    get: (target, key, receiver) => count(Reflect.get(target, key, receiver)),
    has: (target, key) => count(Reflect.has(target, key)),
    ownKeys: (target) => count(Reflect.ownKeys(target)),
    getOwnPropertyDescriptor: (target, key) => count(Reflect.getOwnPropertyDescriptor(target, key)),
  };
  return { messages: messages.map((message) => new Proxy(message, handler)), reads: () => (reads ??= 0) };
}

describe("History.replace (issue 29)", () => {
  describe("a replayed snapshot leaves the history as it was", () => {
    it("the same snapshot applied again moves no tool result past the message after it", () => {
      const conversation = new Conversation({ messages: [interleaved[0]!] });
      conversation.replaceMessages(structuredClone(interleaved));
      expect(ids(conversation.messages)).toEqual(["c1", "r1", "m1", "r2", "m2"]);
      conversation.replaceMessages(structuredClone(interleaved));
      expect(conversation.messages).toEqual(interleaved);
    });

    it("a snapshot that repeats the history and adds to it keeps the history's order", () => {
      const conversation = new Conversation({ messages: [interleaved[0]!] });
      conversation.replaceMessages(structuredClone(interleaved));
      conversation.replaceMessages([...structuredClone(interleaved), { id: "m3", role: "assistant", content: "Both done." }]);
      expect(ids(conversation.messages)).toEqual(["c1", "r1", "m1", "r2", "m2", "m3"]);
    });

    it("as @ag-ui/client's runAgent has it, after each run", async () => {
      const snapshot = [USER_MESSAGE, ...(structuredClone(interleaved) as Message[])];
      const more: Message = { id: "m3", role: "assistant", content: "Both done." };
      const events = [...ev.run(ev.messagesSnapshot(...snapshot)), ...ev.run(ev.messagesSnapshot(...snapshot)), ...ev.run(ev.messagesSnapshot(...snapshot, more))];
      const [reference, ours] = await Promise.all([runReference(events), runOurs(events)]);
      expect(ids(reference.end.messages)).toEqual(["user-1", "c1", "r1", "m1", "r2", "m2", "m3"]);
      expect(ours.runs).toEqual(reference.runs.map(withoutEmptyMessages));
      expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
    });
  });

  describe("costs what the snapshot holds and what it changes, not the whole thread", () => {
    it("a snapshot that repeats a long history touches none of it: no republish, the same array, the same messages", () => {
      const history = new History(thread(1000));
      const published: (readonly Message[])[] = [];
      const subscription = history.messages$.subscribe((messages) => published.push(messages));
      const before = history.messages;
      history.replace(structuredClone(thread(1000)));
      expect(published).toHaveLength(1);
      expect(history.messages).toBe(before);
      subscription.unsubscribe();
    });

    it("a snapshot that changes one message of a long history republishes once, with every other message as it was", () => {
      const history = new History(thread(1000));
      const before = history.messages;
      const published: (readonly Message[])[] = [];
      const subscription = history.messages$.subscribe((messages) => published.push(messages));
      const snapshot = structuredClone(thread(1000));
      snapshot[1500] = { id: "a500", role: "assistant", toolCalls: [call("c500")], content: "edited" } as HistoryMessage;
      history.replace(snapshot);
      expect(published).toHaveLength(2);
      expect(history.messages[1500]).toEqual(snapshot[1500]);
      const replaced = history.messages.filter((message, index) => message !== before[index]).map((message) => message.id);
      expect({ replaced: replaced.length, first: replaced.slice(0, 3) }).toEqual({ replaced: 1, first: ["a500"] });
      subscription.unsubscribe();
    });

    it("reads each message a bounded number of times when a long history is replayed (no search per tool result)", () => {
      const held = counted(thread(1000));
      const snapshot = counted(structuredClone(thread(1000)));
      const history = new History(held.messages);
      held.reads();
      snapshot.reads();
      history.replace(snapshot.messages);
      const reads = held.reads() + snapshot.reads();
      expect(ids(history.messages)).toEqual(ids(thread(1000)));
      expect(reads / 3000).toBeLessThan(40);
    });

    it("reads each message a bounded number of times when a snapshot brings a result after each of many calls (no shifting per insertion)", () => {
      // LangGraph re-ids every result: the streamed ones go, the snapshot's each land after their call.
      const streamed = thread(2000).filter((message) => message.role !== "tool");
      const held = counted(streamed);
      const snapshot = counted(structuredClone(thread(2000)).map((message) => (message.role === "tool" ? { ...message, id: `snapshot-${message.id}` } : message)));
      const history = new History(held.messages);
      held.reads();
      snapshot.reads();
      history.replace(snapshot.messages);
      const reads = held.reads() + snapshot.reads();
      expect(ids(history.messages)).toEqual(ids(thread(2000)).map((id) => (id.startsWith("r") ? `snapshot-${id}` : id)));
      expect(reads / 6000).toBeLessThan(40);
    });
  });
});

/** `@ag-ui/client`'s agent restored with `messages` as its `initialMessages`, whose run streams `events`: the oracle. */
class RestoredAgent extends AbstractAgent {
  constructor(
    messages: readonly Message[],
    private readonly events: readonly BaseEvent[] = [],
  ) {
    super({ threadId: THREAD_ID, initialMessages: structuredClone(messages) as Message[], initialState: {} });
  }

  run(): Observable<BaseEvent> {
    return from(this.events.map((event) => structuredClone(event)));
  }
}

/** LangGraph's parallel nodes over `turns` turns: two calls, then each result followed by the answer it led to. */
const parallelThread = (turns: number): HistoryMessage[] =>
  Array.from({ length: turns }, (_, turn): HistoryMessage[] => [
    { id: `a${turn}`, role: "assistant", toolCalls: [call(`x${turn}`), call(`y${turn}`)] },
    { id: `rx${turn}`, role: "tool", toolCallId: `x${turn}`, content: `x ${turn}` },
    { id: `mx${turn}`, role: "assistant", content: `after x ${turn}` },
    { id: `ry${turn}`, role: "tool", toolCallId: `y${turn}`, content: `y ${turn}` },
    { id: `my${turn}`, role: "assistant", content: `after y ${turn}` },
  ]).flat();

describe("new History (issue 29): a restored history", () => {
  describe("is kept in the order it is given, as @ag-ui/client keeps its initialMessages", () => {
    const histories: Record<string, HistoryMessage[]> = {
      "LangGraph's interleaved results and answers": interleaved,
      "a result before its call": [
        { id: "u1", role: "user", content: "Hi" },
        { id: "r9", role: "tool", toolCallId: "c9", content: "early" },
        { id: "a9", role: "assistant", toolCalls: [call("c9")] },
        { id: "m9", role: "assistant", content: "Done." },
      ],
      "a result of a call it does not hold, between two answers": [
        { id: "m1", role: "assistant", content: "One." },
        { id: "r0", role: "tool", toolCallId: "gone", content: "orphan" },
        { id: "m2", role: "assistant", content: "Two." },
      ],
      "several turns of parallel calls": parallelThread(3),
    };

    it.each(Object.entries(histories))("%s", (_name, messages) => {
      const reference = new RestoredAgent(messages).messages;
      expect(ids(new History(structuredClone(messages)).messages)).toEqual(ids(messages));
      expect(new History(structuredClone(messages)).messages).toEqual(reference);
      expect(new Conversation({ messages: structuredClone(messages) }).messages).toEqual(reference);
    });
  });

  it("goes on as @ag-ui/client's runAgent does: a new result of a restored call goes after its call's results, before the answer", async () => {
    const events = ev.run(ev.toolResult("c1", "one, again", "r1b"), ev.message("m3", "Both done."));
    const reference = new RestoredAgent([...interleaved, USER_MESSAGE], events);
    await reference.runAgent();
    const ours = await runOurs(events, { initialMessages: structuredClone(interleaved) });
    expect(ids(reference.messages)).toEqual(["c1", "r1", "r1b", "m1", "r2", "m2", "user-1", "m3"]);
    expect(ids(ours.end.messages)).toEqual(ids(reference.messages));
    expect(ours.end.messages).toEqual(withoutEmptyMessages({ messages: reference.messages, state: {}, activities: {} }).messages);
  });

  it("costs one pass: each message is read a bounded number of times when a long interleaved history is restored (no search per tool result, no shifting per insertion)", () => {
    const held = counted(parallelThread(500));
    held.reads();
    const history = new History(held.messages);
    const reads = held.reads();
    expect(reads / 2500).toBeLessThan(40);
    expect(ids(history.messages)).toEqual(ids(parallelThread(500)));
  });
});
