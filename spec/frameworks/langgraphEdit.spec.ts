/**
 * Editing a question on the real LangGraph API server (the graph of examples/frameworks/langgraphGraph.ts): an edit
 * forks the thread at the checkpoint before the question, so the server's state holds the edited branch and another
 * device with no store shows it; switching back moves the server's thread to the first branch, and the next question
 * builds on it there. Through the adapter's LangGraph threads and through the demo's HTTP thread API.
 */
import { fromAgent, type CarbonAgUiError } from "carbon-agui-rx";
import { firstValueFrom } from "rxjs";
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

/** Carbon's id of the question the branch shows at `index`. */
const questionAt = async (chat: Chat, index: number) => (await firstValueFrom(chat.adapter.questionVersions$))[index]!.requestId;

describe("editing a question on a LangGraph thread (the adapter, LangGraph's API server)", () => {
  it("forks the thread before the question; another device shows the edited branch; switching back moves the server's thread", async () => {
    const errors: CarbonAgUiError[] = [];
    const chat = new Chat({ run: fromAgent(createLangGraphAgent(server.url)), coalesce: false, editQuestions: true, onError: (error) => errors.push(error) });
    expect(await chat.say("Please suggest a name for my cat")).toBeUndefined();
    expect(await chat.say("Thanks")).toBeUndefined();
    const { threadId } = chat.adapter;
    const cat = ["human: Please suggest a name for my cat", `ai: How about ${GRAPH_NAMES[0]}?`];

    await chat.adapter.editQuestion("u2", "Thank you", chat.carbon);
    expect(await onServer(threadId)).toEqual([...cat, "human: Thank you", "ai: You said: Thank you"]);
    expect(await anotherDevice(threadId)).toEqual(["You: Please suggest a name for my cat", `How about ${GRAPH_NAMES[0]}?`, "You: Thank you", "You said: Thank you"]);

    await chat.adapter.switchQuestion(0, await questionAt(chat, 1), chat.carbon);
    expect(await onServer(threadId)).toEqual([...cat, "human: Thanks", "ai: You said: Thanks"]);
    expect(await anotherDevice(threadId)).toEqual(["You: Please suggest a name for my cat", `How about ${GRAPH_NAMES[0]}?`, "You: Thanks", "You said: Thanks"]);

    expect(await chat.say("Bye")).toBeUndefined();
    expect(await onServer(threadId)).toEqual([...cat, "human: Thanks", "ai: You said: Thanks", "human: Bye", "ai: You said: Bye"]);

    // The thread's first question, edited: the server's thread starts over from it.
    await chat.adapter.editQuestion("u1", "Hello", chat.carbon);
    expect(await onServer(threadId)).toEqual(["human: Hello", "ai: You said: Hello"]);
    expect(chat.carbon.transcript()).toBe("You: Hello\nAssistant: You said: Hello");
    expect(errors).toEqual([]);
  }, 90_000);

  it("does the same through the demo's HTTP thread API (serveAgent's fork, head and move routes, the page's httpThreads)", async () => {
    await throughDemoThreadApi(server.url, { editQuestions: true }, async (chat) => {
    expect(await chat.say("Hi")).toBeUndefined();
    const { threadId } = chat.adapter;
    await chat.adapter.editQuestion("u1", "Hi there", chat.carbon);
    expect(await onServer(threadId)).toEqual(["human: Hi there", "ai: You said: Hi there"]);
    await chat.adapter.switchQuestion(0, await questionAt(chat, 0), chat.carbon);
    expect(await onServer(threadId)).toEqual(["human: Hi", "ai: You said: Hi"]);
    });
  }, 90_000);
});
