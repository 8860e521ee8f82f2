import type { BaseEvent } from "@ag-ui/core";
import { HttpAgent } from "@ag-ui/client";
import { createSseRunner } from "carbon-agui-rx";
import { lastValueFrom, toArray } from "rxjs";
import { AgUiThreadServerError } from "../../src/errors";
import type { ServerThread } from "../../src/threads/agentThreads";
import { agentConnect, connectThreads, httpConnect, implementsConnect } from "../../src/threads/connectThreads";
import { replayServerThread } from "../support/threads";
import { copilotKitClientAgent, copilotKitConnectUrl, createCopilotKitAgent, serveCopilotKit, stoppingCopilotKitRuns, type RunningServer } from "../../examples/frameworks/copilotkit";
import { scriptedModel, type ModelScript } from "../../examples/frameworks/scriptedModel";
import { Chat, waitUntil } from "./partners";

type Event = BaseEvent & Record<string, unknown>;

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
beforeAll(() => {
  jest.spyOn(console, "error").mockImplementation(() => undefined);
  jest.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterAll(() => jest.restoreAllMocks());

/** CopilotKit's runtime on a scripted model, and a chat on it through our SSE runner. */
async function start(script: ModelScript, pauseMs = 0): Promise<{ chat: Chat; server: RunningServer; threadId: () => string }> {
  server = await serveCopilotKit(createCopilotKitAgent(scriptedModel(script, { pauseMs })));
  const chat = new Chat({ run: stoppingCopilotKitRuns(createSseRunner({ url: server.url }), server.url) });
  // The thread the adapter's conversation is (the next run's threadId).
  const threadId = () => (chat.adapter as unknown as { conversation: { threadId: string } }).conversation.threadId;
  return { chat, server, threadId };
}

/** What the chat makes of a loaded thread: its recorded runs replayed through the stages, once. */
const replayed = (thread: ServerThread | undefined) => {
  const conversation = thread && replayServerThread(thread).conversation;
  return conversation && { messages: conversation.messages, state: conversation.state, pending: conversation.pendingInterrupts.map((entry) => entry.interrupt) };
};
const threadsOf = (running: RunningServer) => connectThreads(httpConnect({ url: copilotKitConnectUrl(running.url) }));
const weather: ModelScript = [{ text: ["Let me check."], toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Paris" } }] }, { text: ["It is sunny in Paris."] }, { text: ["You are welcome."] }];

describe("connectThreads (CopilotKit runtime v2's connect route)", () => {
  it("loads a thread as the chat built it: the person's messages, the answers, the tool call and its result", async () => {
    const { chat, server, threadId } = await start(weather);
    expect(await chat.say("Weather in Paris?")).toBeUndefined();
    expect(await chat.say("Thanks")).toBeUndefined();

    const thread = await threadsOf(server).load(threadId());
    const view = replayed(thread);
    expect(thread).toBeDefined();
    expect(view?.messages).toEqual(chat.adapter.messages);
    expect(view?.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "Weather in Paris?"],
      ["assistant", "Let me check."],
      ["tool", JSON.stringify({ city: "Paris", forecast: "sunny", celsius: 21 })],
      ["assistant", "It is sunny in Paris."],
      ["user", "Thanks"],
      ["assistant", "You are welcome."],
    ]);
    const call = view?.messages[1];
    expect(call?.role === "assistant" && call.toolCalls).toEqual([{ id: "c1", type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) } }]);
    expect(view?.messages[2]).toMatchObject({ role: "tool", toolCallId: "c1" });
    expect(view?.pending).toEqual([]);
    expect(view?.state).toEqual({});
    expect(thread?.running).toBeUndefined();
  });

  it("gives the same thread through an agent that implements connect (CopilotKit's ProxiedCopilotRuntimeAgent)", async () => {
    const { chat, server, threadId } = await start(weather);
    expect(await chat.say("Weather in Paris?")).toBeUndefined();
    const agent = await copilotKitClientAgent(server.url);
    expect(implementsConnect(agent)).toBe(true);
    expect(implementsConnect(new HttpAgent({ url: server.url }))).toBe(false);
    expect(() => agentConnect(new HttpAgent({ url: server.url }))).toThrow(TypeError);
    const thread = await connectThreads(agentConnect(agent)).load(threadId());
    const view = replayed(thread);
    expect(view?.messages).toEqual(chat.adapter.messages);
    expect(view?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("gives the interrupt the last run ended on, waiting for its resume", async () => {
    const { chat, server, threadId } = await start([{ text: ["I will delete them."], toolCalls: [{ id: "d1", name: "delete_files", args: { pattern: "*.tmp" } }] }]);
    expect(await chat.say("Delete the temp files")).toBeUndefined();
    const thread = await threadsOf(server).load(threadId());
    const view = replayed(thread);
    expect(view?.pending).toHaveLength(1);
    expect(view?.pending[0]).toMatchObject({ message: "Delete these files?", toolCallId: "d1" });
    expect(view?.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(view?.messages).toEqual(chat.adapter.messages);
  });

  it("has no thread by an id the runtime does not know", async () => {
    const { chat, server } = await start(weather);
    expect(await chat.say("Weather in Paris?")).toBeUndefined();
    expect(await threadsOf(server).load("no-such-thread")).toBeUndefined();
  });

  it("rejects with 'unreachable' when the server is gone", async () => {
    const { server: gone } = await start(weather);
    const threads = threadsOf(gone);
    await gone.close();
    server = undefined;
    const error = await threads.load("any").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgUiThreadServerError);
    expect(error).toMatchObject({ operation: "load", threadId: "any", problem: "unreachable" });
  });

  it("tells 'forbidden' (401/403), 'not-found' (404) and 'unreadable' (an event that does not parse) apart", async () => {
    const answering = (response: () => Response) => connectThreads(httpConnect({ url: "http://127.0.0.1:9/api/agent/a/connect", fetch: async () => response() }));
    await expect(answering(() => new Response("no", { status: 403 })).load("t")).rejects.toMatchObject({ problem: "forbidden", status: 403 });
    await expect(answering(() => new Response("no", { status: 401 })).load("t")).rejects.toMatchObject({ problem: "forbidden", status: 401 });
    await expect(answering(() => new Response("{}", { status: 404 })).load("t")).rejects.toMatchObject({ problem: "not-found", status: 404 });
    const sse = (body: string) => () => new Response(body, { headers: { "content-type": "text/event-stream" } });
    await expect(answering(sse('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\ndata: {not json\n\n')).load("t")).rejects.toMatchObject({ problem: "unreadable" });
    // And the same runtime, asked for an agent it does not have.
    const { server } = await start(weather);
    await expect(threadsOf({ ...server, url: server.url.replace("/assistant/", "/nobody/") }).load("t")).rejects.toMatchObject({ problem: "not-found", status: 404 });
  });

  it("gives a run still streaming as `running`: its whole answer once, then its end", async () => {
    const story = ["Once ", "upon ", "a ", "time ", "there ", "was ", "a ", "thread."];
    const { chat, server, threadId } = await start([{ text: ["Hello."] }, { text: story }], 300);
    expect(await chat.say("Hi")).toBeUndefined();
    const answered = chat.say("Tell me a story");
    // Part of the story has streamed when the thread is loaded.
    await waitUntil(() => chat.carbon.transcript().includes("upon"));

    const thread = await threadsOf(server).load(threadId());
    const view = replayed(thread);
    expect(thread?.running).toBeDefined();
    expect(thread?.stopRunning).toBeDefined();
    expect(view?.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "Hi"],
      ["assistant", "Hello."],
      ["user", "Tell me a story"],
    ]);
    const events = (await lastValueFrom(thread!.running!.pipe(toArray()))) as Event[];
    expect(events[0]?.type).toBe("RUN_STARTED");
    expect(events.at(-1)?.type).toBe("RUN_FINISHED");
    expect(events.filter((event) => event.type === "RUN_STARTED" || event.type === "RUN_FINISHED")).toHaveLength(2);
    const text = events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT").map((event) => event.delta as string);
    expect(text.join("")).toBe(story.join(""));
    expect(events.filter((event) => event.type === "TEXT_MESSAGE_START")).toHaveLength(1);
    expect(await answered).toBeUndefined();
    // A later subscription connects again and takes the same run, whole, from the runtime's record of it.
    const again = (await lastValueFrom(thread!.running!.pipe(toArray()))) as Event[];
    expect(again.map((event) => event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    expect(again.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(story.join(""));

    // Once it is over, the thread holds it, and nothing runs.
    const after = await threadsOf(server).load(threadId());
    expect(after?.running).toBeUndefined();
    expect(replayed(after)?.messages).toEqual(chat.adapter.messages);
  }, 30_000);

  it("stops the running run on the server with stopRunning", async () => {
    const story = ["One ", "two ", "three ", "four ", "five ", "six ", "seven ", "eight ", "nine ", "ten."];
    const { chat, server, threadId } = await start([{ text: story }], 300);
    const answered = chat.say("Count");
    await waitUntil(() => chat.carbon.transcript().includes("two"));
    const thread = await threadsOf(server).load(threadId());
    const events = lastValueFrom(thread!.running!.pipe(toArray()));
    await thread!.stopRunning!();
    const seen = (await events) as Event[];
    expect(["RUN_FINISHED", "RUN_ERROR"]).toContain(seen.at(-1)?.type);
    const text = seen.filter((event) => event.type === "TEXT_MESSAGE_CONTENT").map((event) => event.delta as string).join("");
    expect(text.length).toBeLessThan(story.join("").length);
    await answered;
  }, 30_000);
});
