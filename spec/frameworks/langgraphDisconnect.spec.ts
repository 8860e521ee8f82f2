/**
 * A page that goes away mid-answer (its connection to the LangGraph server cut, as a reload cuts it: no teardown of
 * ours runs) never ends the agent's run: `fromAgent` creates LangGraph runs with `onDisconnect: "continue"` (and
 * `streamResumable`), so the run finishes on the server, its answer whole on the thread, for the reload to rejoin or
 * restore. The story's pace is the test's (the story gate), not the machine's.
 */
import { randomUUID } from "node:crypto";
import type { BaseEvent } from "@ag-ui/core";
import { fromAgent } from "carbon-agui-rx";
import { createLangGraphAgent, langGraphClient, startLangGraphServer, type LangGraphServer } from "../../examples/frameworks/langgraph";
import { STORY } from "../../examples/frameworks/langgraphGraph";
import { startStoryGate, type StoryGate } from "../e2e/storyGate";
import { runInput, waitUntil } from "../support/runs";

let server: LangGraphServer;
let gate: StoryGate;
beforeAll(async () => {
  gate = await startStoryGate();
  // Read by the graph's story (the server's child process inherits it).
  process.env.CARBON_AGUI_STORY_GATE = gate.url;
  server = await startLangGraphServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await gate?.close();
  delete process.env.CARBON_AGUI_STORY_GATE;
});

/** A LangGraphAgent whose streams the test can cut, as a page going away cuts its connections; the bodies of the runs it streams. */
function cuttableAgent() {
  const streams = new Set<AbortController>();
  const bodies: Record<string, unknown>[] = [];
  const fetching = (url: RequestInfo | URL, init?: RequestInit) => {
    if (!String(url).includes("/stream")) return fetch(url, init);
    bodies.push(JSON.parse(String(init?.body ?? "{}")) as Record<string, unknown>);
    const controller = new AbortController();
    streams.add(controller);
    init?.signal?.addEventListener("abort", () => controller.abort(init.signal!.reason));
    return fetch(url, { ...init, signal: controller.signal });
  };
  return { agent: createLangGraphAgent(server.url, fetching as typeof fetch), bodies, cut: () => streams.forEach((controller) => controller.abort(new Error("the page went away"))) };
}

/** Streams "Tell me a story" with `forwardedProps`, cuts the connection once its text began, and reads how the run ended on the server. */
async function cutMidAnswer(forwardedProps: Record<string, unknown> = {}) {
  gate.hold();
  const { agent, bodies, cut } = cuttableAgent();
  const input = runInput({ threadId: randomUUID(), runId: randomUUID(), forwardedProps, messages: [{ id: "u1", role: "user", content: "Tell me a story" }] });
  const seen: BaseEvent[] = [];
  let failed: unknown;
  fromAgent(agent)(input, { signal: new AbortController().signal }).subscribe({ next: (event) => seen.push(event), error: (error: unknown) => (failed = error) });
  await waitUntil(() => seen.some((event) => event.type === "TEXT_MESSAGE_CONTENT"), 20_000);
  cut();
  await waitUntil(() => failed !== undefined, 10_000);
  gate.releaseAll();
  const client = langGraphClient(server.url);
  const statuses = async () => (await client.runs.list(input.threadId)).map((run) => run.status);
  await waitUntil(async () => !(await statuses()).some((status) => status === "running" || status === "pending"), 20_000, 100);
  const { values } = await client.threads.getState<{ messages?: { type: string; content: unknown }[] }>(input.threadId);
  return { body: bodies[0]!, statuses: await statuses(), messages: values.messages?.map((message) => `${message.type}: ${String(message.content)}`) };
}

describe("a LangGraph run whose page goes away (fromAgent, LangGraph's API server)", () => {
  it("goes on on the server to its end: created to continue on a disconnect, the answer whole on the thread", async () => {
    const { body, statuses, messages } = await cutMidAnswer();
    expect(body).toMatchObject({ on_disconnect: "continue", stream_resumable: true });
    expect(statuses).toEqual(["success"]);
    expect(messages).toEqual(["human: Tell me a story", `ai: ${STORY.join("")}`]);
  }, 60_000);

  it("is ended by the server when asked to cancel on a disconnect: what saying \"continue\" (not leaving it to a server's default) prevents", async () => {
    const { statuses, messages } = await cutMidAnswer({ onDisconnect: "cancel" });
    expect(statuses).toEqual(["interrupted"]);
    expect(messages).not.toContain(`ai: ${STORY.join("")}`);
  }, 60_000);
});
