import type { Message } from "@ag-ui/core";
import { CancellationReason, fromAgent, memoryStore } from "carbon-agui-rx";
import { createLangGraphAgent, langGraphClient, startLangGraphServer, type LangGraphServer } from "../../examples/frameworks/langgraph";
import type { ConfirmedCall } from "../../examples/frameworks/langgraphGraph";
import { Chat, waitUntil } from "./partners";

/** A message as both sides can say it: who, what, which calls or which call it answers. */
interface Said {
  id: string | undefined;
  role: string;
  content: string;
  toolCalls?: { id: string; name: string; args: unknown }[];
  toolCallId?: string;
}

/** A LangChain message of the thread's state (the server's JSON), as `Said`. */
function fromLangGraph(message: Record<string, unknown>): Said {
  const roles: Record<string, string> = { human: "user", ai: "assistant", tool: "tool", system: "system" };
  const calls = (message.tool_calls as { id: string; name: string; args: unknown }[] | undefined) ?? [];
  return {
    id: message.id as string | undefined,
    role: roles[String(message.type)] ?? String(message.type),
    content: typeof message.content === "string" ? message.content : JSON.stringify(message.content),
    ...(calls.length > 0 && { toolCalls: calls.map(({ id, name, args }) => ({ id, name, args })) }),
    ...(typeof message.tool_call_id === "string" && { toolCallId: message.tool_call_id }),
  };
}

/** An AG-UI message the adapter keeps, as `Said`. */
function fromAdapter(message: Message): Said {
  const calls = message.role === "assistant" ? (message.toolCalls ?? []) : [];
  return {
    id: message.id,
    role: message.role,
    content: typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""),
    ...(calls.length > 0 && { toolCalls: calls.map((call) => ({ id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments) as unknown })) }),
    ...(message.role === "tool" && { toolCallId: message.toolCallId }),
  };
}

// The LangGraph API server, with the graph of examples/frameworks/langgraphGraph.ts, in a child process for this file.
let server: LangGraphServer;
beforeAll(async () => {
  server = await startLangGraphServer();
}, 60_000);
afterAll(() => server?.close());

/** What one confirming node's interrupt() returned, from the tool message it added. */
interface Received {
  tool: string;
  interruptId: string;
  value: unknown;
}

/** The thread's state as LangGraph keeps it: its messages, and what each confirming node got. */
async function graphState(chat: Chat): Promise<{ messages: Said[]; received: Received[] }> {
  const { values } = await langGraphClient(server.url).threads.getState<{ messages?: Record<string, unknown>[] }>(chat.adapter.threadId);
  const messages = values.messages ?? [];
  const received = messages
    .filter((message) => message.type === "tool" && String(message.content).includes('"interruptId"'))
    .map((message) => {
      const { interruptId, received: value } = JSON.parse(String(message.content)) as ConfirmedCall;
      return { tool: String(message.name), interruptId, value };
    });
  return { messages: messages.map(fromLangGraph), received };
}

/** The history the adapter keeps is the one LangGraph keeps, message for message. */
async function expectSameHistory(chat: Chat): Promise<void> {
  expect(chat.adapter.messages.map(fromAdapter)).toEqual((await graphState(chat)).messages);
}

function expectSettled(chat: Chat): void {
  expect(chat.carbon.waitingForFinal).toEqual([]);
  for (const finals of Object.values(chat.finalsPerMessage())) expect(finals).toBe(1);
}

const newChat = () => new Chat({ run: fromAgent(createLangGraphAgent(server.url)) });
const lastLines = (chat: Chat, count: number) => chat.carbon.transcript().split("\n").slice(-count);

describe("LangGraph (a LangGraph.js graph behind the LangGraph API server, through @ag-ui/langgraph)", () => {
  it("streams an answer, keeps LangGraph's history, and the next message gets its own", async () => {
    const chat = newChat();
    expect(await chat.say("Hello there")).toBeUndefined();
    await expectSameHistory(chat);
    expect(await chat.say("Once more")).toBeUndefined();
    expect(chat.carbon.transcript()).toBe(["You: Hello there", "Assistant: You said: Hello there", "You: Once more", "Assistant: You said: Once more"].join("\n"));
    await expectSameHistory(chat);
    expectSettled(chat);
  });

  it("shows a backend tool as a step of the chain of thought, with the answer after it", async () => {
    const chat = newChat();
    expect(await chat.say("Weather in Paris?")).toBeUndefined();
    expect(chat.carbon.transcript()).toBe(["You: Weather in Paris?", "Assistant: Let me check.", "It is sunny in Paris, 21 °C.", "  How did I get this answer? get_weather (success)"].join("\n"));
    await expectSameHistory(chat);
    expectSettled(chat);
  });

  describe.each([
    ["approve", { type: "approve" } as const, "Deleted the files matching *.tmp.", { approved: true }],
    ["edit", { type: "edit", args: { pattern: "*.log" } } as const, "Deleted the files matching *.log.", { approved: true, args: { pattern: "*.log" } }],
    ["reject", { type: "reject" } as const, "OK, I did not delete anything.", { __agui_cancelled__: true, interrupt_id: expect.any(String) }],
  ])("an interrupt answered with %s", (_name, decision, continuation, received) => {
    it("shows a decision card while the call waits, gives interrupt() the answer, shows the continuation once, and the thread goes on", async () => {
      const chat = newChat();
      expect(await chat.say("Delete my temp files")).toBeUndefined();
      expect(chat.carbon.transcript()).toBe(
        ["You: Delete my temp files", "Assistant: I need your approval first.", "[decision card: Delete the files matching *.tmp?]", "  How did I get this answer? delete_files (success)"].join("\n"),
      );
      const [pending] = chat.adapter.pendingInterrupts;
      await expectSameHistory(chat);
      expect(await chat.decide(decision)).toBeUndefined();
      // The resumed node's answer comes only in the run's MESSAGES_SNAPSHOT: shown once, as its own response.
      expect(chat.carbon.transcript().split("\n").slice(4)).toEqual([`Assistant: ${continuation}`]);
      expect((await graphState(chat)).received).toEqual([{ tool: "delete_files", interruptId: pending?.interrupt.id, value: received }]);
      await expectSameHistory(chat);
      expect(await chat.say("Thanks")).toBeUndefined();
      expect(lastLines(chat, 2)).toEqual(["You: Thanks", "Assistant: You said: Thanks"]);
      await expectSameHistory(chat);
      expectSettled(chat);
    });
  });

  it("takes two interrupts raised at once, answered together in one resume that reaches both nodes", async () => {
    const chat = newChat();
    expect(await chat.say("Please tidy up")).toBeUndefined();
    // Each card shows its own call, as the run's snapshot has it (@ag-ui/langgraph streams the second call's arguments into the first).
    const cards = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? chunk.final_response.output.generic : []));
    const decisions = cards.map((item) => item.user_defined as { kind?: string; message?: string; action?: string; args?: unknown } | undefined).filter((data) => data?.kind === "interrupt");
    expect(decisions.map((data) => [data?.message, data?.action, data?.args])).toEqual([
      ["Delete the files matching *.tmp?", "delete_files", { pattern: "*.tmp" }],
      ["Email team@example.com?", "send_email", { to: "team@example.com" }],
    ]);
    // The chain of thought shows both calls, as the snapshot has them, each waiting for its decision.
    const steps = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? (chunk.final_response.message_options?.chain_of_thought ?? []) : []));
    expect(steps.map((step) => [step.tool_name, step.request?.args, step.status, step.description])).toEqual([
      ["delete_files", { pattern: "*.tmp" }, "success", "Waiting for a decision"],
      ["send_email", { to: "team@example.com" }, "success", "Waiting for a decision"],
    ]);
    const [first, second] = chat.adapter.pendingInterrupts.map(({ interrupt }) => interrupt);
    const deletion = [first, second].find((interrupt) => interrupt?.message?.startsWith("Delete"));
    const email = [first, second].find((interrupt) => interrupt?.message?.startsWith("Email"));
    expect(await chat.decide("approve", deletion?.id)).toBeUndefined();
    expect(await chat.decide("reject", email?.id)).toBeUndefined();
    const { received } = await graphState(chat);
    const map = { [deletion?.id as string]: { status: "resolved", payload: { approved: true } }, [email?.id as string]: { status: "cancelled", payload: null } };
    expect(received.sort((a, b) => a.tool.localeCompare(b.tool))).toEqual([
      { tool: "delete_files", interruptId: deletion?.id, value: { __agui_resume_map__: map } },
      { tool: "send_email", interruptId: email?.id, value: { __agui_resume_map__: map } },
    ]);
    expect(chat.carbon.transcript()).toMatch(/Deleted the files matching \*\.tmp\./);
    expect(chat.carbon.transcript()).toMatch(/OK, no email\./);
    await expectSameHistory(chat);
    expectSettled(chat);
  });

  it("answers a message sent instead of a decision, cancels the card once, and the thread goes on", async () => {
    const chat = newChat();
    expect(await chat.say("Delete my temp files")).toBeUndefined();
    expect(await chat.say("Actually, what is the weather?")).toBeUndefined();
    expect(chat.adapter.pendingInterrupts).toEqual([]);
    // The cancellation's run first (the graph says what it did with the cancelled call), then the message's.
    expect(lastLines(chat, 5)).toEqual([
      "You: Actually, what is the weather?",
      "Assistant: OK, I did not delete anything.",
      "Assistant: Let me check.",
      "It is sunny in Paris, 21 °C.",
      "  How did I get this answer? get_weather (success)",
    ]);
    expect(chat.carbon.transcript().match(/\[decision card/g)).toHaveLength(1);
    expect(chat.adapter.messages.some((message) => message.role === "user" && message.content === "Actually, what is the weather?")).toBe(true);
    expect((await graphState(chat)).received).toEqual([{ tool: "delete_files", interruptId: expect.any(String), value: { __agui_cancelled__: true, interrupt_id: expect.any(String) } }]);
    await expectSameHistory(chat);
    expect(await chat.say("Thanks")).toBeUndefined();
    expect(lastLines(chat, 2)).toEqual(["You: Thanks", "Assistant: You said: Thanks"]);
    await expectSameHistory(chat);
    expectSettled(chat);
  });

  it("after a reload, has the pending card from the store, and the next message answers it as cancelled instead of being swallowed", async () => {
    const store = memoryStore();
    const before = new Chat({ run: fromAgent(createLangGraphAgent(server.url)), persistence: { store } });
    expect(await before.say("Delete my temp files")).toBeUndefined();
    const pending = before.adapter.pendingInterrupts.map((entry) => entry.interrupt.id);
    expect(pending).toHaveLength(1);
    await before.adapter.saveNow();
    // The reload: the old page goes away (and hears no more of the new page's saves).
    before.adapter.dispose();

    const after = new Chat({ run: fromAgent(createLangGraphAgent(server.url)), threadId: before.adapter.threadId, persistence: { store } });
    const restored = await after.adapter.loadHistory(after.carbon);
    expect(restored.length).toBeGreaterThan(0);
    expect(after.adapter.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(pending);
    // Carbon gives each message an id of its own; the new page's first may not reuse the old page's.
    after.carbon.userSays("Actually, what is the weather?");
    await after.adapter.sendMessage({ id: "after-reload-1", input: { text: "Actually, what is the weather?" }, history: {} }, { signal: new AbortController().signal }, after.carbon);
    expect(lastLines(after, 4)).toEqual(["Assistant: OK, I did not delete anything.", "Assistant: Let me check.", "It is sunny in Paris, 21 °C.", "  How did I get this answer? get_weather (success)"]);
    expect((await graphState(after)).received).toEqual([{ tool: "delete_files", interruptId: pending[0], value: { __agui_cancelled__: true, interrupt_id: pending[0] } }]);
    await expectSameHistory(after);
    expectSettled(after);
  });

  it("stops the graph's run on the stop button, and the next message on the thread gets its own answer", async () => {
    const chat = newChat();
    const stop = new AbortController();
    const turn = chat.say("Tell me a story", stop.signal);
    await waitUntil(() => chat.carbon.transcript().includes("a graph"));
    stop.abort(CancellationReason.STOP_STREAMING);
    expect(await turn).toBeUndefined();
    expect(lastLines(chat, 1)).toEqual(["  (Response stopped)"]);
    expect(await chat.say("Hello")).toBeUndefined();
    expect(lastLines(chat, 2)).toEqual(["You: Hello", "Assistant: You said: Hello"]);
    // The story was stopped in the graph too: it never finished.
    expect(chat.carbon.transcript()).not.toContain("pressed stop.");
    await expectSameHistory(chat);
    expectSettled(chat);
  });

  it.each([0, 5, 20, 60])("stops a run the stop button ends %i ms after the message (before or around its first event, the server's run id perhaps unknown), and the next message on the thread gets its own answer", async (delay) => {
    const chat = newChat();
    expect(await chat.say("Hello")).toBeUndefined();
    const stop = new AbortController();
    const turn = chat.say("Tell me a story", stop.signal);
    await new Promise((resolve) => setTimeout(resolve, delay));
    stop.abort(CancellationReason.STOP_STREAMING);
    expect(await turn).toBeUndefined();
    expect(chat.carbon.transcript()).not.toContain("pressed stop.");
    expect(await chat.say("Hello again")).toBeUndefined();
    expect(lastLines(chat, 2)).toEqual(["You: Hello again", "Assistant: You said: Hello again"]);
    // The server's run of the story was cancelled, not left to finish.
    const runs = await langGraphClient(server.url).runs.list(chat.adapter.threadId);
    expect(runs.map((run) => run.status).filter((status) => status !== "interrupted")).toEqual(["success", "success"]);
    await expectSameHistory(chat);
    expectSettled(chat);
  });

  it("shows a node that throws once, with its reason, and the next message works", async () => {
    const chat = newChat();
    await chat.say("Check the inventory");
    expect(chat.carbon.transcript()).toBe(["You: Check the inventory", "Assistant: Let me count.", "[error: This answer is incomplete. The inventory service is down.]", "  How did I get this answer? check_inventory (failure)"].join("\n"));
    expect(await chat.say("Hello")).toBeUndefined();
    expect(lastLines(chat, 2)).toEqual(["You: Hello", "Assistant: You said: Hello"]);
    await expectSameHistory(chat);
    expectSettled(chat);
  });
});
