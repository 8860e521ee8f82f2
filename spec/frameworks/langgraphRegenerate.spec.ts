/**
 * Regenerate and versions on the real LangGraph API server (the graph of examples/frameworks/langgraphGraph.ts, whose
 * scripted model suggests the next name each time a question is answered again): a regenerate forks the thread
 * before the answer, so the server's state holds the new answer only and another device with no store shows it;
 * switching versions moves the server's thread to the chosen branch, and the next question builds on it there.
 */
import { fromAgent, type CarbonAgUiError } from "carbon-agui-rx";
import { createLangGraphAgent, startLangGraphServer, type LangGraphServer } from "../../examples/frameworks/langgraph";
import { anotherDevice as deviceOn, onServer as stateOn, throughDemoThreadApi } from "./langgraphServerThread";
import { GRAPH_NAMES } from "../../examples/frameworks/langgraphGraph";
import { Chat } from "./partners";

let server: LangGraphServer;
beforeAll(async () => {
  server = await startLangGraphServer();
}, 60_000);
afterAll(() => server?.close());
const onServer = (threadId: string) => stateOn(server.url, threadId);
const anotherDevice = (threadId: string) => deviceOn(server.url, threadId);

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
    await throughDemoThreadApi(server.url, { answerVersions: true }, async (chat) => {
    expect(await chat.say("Please suggest a name for my dog")).toBeUndefined();
    const { threadId } = chat.adapter;
    await chat.adapter.regenerate(chat.carbon);
    expect(await onServer(threadId)).toEqual(["human: Please suggest a name for my dog", `ai: How about ${GRAPH_NAMES[1]}?`]);
    await chat.adapter.switchVersion(0, chat.carbon);
    expect(await onServer(threadId)).toEqual(["human: Please suggest a name for my dog", `ai: How about ${GRAPH_NAMES[0]}?`]);
    });
  }, 90_000);
});
