import type { BaseEvent, Interrupt, Message } from "@ag-ui/core";
import { SUPERVISOR, supervisorRun } from "../../examples/supervisor";
import { NEVER } from "rxjs";
import { turnsOf } from "../../src/threads/serverLog";
import { replayServerThread } from "../support/threads";

const replay = (messages: Message[], interrupts: Interrupt[] = [], runningTurn = false) => replayServerThread({ threadId: "t1", messages, state: {}, interrupts, ...(runningTurn && { running: NEVER }) });
const responses = (replayed: ReturnType<typeof replay>) => replayed.responses;

const thread: Message[] = [
  { id: "s", role: "system", content: "You are helpful." },
  { id: "u1", role: "user", content: "Weather in Oslo?" },
  { id: "r1", role: "reasoning", content: "Look it up." },
  { id: "a1", role: "assistant", content: "Let me check.", toolCalls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] },
  { id: "t1", role: "tool", toolCallId: "c1", content: "9 °C" },
  { id: "a2", role: "assistant", content: "Mild, 9 °C." },
  { id: "u2", role: "user", content: [{ type: "text", text: "Delete " }, { type: "text", text: "my files" }] },
  { id: "a3", role: "assistant", content: "", toolCalls: [{ id: "c2", type: "function", function: { name: "delete_files", arguments: '{"pattern":"*.tmp"}' } }] },
];

describe("logOfServerThread (a thread the agent's server keeps, read into a log and shown as a live one was)", () => {
  it("cuts the thread into turns at the person's messages, leaving out what comes before the first", () => {
    expect(turnsOf(thread).map((turn) => [turn.request.id, turn.answer.map((message) => message.id)])).toEqual([
      ["u1", ["r1", "a1", "t1", "a2"]],
      ["u2", ["a3"]],
    ]);
  });

  it("shows each answer as the run that made it: text, the tool step with its result, reasoning", () => {
    const replayed = replay(thread);
    expect(replayed.requests.map((request) => request.input.text)).toEqual(["Weather in Oslo?", "Delete my files"]);
    const [first] = responses(replayed);
    expect(first!.request_id).toBe("u1");
    expect(first!.output.generic.map((item) => item.text)).toEqual(["Let me check.", "Mild, 9 °C."]);
    expect(first!.message_options?.chain_of_thought?.map((step) => [step.tool_name, step.status, step.response?.content])).toEqual([["weather", "success", "9 °C"]]);
    expect(first!.message_options?.reasoning?.steps?.map((step) => step.content)).toEqual(["Look it up."]);
    // The history the chat goes on from is the server's, and the chat's answer to the call the last run left it, as live.
    expect(replayed.conversation.messages).toEqual([...thread, { id: "c2-no-result", role: "tool", toolCallId: "c2", content: "The tool call ended without a result", error: "The tool call ended without a result" }]);
  });

  it("shows a subagent's messages as its step, not the answer, each invocation one step (a message history keeps no subagent events)", () => {
    const supervised: Message[] = [
      { id: "u1", role: "user", content: "Why tides?" },
      { id: "a1", role: "assistant", content: "Let me ask.", toolCalls: [{ id: "c1", type: "function", function: { name: "delegate", arguments: "{}" } }] },
      { id: "t1", role: "tool", toolCallId: "c1", content: "notes" },
      { id: "r1", role: "reasoning", content: "Search it.", subagentRunId: "s1" },
      { id: "n1", role: "assistant", name: "researcher", content: "The moon pulls.", subagentRunId: "s1" },
      { id: "n2", role: "assistant", content: "Checked.", subagentRunId: "s2" },
      { id: "a2", role: "assistant", content: "The moon." },
    ];
    const [first] = responses(replay(supervised));
    expect(first!.output.generic.map((item) => item.text)).toEqual(["Let me ask.", "The moon."]);
    expect(first!.message_options?.reasoning).toBeUndefined();
    expect(first!.message_options?.chain_of_thought?.map((step) => [step.title ?? step.tool_name, step.status, step.response?.content])).toEqual([
      ["delegate", "success", "notes"],
      ["researcher", "success", "> Search it.\n\nThe moon pulls."],
      ["subagent", "success", "Checked."],
    ]);
  });

  it("replays a recorded supervisor run (a connect thread) with its subagents' steps as they showed live", () => {
    const run = supervisorRun({ threadId: "t1", runId: "r1" });
    run[0] = { ...run[0]!, input: { threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "Why are there tides?" }], state: {}, tools: [], context: [], forwardedProps: {} } } as BaseEvent;
    const replayed = replayServerThread({ threadId: "t1", runs: [run] });
    const [response] = replayed.responses;
    expect(response!.output.generic.map((item) => item.text)).toEqual([SUPERVISOR.opening, SUPERVISOR.answer]);
    expect(response!.message_options?.chain_of_thought?.map((step) => [step.title ?? step.tool_name, step.status])).toEqual([
      ["Handing off to researcher", "success"],
      ["researcher", "success"],
      ["researcher: search", "success"],
      ["fact_checker", "failure"],
    ]);
    expect(replayed.conversation.messages.filter((message) => message.subagentRunId !== undefined).map((message) => message.id)).toEqual(["think-r1", "notes-r1", "found-r1"]);
  });

  it("ends the last answer on the thread's pending interrupts, as decision cards", () => {
    const interrupt: Interrupt = { id: "i1", reason: "tool_approval", message: "Delete them?", toolCallId: "c2" };
    const replayed = replay(thread, [interrupt]);
    const last = replayed.responses.at(-1)!;
    expect(last.output.generic.filter((item) => item.response_type === "user_defined").map((item) => (item.user_defined as { interruptId?: string }).interruptId)).toEqual(["i1"]);
    expect(last.output.generic.some((item) => item.streaming_metadata?.stream_stopped)).toBe(false);
    expect(replayed.conversation.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(["i1"]);
  });

  it("closes a call left without a result in an earlier turn as failed, as a live run that ended so would, and keeps that turn's history as the server holds it", () => {
    const dangling: Message[] = [thread[1]!, { id: "a1", role: "assistant", content: "", toolCalls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "{}" } }] }, { id: "u2", role: "user", content: "Hello?" }];
    const replayed = replay(dangling);
    expect(replayed.responses[0]!.message_options?.chain_of_thought?.map((step) => step.status)).toEqual(["failure"]);
    expect(replayed.conversation.messages).toEqual(dangling);
    // The second turn's answer showed nothing: Carbon shows no response for it.
    expect(replayed.responses).toHaveLength(1);
  });

  it("leaves the last turn without its answer while a run still makes it", () => {
    const replayed = replay(thread, [], true);
    expect(replayed.requests.map((request) => request.id)).toEqual(["u1", "u2"]);
    expect(replayed.responses).toHaveLength(1);
  });

  it("makes nothing of a thread with no message of the person's", () => {
    const replayed = replay([{ id: "s", role: "system", content: "Hi" }]);
    expect([replayed.requests, replayed.responses, replayed.conversation.messages]).toEqual([[], [], [{ id: "s", role: "system", content: "Hi" }]]);
  });
});
