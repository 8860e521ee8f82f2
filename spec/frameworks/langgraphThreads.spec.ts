import type { ServerThreadOfMessages } from "../../src/threads/agentThreads";
import type { BaseEvent, Message } from "@ag-ui/core";
import { firstValueFrom, lastValueFrom, tap, toArray, type Observable } from "rxjs";
import { fromAgent, type RunAgent } from "carbon-agui-rx";
import { AgUiThreadServerError } from "../../src/errors";
import { isLangGraphAgent, langGraphThreads } from "../../src/threads/langGraphThreads";
import { createLangGraphAgent, langGraphClient, startLangGraphServer, type LangGraphServer } from "../../examples/frameworks/langgraph";
import { STORY, type ConfirmedCall } from "../../examples/frameworks/langgraphGraph";
import { Chat } from "./partners";

// The LangGraph API server, with the graph of examples/frameworks/langgraphGraph.ts, in a child process for this file.
let server: LangGraphServer;
beforeAll(async () => {
  server = await startLangGraphServer();
}, 60_000);
afterAll(() => server?.close());

type Event = BaseEvent & Record<string, unknown>;

/** A chat through `fromAgent(LangGraphAgent)`, keeping the AG-UI events of each run. */
function recordingChat(): { chat: Chat; runs: Event[][] } {
  const runs: Event[][] = [];
  const run = fromAgent(createLangGraphAgent(server.url));
  const recording: RunAgent = (input, options) => {
    const events: Event[] = [];
    runs.push(events);
    return (run(input, options) as Observable<BaseEvent>).pipe(tap((event) => events.push(event as Event)));
  };
  return { chat: new Chat({ run: recording }), runs };
}

const lastOfType = (events: Event[], type: string) => [...events].reverse().find((event) => event.type === type);
const threads = () => langGraphThreads(createLangGraphAgent(server.url));
const client = () => langGraphClient(server.url);
const modes = ["events", "values", "updates", "messages-tuple"] as const;

/** A "story" run started on the server directly and left alone: nobody reads its stream. */
async function backgroundStory(streamResumable: boolean): Promise<{ threadId: string; runId: string }> {
  const { thread_id: threadId } = await client().threads.create();
  const run = await client().runs.create(threadId, "assistant", { input: { messages: [{ type: "human", content: "Tell me a story" }] }, streamMode: [...modes], streamResumable });
  // Until the model has streamed some of it: the join comes in the middle.
  for (let waited = 0; ; waited += 50) {
    const [latest] = await client().runs.list(threadId, { limit: 1 });
    if (latest?.status === "running" && waited >= 600) break;
    if (waited > 10_000) throw new Error(`The run did not start: ${latest?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { threadId, runId: run.run_id };
}

const textOf = (events: Event[]) =>
  events
    .filter((event) => event.type === "TEXT_MESSAGE_CONTENT")
    .map((event) => event.delta)
    .join("");

describe("langGraphThreads (a LangGraphAgent's threads, on the LangGraph API server)", () => {
  it("knows a LangGraphAgent by its client", () => {
    expect(isLangGraphAgent(createLangGraphAgent(server.url))).toBe(true);
    expect(isLangGraphAgent({ client: { threads: {} } })).toBe(false);
    expect(isLangGraphAgent(undefined)).toBe(false);
  });

  it("loads a thread as the last run ended it: its MESSAGES_SNAPSHOT, its state, its interrupt outcome, and a resume with that id reaches the node", async () => {
    const { chat, runs } = recordingChat();
    expect(await chat.say("Weather in Paris?")).toBeUndefined();
    expect(await chat.say("Delete my temp files")).toBeUndefined();
    const last = runs[runs.length - 1] ?? [];
    const snapshot = lastOfType(last, "MESSAGES_SNAPSHOT")?.messages as Message[];
    const state = lastOfType(last, "STATE_SNAPSHOT")?.snapshot as Record<string, unknown>;
    const outcome = lastOfType(last, "RUN_FINISHED")?.outcome as { type: string; interrupts: unknown[] };
    // What the runs gave: a tool call with its result, and one interrupt waiting.
    expect(snapshot.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant"]);
    expect(outcome.type).toBe("interrupt");
    expect(outcome.interrupts).toHaveLength(1);

    const thread = ((await threads().load(chat.adapter.threadId)) as ServerThreadOfMessages | undefined);
    expect(thread?.threadId).toBe(chat.adapter.threadId);
    expect(thread?.messages).toEqual(snapshot);
    expect(thread?.interrupts).toEqual(outcome.interrupts);
    expect(thread?.state).toEqual(state);
    expect(thread?.running).toBeUndefined();

    // A resume with the loaded interrupt's id reaches the waiting node, which finds its answer under that id.
    const [interrupt] = thread?.interrupts ?? [];
    const agent = createLangGraphAgent(server.url);
    const resume = agent
      .clone()
      .run({ threadId: chat.adapter.threadId, runId: "resume-1", messages: [...(thread?.messages ?? [])], tools: [], context: [], state: {}, forwardedProps: {}, resume: [{ interruptId: interrupt?.id as string, status: "resolved", payload: { approved: true } }] }) as unknown as Observable<BaseEvent>;
    const resumed = await lastValueFrom(resume.pipe(toArray()));
    expect(resumed.map((event) => event.type)).toContain("RUN_FINISHED");
    const { values } = await client().threads.getState<{ messages: { type: string; content: unknown }[] }>(chat.adapter.threadId);
    const confirmed = JSON.parse(String(values.messages.at(-2)?.content)) as ConfirmedCall;
    expect(confirmed).toEqual({ done: true, args: { pattern: "*.tmp" }, interruptId: interrupt?.id, received: { approved: true } });
    expect((((await threads().load(chat.adapter.threadId)) as ServerThreadOfMessages | undefined))?.interrupts).toEqual([]);
  }, 30_000);

  it("has no thread by an id the server does not know, nor by one that is no LangGraph thread id", async () => {
    expect(((await threads().load(crypto.randomUUID()) as ServerThreadOfMessages | undefined))).toBeUndefined();
    expect(((await threads().load("not-a-uuid")) as ServerThreadOfMessages | undefined)).toBeUndefined();
  });

  it("lists the thread, titled by its first message, and removes it", async () => {
    const { chat } = recordingChat();
    expect(await chat.say("  Hello   there,\nfriend  ")).toBeUndefined();
    const { updated_at: updatedAt } = await client().threads.get(chat.adapter.threadId);
    const listed = await threads().list?.();
    expect(listed?.find((summary) => summary.threadId === chat.adapter.threadId)).toEqual({ threadId: chat.adapter.threadId, title: "Hello there, friend", savedAt: new Date(updatedAt).toISOString() });
    const times = (listed ?? []).map((summary) => summary.savedAt);
    expect(times).toEqual([...times].sort().reverse());

    await threads().remove?.(chat.adapter.threadId);
    expect(((await threads().load(chat.adapter.threadId)) as ServerThreadOfMessages | undefined)).toBeUndefined();
    expect((await threads().list?.())?.map((summary) => summary.threadId)).not.toContain(chat.adapter.threadId);
    // Removing it again is fine: it is gone.
    await expect(threads().remove?.(chat.adapter.threadId)).resolves.toBeUndefined();
  }, 20_000);

  it("rejoins a run still going that kept its stream: its text from the start, once, live until RUN_FINISHED", async () => {
    const { threadId, runId } = await backgroundStory(true);
    const thread = ((await threads().load(threadId)) as ServerThreadOfMessages | undefined);
    expect(thread?.running).toBeDefined();
    const events = (await lastValueFrom((thread?.running as Observable<BaseEvent>).pipe(toArray()))) as Event[];
    expect(textOf(events)).toBe(STORY.join(""));
    expect(events.filter((event) => event.type === "TEXT_MESSAGE_START")).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "RUN_STARTED", threadId, runId });
    expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED", threadId, runId });
    expect(events.at(-1)?.outcome).toBeUndefined();
    // The live text's message is the one the thread keeps.
    const messageId = events.find((event) => event.type === "TEXT_MESSAGE_START")?.messageId;
    const after = ((await threads().load(threadId)) as ServerThreadOfMessages | undefined);
    expect(after?.messages.at(-1)).toEqual({ id: messageId, role: "assistant", content: STORY.join(""), toolCalls: [] });
    expect(after?.running).toBeUndefined();
  }, 20_000);

  it("gives a run still going that did not keep its stream at its end, as one snapshot (joining it would take events from its reader)", async () => {
    const { threadId, runId } = await backgroundStory(false);
    const thread = ((await threads().load(threadId)) as ServerThreadOfMessages | undefined);
    const events = (await lastValueFrom((thread?.running as Observable<BaseEvent>).pipe(toArray()))) as Event[];
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "STATE_SNAPSHOT", "MESSAGES_SNAPSHOT", "RUN_FINISHED"]);
    expect(events[0]).toMatchObject({ threadId, runId });
    expect((events[2]?.messages as Message[]).at(-1)).toMatchObject({ role: "assistant", content: STORY.join("") });
  }, 20_000);

  it("lets go of a rejoined run without stopping it, and stops it on stopRunning", async () => {
    const { threadId, runId } = await backgroundStory(true);
    const thread = ((await threads().load(threadId)) as ServerThreadOfMessages | undefined);
    // Let go after the first event: the run goes on.
    await firstValueFrom(thread?.running as Observable<BaseEvent>);
    const again = ((await threads().load(threadId)) as ServerThreadOfMessages | undefined);
    expect(again?.running).toBeDefined();
    await again?.stopRunning?.();
    for (let waited = 0; (await client().runs.get(threadId, runId)).status === "running"; waited += 50) {
      if (waited > 5_000) throw new Error("The run was not stopped");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await client().runs.get(threadId, runId)).status).toBe("interrupted");
    expect((((await threads().load(threadId)) as ServerThreadOfMessages | undefined))?.running).toBeUndefined();
  }, 20_000);

  // Last: it stops the server.
  it("rejects with an AgUiThreadServerError 'unreachable' when the server is gone", async () => {
    // A client that does not retry (the SDK's default retries a refused connection four times, with backoff: some 20 s).
    const agentThreads = langGraphThreads({ client: langGraphClient(server.url, { maxRetries: 0 }), graphId: "assistant" } as never);
    await server.close();
    const error = await agentThreads.load(crypto.randomUUID()).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AgUiThreadServerError);
    expect(error).toMatchObject({ operation: "load", problem: "unreachable", status: undefined });
    await expect(agentThreads.list?.()).rejects.toMatchObject({ operation: "list", problem: "unreachable" });
  }, 90_000);
});
