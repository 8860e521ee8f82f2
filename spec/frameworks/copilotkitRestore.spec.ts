import { CarbonAgUiAdapter, connectThreads, createSseRunner, httpConnect, type CarbonAgUiError } from "carbon-agui-rx";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import type { CarbonHistoryItem } from "../../src/persistence/restore";
import { copilotKitConnectUrl, createCopilotKitAgent, serveCopilotKit, stoppingCopilotKitRuns, type RunningServer } from "../../examples/frameworks/copilotkit";
import { scriptedModel, type ModelScript } from "../../examples/frameworks/scriptedModel";
import { Chat } from "./partners";
import { waitUntil } from "../support/runs";

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


/** The adapter as a page on CopilotKit's runtime makes it: runs over SSE, the thread from the runtime's connect route. */
function options(url: string) {
  return { coalesce: false as const, run: stoppingCopilotKitRuns(createSseRunner({ url }), url), threads: connectThreads(httpConnect({ url: copilotKitConnectUrl(url) })) };
}

/** Another device on the same thread, with no store. */
function device(url: string, threadId: string) {
  const errors: CarbonAgUiError[] = [];
  const adapter = new CarbonAgUiAdapter({ ...options(url), threadId, onError: (error) => errors.push(error) });
  return { adapter, carbon: new CarbonRecorder(), errors };
}

const said = (history: CarbonHistoryItem[]) =>
  history.map(({ message }) => ("input" in message ? `You: ${message.input.text}` : message.output.generic.map((item) => item.text ?? `[${item.response_type}]`).join("")));

describe("a CopilotKit thread opened on another device (the adapter, CopilotKit's runtime and its connect route)", () => {
  it("restores the turns, the tool step and the pending card with no store, and the card's answer goes on with the thread", async () => {
    const script: ModelScript = [
      { text: ["Let me check."], toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Paris" } }] },
      { text: ["It is sunny in Paris."] },
      { text: ["I need your approval."], toolCalls: [{ id: "c2", name: "delete_files", args: { pattern: "*.tmp" } }] },
      { text: ["Deleted."] },
    ];
    server = await serveCopilotKit(createCopilotKitAgent(scriptedModel(script)));
    const first = new Chat(options(server.url));
    expect(await first.say("Weather in Paris?")).toBeUndefined();
    expect(await first.say("Delete my temp files")).toBeUndefined();
    const waiting = first.adapter.pendingInterrupts.map((entry) => entry.interrupt.id);
    expect(waiting).toHaveLength(1);

    const second = device(server.url, first.adapter.threadId);
    const history = await second.adapter.loadHistory(second.carbon);
    expect(said(history)).toEqual(["You: Weather in Paris?", "Let me check.It is sunny in Paris.", "You: Delete my temp files", "I need your approval.[user_defined]"]);
    const steps = history.flatMap(({ message }) => ("output" in message ? (message.message_options?.chain_of_thought ?? []) : [])).map((step) => [step.tool_name, step.status]);
    expect(steps[0]).toEqual(["get_weather", "success"]);
    expect(second.adapter.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(waiting);
    expect(second.adapter.messages).toEqual(first.adapter.messages);

    await second.adapter.respondToInterrupt({ type: "approve" }, second.carbon);
    expect(second.carbon.transcript()).toBe("Assistant: Deleted.");
    expect(second.adapter.pendingInterrupts).toEqual([]);
    expect(second.errors).toEqual([]);
  });

  it("rejoins a run still streaming when the page is opened again: the whole answer once", async () => {
    const story = ["Once ", "upon ", "a ", "time ", "there ", "was ", "a ", "runtime."];
    server = await serveCopilotKit(createCopilotKitAgent(scriptedModel([{ text: story }], { pauseMs: 300 })));
    const first = new Chat(options(server.url));
    // The first page goes away mid-answer without stopping the run (a reload): it just stops listening.
    const asking = first.say("Tell me a story");
    await waitUntil(() => first.carbon.chunks.length > 0, 10_000, 20);

    const reloaded = device(server.url, first.adapter.threadId);
    const history = await reloaded.adapter.loadHistory(reloaded.carbon);
    expect(said(history)).toEqual(["You: Tell me a story"]);
    await waitUntil(() => reloaded.carbon.waitingForFinal.length === 0 && reloaded.carbon.transcript().includes("runtime."), 20_000, 20);
    expect(reloaded.carbon.transcript()).toBe(`Assistant: ${story.join("")}`);
    expect(reloaded.errors).toEqual([]);
    await asking;
  });
});
