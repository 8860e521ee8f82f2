import type { Message } from "@ag-ui/core";
import { CarbonAgUiAdapter, fromAgent, type CarbonAgUiError } from "carbon-agui-rx";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import type { CarbonHistoryItem } from "../../src/persistence/restore";
import { createLangGraphAgent, langGraphClient, startLangGraphServer, type LangGraphServer } from "../../examples/frameworks/langgraph";
import { STORY, type ConfirmedCall } from "../../examples/frameworks/langgraphGraph";
import { Chat } from "./partners";
import { waitUntil } from "../support/runs";


// The LangGraph API server, with the graph of examples/frameworks/langgraphGraph.ts, in a child process for this file.
let server: LangGraphServer;
beforeAll(async () => {
  server = await startLangGraphServer();
}, 60_000);
afterAll(() => server?.close());

const client = () => langGraphClient(server.url);

/** Another device: an adapter on the same thread, with no store at all. */
function device(threadId: string) {
  const errors: CarbonAgUiError[] = [];
  const carbon = new CarbonRecorder();
  const adapter = new CarbonAgUiAdapter({ threadId, coalesce: false, run: fromAgent(createLangGraphAgent(server.url)), onError: (error) => errors.push(error) });
  return { adapter, carbon, errors };
}

const said = (history: CarbonHistoryItem[]) =>
  history.map(({ message }) => ("input" in message ? `You: ${message.input.text}` : message.output.generic.map((item) => item.text ?? `[${item.response_type}]`).join("")));

/** A LangChain message of the thread's state as role and words, and the decisions the confirming nodes got. */
async function serverThread(threadId: string) {
  const { values } = await client().threads.getState<{ messages?: Record<string, unknown>[] }>(threadId);
  const messages = values.messages ?? [];
  const received = messages.filter((message) => message.type === "tool" && String(message.content).includes('"interruptId"')).map((message) => JSON.parse(String(message.content)) as ConfirmedCall);
  return { ids: messages.map((message) => message.id), received };
}

describe("a LangGraph thread opened on another device (the adapter, LangGraph's API server)", () => {
  it("restores the turns, the tool step and the pending card with no store; the card's answer reaches the graph's interrupt()", async () => {
    const first = new Chat({ run: fromAgent(createLangGraphAgent(server.url)) });
    expect(await first.say("Weather in Paris?")).toBeUndefined();
    expect(await first.say("Delete my temp files")).toBeUndefined();
    const waiting = first.adapter.pendingInterrupts.map((entry) => entry.interrupt.id);
    expect(waiting).toHaveLength(1);

    const second = device(first.adapter.threadId);
    const history = await second.adapter.loadHistory(second.carbon);
    const lines = said(history);
    expect(lines[0]).toBe("You: Weather in Paris?");
    expect(lines).toContain("You: Delete my temp files");
    const weather = history.find(({ message }) => "output" in message && message.message_options?.chain_of_thought?.some((step: { tool_name?: string }) => step.tool_name === "get_weather"));
    expect(weather && "output" in weather.message && weather.message.message_options?.chain_of_thought?.map((step: { status?: string }) => step.status)).toEqual(["success"]);
    expect(lines.at(-1)).toContain("[user_defined]");
    expect(second.adapter.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(waiting);
    expect(second.adapter.messages.map((message: Message) => message.id)).toEqual((await serverThread(first.adapter.threadId)).ids);

    await second.adapter.respondToInterrupt({ type: "approve" }, second.carbon);
    const { received } = await serverThread(first.adapter.threadId);
    expect(received.map((call) => [call.interruptId, call.done])).toEqual([[waiting[0], true]]);
    expect(second.adapter.pendingInterrupts).toEqual([]);
    expect(second.errors).toEqual([]);
  }, 60_000);

  it("rejoins a run a page left while it streamed: the whole answer shows once, and the stop button stops it on the server", async () => {
    // The page that asked went away mid-answer: its run goes on, its stream kept (as fromAgent creates LangGraph runs).
    const story = async () => {
      const { thread_id: threadId } = await client().threads.create({ metadata: { graph_id: "assistant" } });
      const run = await client().runs.create(threadId, "assistant", { input: { messages: [{ id: "u-story", type: "human", content: "Tell me a story" }] }, streamMode: ["events", "values", "updates", "messages-tuple"], streamResumable: true });
      await waitUntil(async () => (await client().runs.get(threadId, run.run_id)).status === "running", 10_000, 50);
      return { threadId, runId: run.run_id };
    };
    const left = await story();
    const reloaded = device(left.threadId);
    const history = await reloaded.adapter.loadHistory(reloaded.carbon);
    expect(said(history)).toEqual(["You: Tell me a story"]);
    await waitUntil(() => reloaded.carbon.transcript().includes("stop.") && reloaded.carbon.waitingForFinal.length === 0, 30_000, 50);
    expect(reloaded.carbon.transcript()).toBe(`Assistant: ${STORY.join("")}`);
    expect(reloaded.errors).toEqual([]);

    const stopped = await story();
    const other = device(stopped.threadId);
    await other.adapter.loadHistory(other.carbon);
    await waitUntil(() => other.carbon.chunks.length > 0, 30_000, 50);
    await other.carbon.pressStop();
    await waitUntil(async () => (await client().runs.get(stopped.threadId, stopped.runId)).status === "interrupted", 10_000, 50);
    await waitUntil(() => other.carbon.waitingForFinal.length === 0, 10_000, 50);
  }, 90_000);

  it("lists the server's threads, titled by their first message, the same on any device", async () => {
    const first = new Chat({ run: fromAgent(createLangGraphAgent(server.url)) });
    expect(await first.say("Hello from the laptop")).toBeUndefined();
    const listed = await device("any").adapter.listThreads();
    expect(listed.find((thread) => thread.threadId === first.adapter.threadId)?.title).toBe("Hello from the laptop");
  }, 60_000);
});
