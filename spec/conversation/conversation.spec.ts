import { Conversation } from "../../src/conversation";

describe("Conversation", () => {
  it("publishes an immutable snapshot of the history on every change", () => {
    const conversation = new Conversation({ threadId: "t1" });
    const seen: number[] = [];
    const subscription = conversation.messages$.subscribe((messages) => seen.push(messages.length));
    const before = conversation.messages;
    conversation.upsertMessage({ id: "u1", role: "user", content: "Hi" });
    expect(before).toEqual([]);
    expect(Object.isFrozen(conversation.messages)).toBe(true);
    expect(seen).toEqual([0, 1]);
    subscription.unsubscribe();
  });

  it("starts from the empty state, on a new thread, unless told otherwise", () => {
    const conversation = new Conversation();
    expect([conversation.state, conversation.messages]).toEqual([{}, []]);
    expect(conversation.threadId).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(new Conversation({ threadId: "t1", state: { step: 0 } }).state).toEqual({ step: 0 });
  });

  it("hands out frozen snapshots of the state that later changes do not touch", () => {
    const conversation = new Conversation({ state: { items: ["a"] } });
    const before = conversation.state as { items: string[] };
    expect(Object.isFrozen(before) && Object.isFrozen(before.items)).toBe(true);
    expect(conversation.state).toBe(before);
    conversation.patchState([{ op: "add", path: "/items/-", value: "b" }]);
    expect(before).toEqual({ items: ["a"] });
    expect(conversation.state).toEqual({ items: ["a", "b"] });
  });

  it("keeps no reference to a snapshot it was given", () => {
    const given = { nested: { n: 1 } };
    const conversation = new Conversation();
    conversation.replaceState(given);
    given.nested.n = 2;
    expect(conversation.state).toEqual({ nested: { n: 1 } });
  });

  it("merges an assistant message's text and tool calls, whichever comes first", () => {
    const toolCalls = [{ id: "t1", type: "function" as const, function: { name: "search", arguments: "{}" } }];
    const conversation = new Conversation();
    conversation.upsertMessage({ id: "a1", role: "assistant", toolCalls });
    conversation.upsertMessage({ id: "a1", role: "assistant", content: "Searching" });
    expect(conversation.messages).toEqual([{ id: "a1", role: "assistant", toolCalls, content: "Searching" }]);
    conversation.upsertMessage({ id: "a1", role: "user", content: "replaced" });
    expect(conversation.messages).toEqual([{ id: "a1", role: "user", content: "replaced" }]);
  });

  it("attaches encrypted values to their message or tool call, also when they come first", () => {
    const conversation = new Conversation();
    conversation.upsertMessage({ id: "r1", role: "reasoning", content: "Thinking" });
    conversation.attachEncryptedValue("message", "r1", "enc-message");
    conversation.attachEncryptedValue("tool-call", "t1", "enc-call");
    const toolCalls = [{ id: "t1", type: "function" as const, function: { name: "search", arguments: "{}" } }];
    conversation.upsertMessage({ id: "a1", role: "assistant", toolCalls });
    expect(conversation.messages).toEqual([
      { id: "r1", role: "reasoning", content: "Thinking", encryptedValue: "enc-message" },
      { id: "a1", role: "assistant", toolCalls: [{ ...toolCalls[0], encryptedValue: "enc-call" }] },
    ]);
  });

  it("holds at most 256 encrypted values waiting for their message, dropping the oldest", () => {
    const conversation = new Conversation();
    for (let index = 0; index <= 256; index++) conversation.attachEncryptedValue("message", `m${index}`, `enc${index}`);
    conversation.upsertMessage({ id: "m0", role: "reasoning", content: "first" });
    conversation.upsertMessage({ id: "m256", role: "reasoning", content: "last" });
    expect(conversation.messages.map((message) => (message as { encryptedValue?: string }).encryptedValue)).toEqual([undefined, "enc256"]);
  });

  describe("keeps the history as @ag-ui/client does", () => {
    const call = (id: string) => ({ id, type: "function" as const, function: { name: "search", arguments: "{}" } });

    it("keeps the order messages began in, leaving out a place whose message never came", () => {
      const conversation = new Conversation();
      conversation.reserveMessage("m1", "assistant");
      conversation.reserveMessage("empty", "assistant");
      conversation.upsertMessage({ id: "c1", role: "assistant", toolCalls: [call("c1")] });
      expect(conversation.messages.map((message) => message.id)).toEqual(["c1"]);
      conversation.upsertMessage({ id: "m1", role: "assistant", content: "Let me look" });
      expect(conversation.messages.map((message) => message.id)).toEqual(["m1", "c1"]);
      expect(conversation.hasMessage("empty")).toBe(true);
    });

    it("puts a new tool result right after its call and the results already there", () => {
      const conversation = new Conversation();
      conversation.upsertMessage({ id: "c1", role: "assistant", toolCalls: [call("c1"), call("c2")] });
      conversation.upsertMessage({ id: "m2", role: "assistant", content: "meanwhile" });
      conversation.upsertMessage({ id: "r1", role: "tool", toolCallId: "c1", content: "one" });
      conversation.upsertMessage({ id: "r2", role: "tool", toolCallId: "c2", content: "two" });
      conversation.upsertMessage({ id: "r3", role: "tool", toolCallId: "unknown", content: "late" });
      expect(conversation.messages.map((message) => message.id)).toEqual(["c1", "r1", "r2", "m2", "r3"]);
      expect(conversation.findToolCall("c2")?.messageId).toBe("c1");
    });

    it("gives tool calls sent under a user's message id assistant messages of their own", () => {
      const conversation = new Conversation();
      conversation.upsertMessage({ id: "u1", role: "user", content: "Hi" });
      conversation.upsertMessage({ id: "u1", role: "assistant", toolCalls: [call("c1"), call("c2")] });
      expect(conversation.messages).toEqual([
        { id: "u1", role: "user", content: "Hi" },
        { id: "c1", role: "assistant", toolCalls: [call("c1")] },
        { id: "c2", role: "assistant", toolCalls: [call("c2")] },
      ]);
    });

    it("keeps an encrypted-only reasoning message once its value arrives", () => {
      const conversation = new Conversation();
      conversation.reserveMessage("r1", "reasoning");
      expect(conversation.messages).toEqual([]);
      conversation.attachEncryptedValue("message", "r1", "secret");
      expect(conversation.messages).toEqual([{ id: "r1", role: "reasoning", content: "", encryptedValue: "secret" }]);
    });

    it("keeps a snapshot's new messages in the snapshot's order, a tool result after a message that followed its call included (LangGraph's parallel nodes)", () => {
      const conversation = new Conversation({ messages: [{ id: "c1", role: "assistant", toolCalls: [call("c1"), call("c2")] }] });
      conversation.replaceMessages([
        { id: "c1", role: "assistant", toolCalls: [call("c1"), call("c2")] },
        { id: "r1", role: "tool", toolCallId: "c1", content: "one" },
        { id: "m1", role: "assistant", content: "Did one." },
        { id: "r2", role: "tool", toolCallId: "c2", content: "two" },
        { id: "m2", role: "assistant", content: "Did two." },
      ]);
      expect(conversation.messages.map((message) => message.id)).toEqual(["c1", "r1", "m1", "r2", "m2"]);
    });

    it("puts a snapshot's new tool result right after the one before it in the snapshot: a result sent under another id than it streamed stays before the answer after it (LangGraph)", () => {
      const conversation = new Conversation({ messages: [{ id: "u1", role: "user", content: "Weather?" }] });
      conversation.upsertMessage({ id: "c1", role: "assistant", toolCalls: [call("c1")] });
      conversation.upsertMessage({ id: "streamed-result", role: "tool", toolCallId: "c1", content: "sunny" });
      conversation.upsertMessage({ id: "m1", role: "assistant", content: "It is sunny." });
      conversation.replaceMessages([
        { id: "u1", role: "user", content: "Weather?" },
        { id: "c1", role: "assistant", toolCalls: [call("c1")] },
        { id: "r1", role: "tool", toolCallId: "c1", content: "sunny" },
        { id: "m1", role: "assistant", content: "It is sunny." },
      ]);
      expect(conversation.messages.map((message) => message.id)).toEqual(["u1", "c1", "r1", "m1"]);
    });

    it("reconciles a messages snapshot: known messages stay where they were, reasoning stays when the snapshot has none, activities become activities", () => {
      const conversation = new Conversation({ messages: [{ id: "u1", role: "user", content: "Hi" }] });
      conversation.upsertMessage({ id: "r1", role: "reasoning", content: "thinking", encryptedValue: "secret" } as never);
      conversation.upsertMessage({ id: "m1", role: "assistant", content: "Hello", encryptedValue: "kept" } as never);
      conversation.upsertMessage({ id: "gone", role: "assistant", content: "dropped" });
      conversation.replaceMessages([
        { id: "new", role: "assistant", content: "added" },
        { id: "m1", role: "assistant", content: "Hello!" },
        { id: "u1", role: "user", content: "Hi" },
        { id: "a1", role: "activity", activityType: "plan", content: { step: 1 } },
      ]);
      expect(conversation.messages).toEqual([
        { id: "u1", role: "user", content: "Hi" },
        { id: "r1", role: "reasoning", content: "thinking", encryptedValue: "secret" },
        { id: "m1", role: "assistant", content: "Hello!", encryptedValue: "kept" },
        { id: "new", role: "assistant", content: "added" },
      ]);
      expect(conversation.activities.get("a1")).toEqual({ messageId: "a1", activityType: "plan", content: { step: 1 }, requestId: "u1" });
      conversation.replaceMessages([{ id: "r2", role: "reasoning", content: "other" }]);
      expect(conversation.messages.map((message) => message.id)).toEqual(["r2"]);
    });
  });
});
