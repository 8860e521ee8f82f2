/**
 * A LangGraph supervisor with two workers (`@langchain/langgraph-supervisor`, examples/frameworks/langgraphTeam.ts)
 * on LangGraph's API server, through `@ag-ui/langgraph` and `fromAgent`: each worker's work is a step of its own, the
 * supervisor's words are the answer; the history the next run sends holds what the graph made, no more; `hidden` and
 * `inline` as the Python bridge's `subagent_visibility` has them.
 */
import type { RunAgentInput } from "@ag-ui/core";
import { fromAgent, type CarbonAgUiError, type CarbonChainOfThoughtStep, type SubagentVisibility } from "carbon-agui-rx";
import { createLangGraphAgent, langGraphClient, startLangGraphServer, type LangGraphGraph, type LangGraphServer } from "../../examples/frameworks/langgraph";
import { RESEARCH } from "../../examples/frameworks/langgraphSubgraph";
import { waitUntil } from "../support/runs";
import { replayServerThread } from "../support/threads";
import { Chat } from "./partners";

let server: LangGraphServer;
beforeAll(async () => {
  server = await startLangGraphServer();
}, 60_000);
afterAll(() => server?.close());

function teamChat(subagentVisibility?: SubagentVisibility, graph: LangGraphGraph = "team", fetching?: typeof fetch) {
  const errors: CarbonAgUiError[] = [];
  const inputs: RunAgentInput[] = [];
  const run = fromAgent(createLangGraphAgent(server.url, fetching, graph), { ...(subagentVisibility && { subagentVisibility }) });
  const chat = new Chat({ run: (input, options) => (inputs.push(input), run(input, options)), coalesce: false, onError: (error) => errors.push(error) });
  return { chat, errors, inputs };
}

/**
 * A fetch for the LangGraph SDK that, once armed, takes a run's stream whole before handing it on: the run is over on
 * the server before the bridge sees its first event, as when the server runs ahead of a slow page. It counts the
 * state reads made after (the bridge reads the state as the run goes on, at a subgraph's first event).
 */
function serverAhead() {
  let armed = false;
  let streamed = false;
  let reads = 0;
  const fetching: typeof fetch = async (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    if (streamed && path.endsWith("/state")) reads++;
    const response = await fetch(input, init);
    if (!armed || !path.endsWith("/runs/stream")) return response;
    const whole = await response.arrayBuffer();
    streamed = true;
    return new Response(whole, { status: response.status, headers: response.headers });
  };
  return { fetching, arm: () => void (armed = true), readsAfterTheRun: () => reads };
}

describe("a LangGraph supervisor and its workers (fromAgent, LangGraph's API server)", () => {
  it("shows each worker as a step of its own, its call under it, and the supervisor's words as the answer", async () => {
    const { chat, errors, inputs } = teamChat();
    expect(await chat.say("Why are there tides?")).toBeUndefined();
    expect(chat.carbon.transcript()).toBe(
      "You: Why are there tides?\nAssistant: Final answer: the moon's pull makes the tides.\n  How did I get this answer? Handing off to researcher (success), researcher (success), researcher: search (success), Handing off to writer (success), writer (success)",
    );
    // Carbon labels a step's tool_name "Tool": the handoff says what it is in its title, the worker's step in its description.
    const final = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : [])).at(-1)!;
    expect(final.message_options!.chain_of_thought!.map(({ title, tool_name, description }) => [title, tool_name, description])).toEqual([
      ["Handing off to researcher", "transfer_to_researcher", undefined],
      ["researcher", "researcher", "Worker"],
      ["researcher: search", "search", undefined],
      ["Handing off to writer", "transfer_to_writer", undefined],
      ["writer", "writer", "Worker"],
    ]);
    // The next turn: the handoff the bridge announces again is the call already known, and the history is the graph's.
    expect(await chat.say("Why twice a day?")).toBeUndefined();
    const { values } = await langGraphClient(server.url).threads.getState<{ messages?: { id?: string }[] }>(chat.adapter.threadId);
    const sent = inputs[1]!.messages.map((message) => message.id);
    expect(sent.slice(0, -1).every((id) => values.messages!.some((message) => message.id === id))).toBe(true);
    expect(chat.carbon.transcript().split("Assistant: ").slice(1).map((answer) => answer.split("\n")[0])).toEqual(["Final answer: the moon's pull makes the tides.", "Final answer: the moon's pull makes the tides."]);
    expect(errors).toEqual([]);
  }, 60_000);

  it("keeps the history @ag-ui/client's own runAgent keeps of the same team's run: the attribution adds who spoke, no message", async () => {
    const { chat, errors } = teamChat();
    expect(await chat.say("Why are there tides?")).toBeUndefined();
    const oracle = createLangGraphAgent(server.url, undefined, "team");
    oracle.setMessages([{ id: "u1", role: "user", content: "Why are there tides?" }]);
    await oracle.runAgent();
    type Said = { role: string; content?: unknown; toolCalls?: { function: { name: string; arguments: string } }[]; toolCallId?: string };
    const shape = (messages: readonly Said[]) => {
      const names = new Map(messages.flatMap((message) => message.toolCalls?.map((call) => [(call as { id?: string }).id, call.function.name] as const) ?? []));
      return messages.map((message) => (message.role === "tool" ? `tool ${names.get(message.toolCallId)}: ${String(message.content)}` : message.toolCalls?.length ? `${message.role} calls ${message.toolCalls.map((call) => call.function.name).join(", ")}` : `${message.role}: ${String(message.content)}`));
    };
    expect(shape(chat.adapter.messages as unknown as Said[])).toEqual(shape(oracle.messages as unknown as Said[]));
    expect(shape(oracle.messages as unknown as Said[])).toEqual(expect.arrayContaining(["tool transfer_to_writer: Successfully transferred to writer", "assistant: Draft: tides rise and fall twice a day.", "assistant: Final answer: the moon's pull makes the tides."]));
    expect(errors).toEqual([]);
  }, 60_000);

  it("shows a worker whose tool throws with its call failed under it and its words in its step; the supervisor answers", async () => {
    const { chat, errors } = teamChat();
    expect(await chat.say("Why are there tides? Please fact-check it.")).toBeUndefined();
    expect(chat.carbon.transcript()).toBe(
      "You: Why are there tides? Please fact-check it.\nAssistant: Final answer: the moon's pull makes the tides.\n  How did I get this answer? Handing off to researcher (success), researcher (success), researcher: search (success), Handing off to writer (success), writer (success), writer: check_facts (failure)",
    );
    const final = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : [])).at(-1)!;
    const [, , , , writer, check] = final.message_options!.chain_of_thought!;
    expect(writer!.response).toEqual({ content: "I could not check the draft: the fact-checker failed." });
    // LangGraph streams no result for a tool that throws, and the supervisor's state keeps only the writer's last words.
    expect(check!.response).toEqual({ content: "The tool call ended without a result" });
    expect(errors).toEqual([]);
  }, 60_000);

  it("restores a supervisor's thread from the server with each handoff and worker's step as live showed them (the worker's words, not its calls, which the server does not keep)", async () => {
    const { chat, errors } = teamChat();
    expect(await chat.say("Why are there tides?")).toBeUndefined();
    const live = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : [])).at(-1)!;
    const thread = await fromAgent(createLangGraphAgent(server.url, undefined, "team")).threads!.load(chat.adapter.threadId);
    const [restored] = replayServerThread(thread!).responses;
    const read = (steps: CarbonChainOfThoughtStep[] = []) => steps.map(({ title, tool_name, status, response }) => [title ?? tool_name, status, response?.content]);
    // The supervisor's state keeps each worker's last words only (createSupervisor's outputMode "last_message"): not the researcher's search.
    expect(read(restored!.message_options?.chain_of_thought)).toEqual(read(live.message_options?.chain_of_thought).filter(([title]) => title !== "researcher: search"));
    expect(read(restored!.message_options?.chain_of_thought).map(([title]) => title)).toEqual(["Handing off to researcher", "researcher", "Handing off to writer", "writer"]);
    expect(restored!.output.generic.map((item) => item.text).filter(Boolean)).toEqual(["Final answer: the moon's pull makes the tides."]);
    expect(errors).toEqual([]);
  }, 60_000);

  it("shows the same turn when the server runs ahead of the page: the state the bridge reads holds the whole turn", async () => {
    const ahead = serverAhead();
    ahead.arm();
    const { chat, errors } = teamChat(undefined, "team", ahead.fetching);
    expect(await chat.say("Why are there tides?")).toBeUndefined();
    expect(ahead.readsAfterTheRun()).toBeGreaterThan(0);
    expect(chat.carbon.transcript()).toBe(
      "You: Why are there tides?\nAssistant: Final answer: the moon's pull makes the tides.\n  How did I get this answer? Handing off to researcher (success), researcher (success), researcher: search (success), Handing off to writer (success), writer (success)",
    );
    expect(errors).toEqual([]);
  }, 60_000);

  it("goes on in the worker after an approval even when the bridge reads the state only once the worker has handed back (the race a fast server makes, forced)", async () => {
    // The resume's stream is taken whole before the bridge sees any of it, so the run is over on the server when the
    // bridge reads the state (it reads it as the run goes on, at a subgraph's first event): the state then holds the
    // cleaner's handoff back, as it does when the server runs ahead of a slow page.
    const ahead = serverAhead();
    const { chat, errors } = teamChat(undefined, "ops", ahead.fetching);
    expect(await chat.say("Please delete my temp files")).toBeUndefined();
    ahead.arm();
    expect(await chat.decide("approve")).toBeUndefined();
    await waitUntil(() => chat.carbon.transcript().includes("Final answer") && chat.carbon.waitingForFinal.length === 0, 30_000);
    expect(ahead.readsAfterTheRun()).toBeGreaterThan(0);
    expect(chat.carbon.transcript().split("\nAssistant: ").at(-1)).toBe("Final answer: your temp files are taken care of.\n  How did I get this answer? cleaner (success), cleaner: delete_files (success)");
    expect(errors).toEqual([]);
  }, 60_000);

  it("hides the workers' words and calls when hidden, their steps kept", async () => {
    const { chat, errors } = teamChat("hidden");
    expect(await chat.say("Why are there tides?")).toBeUndefined();
    expect(chat.carbon.transcript()).toBe("You: Why are there tides?\nAssistant: Final answer: the moon's pull makes the tides.\n  How did I get this answer? Handing off to researcher (success), researcher (success), Handing off to writer (success), writer (success)");
    // Read back from the server, the same: the workers' steps without their words.
    const live = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : [])).at(-1)!;
    const thread = await fromAgent(createLangGraphAgent(server.url, undefined, "team"), { subagentVisibility: "hidden" }).threads!.load(chat.adapter.threadId);
    const [restored] = replayServerThread(thread!).responses;
    const read = (steps: CarbonChainOfThoughtStep[] = []) => steps.map(({ title, tool_name, response }) => [title ?? tool_name, response?.content]);
    expect(read(restored!.message_options?.chain_of_thought)).toEqual(read(live.message_options?.chain_of_thought));
    expect(errors).toEqual([]);
  }, 60_000);

  it("shows the stream as the bridge sends it when inline: the workers' notes in the answer", async () => {
    const { chat, errors } = teamChat("inline");
    expect(await chat.say("Why are there tides?")).toBeUndefined();
    expect(chat.carbon.transcript()).toContain("Research notes: the moon pulls the sea.");
    expect(chat.carbon.transcript()).toContain("Transferring back to supervisor");
    expect(errors).toEqual([]);
  }, 60_000);

  it("passes a swarm as it is: the conversation handed to Bob, whose words are the answer", async () => {
    const { chat, errors } = teamChat(undefined, "swarm");
    expect(await chat.say("Why are there tides?")).toBeUndefined();
    expect(chat.carbon.transcript()).toBe("You: Why are there tides?\nAssistant: Bob here: the tides follow the moon.\n  How did I get this answer? transfer_to_bob (success)");
    expect(errors).toEqual([]);
  }, 60_000);

  it("names the worker that asks on its card, its steps waiting without spinning; approved, the worker goes on in its own step and nothing it said shows again", async () => {
    const { chat, errors } = teamChat(undefined, "ops");
    expect(await chat.say("Please delete my temp files")).toBeUndefined();
    expect(chat.carbon.transcript()).toBe(
      "You: Please delete my temp files\nAssistant: [decision card from cleaner: Delete the files matching *.tmp?]\n  How did I get this answer? Handing off to cleaner (success), cleaner (success), cleaner: delete_files (success)",
    );
    // The run ended on the interrupt: its message cannot change, so the steps it holds wait without spinning.
    const asked = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response.message_options?.chain_of_thought ?? []] : [])).at(-1)!;
    expect(asked.map(({ title, tool_name, description }) => [title ?? tool_name, description])).toEqual([
      ["Handing off to cleaner", undefined],
      ["cleaner", "Waiting for an answer"],
      ["cleaner: delete_files", "Waiting for a decision"],
    ]);
    // Read back from the server (a reload, another device), the card still names the worker that asks.
    const waiting = await fromAgent(createLangGraphAgent(server.url, undefined, "ops")).threads!.load(chat.adapter.threadId);
    const [restored] = replayServerThread(waiting!).responses;
    expect(restored!.output.generic.flatMap((item) => (item.response_type === "user_defined" ? [item.user_defined] : []))).toEqual([expect.objectContaining({ kind: "interrupt", subagent: "cleaner" })]);
    expect(await chat.decide("approve")).toBeUndefined();
    await waitUntil(() => chat.carbon.transcript().includes("Final answer") && chat.carbon.waitingForFinal.length === 0, 30_000);
    // The resume begins inside the cleaner (its tool), before the supervisor speaks: the cleaner's words are its step's, the supervisor's the answer.
    expect(chat.carbon.transcript().split("\nAssistant: ").at(-1)).toBe("Final answer: your temp files are taken care of.\n  How did I get this answer? cleaner (success), cleaner: delete_files (success)");
    const said = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? (chunk.final_response.message_options?.chain_of_thought ?? []).map((step) => String(step.response?.content ?? "")) : []));
    expect(said.filter((words) => words === "I will delete the temp files.")).toHaveLength(1);
    expect(said.filter((words) => words === "Cleaned up: the temp files are gone.")).toHaveLength(1);
    expect(errors).toEqual([]);
  }, 60_000);
});

describe("a graph calling a streaming subgraph that asks the person halfway (LangGraph's API server)", () => {
  type Said = { role: string; content?: unknown };
  const said = (messages: readonly Said[]) => messages.map((message) => `${message.role}: ${String(message.content)}`);

  it("shows what the subgraph said once: the card, then after the approval only what is new, though LangGraph runs the asking node again; the history is @ag-ui/client's and the thread's", async () => {
    const { chat, errors, inputs } = teamChat(undefined, "research");
    expect(await chat.say("Why are there tides?")).toBeUndefined();
    expect(chat.carbon.transcript()).toBe(`You: Why are there tides?\nAssistant: ${RESEARCH.gathered.join("")}\n${RESEARCH.archive.join("")}\n[decision card: ${RESEARCH.ask}]`);
    expect(await chat.decide("approve")).toBeUndefined();
    await waitUntil(() => chat.carbon.transcript().includes("Final answer") && chat.carbon.waitingForFinal.length === 0, 30_000);
    // The resume streams the archive's words again (the node runs from its start): the person saw them, they are not shown again.
    expect(chat.carbon.transcript().split("\nAssistant: ").at(-1)).toBe(`${RESEARCH.read}\n${RESEARCH.answer.join("")}`);
    // @ag-ui/client's runAgent on the same graph, the same question and the same answer, keeps the same history.
    const oracle = createLangGraphAgent(server.url, undefined, "research");
    oracle.setMessages([{ id: "u1", role: "user", content: "Why are there tides?" }]);
    await oracle.runAgent();
    await oracle.runAgent({ resume: oracle.pendingInterrupts.map(({ id }) => ({ interruptId: id, status: "resolved" as const, payload: { approved: true } })) });
    expect(said(chat.adapter.messages as readonly Said[])).toEqual(said(oracle.messages as readonly Said[]));
    // The thread holds each message once, and so does the next run's input.
    const thread = async () => (await langGraphClient(server.url).threads.getState<{ messages?: { type: string; content: unknown }[] }>(chat.adapter.threadId)).values.messages ?? [];
    const words = [RESEARCH.gathered.join(""), RESEARCH.archive.join(""), RESEARCH.read, RESEARCH.answer.join("")];
    expect((await thread()).map((message) => message.content)).toEqual(["Why are there tides?", ...words]);
    expect(await chat.say("Thanks")).toBeUndefined();
    expect(inputs.at(-1)!.messages.map((message) => message.content).sort()).toEqual(["Thanks", "Why are there tides?", ...words].sort());
    expect((await thread()).map((message) => message.content).slice(0, 5)).toEqual(["Why are there tides?", ...words]);
    expect(errors).toEqual([]);
  }, 60_000);
});
