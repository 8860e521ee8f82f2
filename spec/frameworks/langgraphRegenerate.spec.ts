/**
 * Regenerate and versions on the real LangGraph API server (the graph of examples/frameworks/langgraphGraph.ts, whose
 * scripted model suggests the next name each time a question is answered again): a regenerate forks the thread
 * before the answer, so the server's state holds the new answer only and another device with no store shows it;
 * switching versions moves the server's thread to the chosen branch, and the next question builds on it there.
 */
import { CarbonAgUiAdapter, fromAgent, type CarbonAgUiError } from "carbon-agui-rx";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import type { CarbonHistoryItem } from "../../src/persistence/restore";
import { createLangGraphAgent, langGraphClient, startLangGraphServer, type LangGraphServer } from "../../examples/frameworks/langgraph";
import { GRAPH_NAMES } from "../../examples/frameworks/langgraphGraph";
import { Chat } from "./partners";
import { serveAgent } from "../../examples/frameworks/serveAgent";
import { httpThreads } from "../../examples/web/httpThreads";
import { createSseRunner } from "../../src/runners/createSseRunner";

let server: LangGraphServer;
beforeAll(async () => {
  server = await startLangGraphServer();
}, 60_000);
afterAll(() => server?.close());

/** What the thread's state on the server holds: its messages as type and words. */
async function onServer(threadId: string): Promise<string[]> {
  const { values } = await langGraphClient(server.url).threads.getState<{ messages?: { type: string; content: unknown }[] }>(threadId);
  return (values.messages ?? []).map((message) => `${message.type}: ${typeof message.content === "string" ? message.content : JSON.stringify(message.content)}`);
}

/** Another device on the thread, with no store: what its chat shows. */
async function anotherDevice(threadId: string): Promise<string[]> {
  const errors: CarbonAgUiError[] = [];
  const adapter = new CarbonAgUiAdapter({ threadId, coalesce: false, run: fromAgent(createLangGraphAgent(server.url)), onError: (error) => errors.push(error) });
  const history: CarbonHistoryItem[] = await adapter.loadHistory(new CarbonRecorder());
  expect(errors).toEqual([]);
  return history.map(({ message }) => ("input" in message ? `You: ${message.input.text}` : message.output.generic.map((item) => item.text ?? "").join("")));
}

describe("regenerate on a LangGraph thread (the adapter, LangGraph's API server)", () => {
  it("forks the thread before the answer; another device shows the new one; switching versions moves the server's thread", async () => {
    const errors: CarbonAgUiError[] = [];
    const chat = new Chat({ run: fromAgent(createLangGraphAgent(server.url)), coalesce: false, answerVersions: true, onError: (error) => errors.push(error) });
    expect(await chat.say("Please suggest a name for my cat")).toBeUndefined();
    const { threadId } = chat.adapter;
    expect(await onServer(threadId)).toEqual(["human: Please suggest a name for my cat", `ai: How about ${GRAPH_NAMES[0]}?`]);

    await chat.adapter.regenerate(chat.carbon);
    expect(await onServer(threadId)).toEqual(["human: Please suggest a name for my cat", `ai: How about ${GRAPH_NAMES[1]}?`]);
    expect(await anotherDevice(threadId)).toEqual(["You: Please suggest a name for my cat", `How about ${GRAPH_NAMES[1]}?`]);

    await chat.adapter.switchVersion(0, chat.carbon);
    expect(await onServer(threadId)).toEqual(["human: Please suggest a name for my cat", `ai: How about ${GRAPH_NAMES[0]}?`]);
    expect(await anotherDevice(threadId)).toEqual(["You: Please suggest a name for my cat", `How about ${GRAPH_NAMES[0]}?`]);

    expect(await chat.say("Thanks")).toBeUndefined();
    expect(await onServer(threadId)).toEqual(["human: Please suggest a name for my cat", `ai: How about ${GRAPH_NAMES[0]}?`, "human: Thanks", "ai: You said: Thanks"]);
    expect(errors).toEqual([]);
  }, 90_000);

  it("does the same through the demo's HTTP thread API (serveAgent's fork, head and move routes, the page's httpThreads)", async () => {
    const endpoint = await serveAgent(createLangGraphAgent(server.url));
    try {
      const errors: CarbonAgUiError[] = [];
      const chat = new Chat({ run: createSseRunner({ url: endpoint.url }), threads: httpThreads({ url: endpoint.url }), coalesce: false, answerVersions: true, onError: (error) => errors.push(error) });
      expect(await chat.say("Please suggest a name for my dog")).toBeUndefined();
      const { threadId } = chat.adapter;
      await chat.adapter.regenerate(chat.carbon);
      expect(await onServer(threadId)).toEqual(["human: Please suggest a name for my dog", `ai: How about ${GRAPH_NAMES[1]}?`]);
      await chat.adapter.switchVersion(0, chat.carbon);
      expect(await onServer(threadId)).toEqual(["human: Please suggest a name for my dog", `ai: How about ${GRAPH_NAMES[0]}?`]);
      expect(errors).toEqual([]);
    } finally {
      await endpoint.close();
    }
  }, 90_000);
});
