/**
 * The demos' agent: answers by keyword with streamed text, a stopped story, a
 * failure, history recall, a weather answer with reasoning, a tool call,
 * shared state and a Carbon card, a long answer in one burst of deltas, and
 * approvals whose continuation streams slowly; with a tool client, an e-mail sent through a tool server that asks for
 * approval. Served by the testing kit's agent server.
 */
import type { RunAgentInput } from "@ag-ui/core";
import type { AgentScript, SseResponse } from "carbon-agui-rx/testing";
import type { ToolClient } from "carbon-agui-rx/tool-client";

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams `text` word by word as one assistant message, then ends the run unless told to fail or hang. */
async function streamAnswer(sse: SseResponse, input: RunAgentInput, text: string, ending: "finish" | "fail" | "hang" = "finish") {
  const messageId = `answer-${input.runId}`;
  sse.send({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as never);
  sse.send({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" } as never);
  for (const word of text.split(/(?<= )/)) {
    sse.send({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: word } as never);
    await pause(3);
  }
  if (ending === "hang") return;
  if (ending === "fail") {
    sse.send({ type: "RUN_ERROR", message: "The model is overloaded", code: "overloaded" } as never);
  } else {
    sse.send({ type: "TEXT_MESSAGE_END", messageId } as never);
    sse.send({ type: "RUN_FINISHED", threadId: input.threadId, runId: input.runId } as never);
  }
  sse.end();
}

/** About 12,000 characters of markdown paragraphs, ending in "The end." (so its last words show only once all of it is there). */
export const LONG_ANSWER = (() => {
  const sentences = Array.from({ length: 189 }, (_, index) => `Sentence ${index + 1} of a long answer that streams into Carbon AI Chat.${index % 10 === 9 ? "\n\n" : " "}`);
  return `${sentences.join("")}The end.`;
})();

/** Sends `text` as one assistant message cut into `deltas` deltas, written all at once (a burst), then ends the run or, when told to wait, leaves it open. */
function burstAnswer(sse: SseResponse, input: RunAgentInput, text: string, deltas: number, ending: "finish" | "hang") {
  const { threadId, runId } = input;
  const messageId = `answer-${runId}`;
  const cut = (index: number) => Math.round((index * text.length) / deltas);
  sse.send({ type: "RUN_STARTED", threadId, runId } as never);
  sse.send({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" } as never);
  for (let index = 0; index < deltas; index++) sse.send({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: text.slice(cut(index), cut(index + 1)) } as never);
  if (ending === "hang") return;
  sse.send({ type: "TEXT_MESSAGE_END", messageId } as never);
  sse.send({ type: "RUN_FINISHED", threadId, runId } as never);
  sse.end();
}

/** Reasons, calls a weather tool (a live chain-of-thought step), updates shared state, and answers with a Carbon card; today's card offers tomorrow's. */
async function weatherAnswer(sse: SseResponse, input: RunAgentInput, day: "today" | "tomorrow") {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  const forecast = day === "today" ? { celsius: 4, sky: "sleet" } : { celsius: 6, sky: "clouds" };
  send({ type: "RUN_STARTED", threadId, runId });
  send({ type: "REASONING_MESSAGE_CHUNK", messageId: `think-${runId}`, delta: `The user wants ${day}'s weather in Oslo: ` });
  send({ type: "REASONING_MESSAGE_CHUNK", delta: "call the forecast tool." });
  send({ type: "TOOL_CALL_START", toolCallId: `call-${runId}`, toolCallName: "get_forecast", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId: `call-${runId}`, delta: JSON.stringify({ city: "Oslo", day }) });
  send({ type: "TOOL_CALL_END", toolCallId: `call-${runId}` });
  await pause(20);
  send({ type: "TOOL_CALL_RESULT", messageId: `result-${runId}`, toolCallId: `call-${runId}`, content: JSON.stringify(forecast) });
  send({ type: "STATE_SNAPSHOT", snapshot: { lastCity: "Oslo", lookups: 1 } });
  send({ type: "STATE_DELTA", delta: [{ op: "replace", path: "/lookups", value: 2 }] });
  const tomorrowButton = { response_type: "button", button_type: "post_back", label: "Tomorrow?", value: { input: { text: "And tomorrow?" } } };
  send({
    type: "CUSTOM",
    name: "carbon.item",
    value: {
      response_type: "card",
      body: [{ response_type: "text", text: `Oslo${day === "tomorrow" ? " tomorrow" : ""}: ${forecast.celsius} °C, ${forecast.sky}` }],
      ...(day === "today" && { footer: [tomorrowButton] }),
    },
  });
  send({ type: "RUN_FINISHED", threadId, runId });
  sse.end();
}

/**
 * How a deletion's resume goes, by a word in the request: a "flaky" one is dropped once before any event (the card
 * re-arms), a "slow" one streams its continuation slowly (the stop button or a restart lands mid-stream).
 */
type Deletion = "" | "flaky" | "slow";

/** Asks for approval before deleting files (an AG-UI interrupt), and continues once it is answered. */
async function deleteFilesAnswer(sse: SseResponse, input: RunAgentInput, kind: Deletion) {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  send({ type: "RUN_STARTED", threadId, runId });
  send({ type: "TOOL_CALL_START", toolCallId: `delete-${runId}`, toolCallName: "delete_files", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId: `delete-${runId}`, delta: '{"paths":["notes.txt","draft.md","old.log"]}' });
  send({ type: "TOOL_CALL_END", toolCallId: `delete-${runId}` });
  const interrupt = { id: `${kind ? `${kind}-` : ""}approve-${runId}`, reason: "tool_approval", message: "Delete these 3 files?", toolCallId: `delete-${runId}` };
  send({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "interrupt", interrupts: [interrupt] } });
  sse.end();
}

/** How many blocks the slow deletion shreds, one every `SLOW_BLOCK_MS`: about 6 s in all, however the run ends. */
export const SLOW_BLOCKS = 60;
const SLOW_BLOCK_MS = 100;

/**
 * The approved continuation of a "slow" deletion: a sentence per block, paced, then a new interrupt asking about the
 * backups. It stops writing as soon as the client has gone (a stopped or restarted run): nothing more is sent.
 */
async function shredSlowly(sse: SseResponse, input: RunAgentInput) {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  let gone = false;
  void sse.closed.then(() => (gone = true));
  const messageId = `answer-${runId}`;
  send({ type: "RUN_STARTED", threadId, runId });
  send({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" });
  for (let block = 1; block <= SLOW_BLOCKS; block++) {
    if (gone) return;
    send({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: `Shredded block ${block} of ${SLOW_BLOCKS}. ` });
    await pause(SLOW_BLOCK_MS);
  }
  if (gone) return;
  send({ type: "TEXT_MESSAGE_END", messageId });
  const toolCallId = `delete-backups-${runId}`;
  send({ type: "TOOL_CALL_START", toolCallId, toolCallName: "delete_files", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId, delta: '{"paths":["notes.txt.bak","draft.md.bak"]}' });
  send({ type: "TOOL_CALL_END", toolCallId });
  const interrupt = { id: `backups-${runId}`, reason: "tool_approval", message: "Delete their 2 backups too?", toolCallId };
  send({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "interrupt", interrupts: [interrupt] } });
  sse.end();
}

/** Interrupts whose first resume this agent drops before any event (the "flaky" request), so the card re-arms. */
const droppedOnce = new Set<string>();

/** Ends the run asking for a detail through shared state, without an interrupt: a clarification. */
function askForDate(sse: SseResponse, input: RunAgentInput) {
  const { threadId, runId } = input;
  sse.send({ type: "RUN_STARTED", threadId, runId } as never);
  sse.send({ type: "STATE_SNAPSHOT", snapshot: { phase: "needs_detail", ask: "Which date should I book?" } } as never);
  sse.send({ type: "RUN_FINISHED", threadId, runId } as never);
  sse.end();
}

/** Answers by keyword, like the scripted agents in the tests. */
export async function scriptedAgent(input: RunAgentInput, sse: SseResponse) {
  const decision = input.resume?.[0];
  if (decision && decision.interruptId.includes("flaky") && !droppedOnce.has(decision.interruptId)) {
    droppedOnce.add(decision.interruptId);
    return sse.end();
  }
  if (decision?.interruptId.startsWith("slow-") && decision.status !== "cancelled") return shredSlowly(sse, input);
  if (decision) {
    const args = (decision.payload as { args?: { paths?: string[] } } | null)?.args;
    const text = decision.status === "cancelled" ? "Okay, I left the files alone." : `Done: deleted ${(args?.paths ?? ["notes.txt", "draft.md", "old.log"]).map((path) => `\`${path}\``).join(", ")}.`;
    return streamAnswer(sse, input, text);
  }
  const last = input.messages.at(-1);
  const question = typeof last?.content === "string" ? last.content.toLowerCase() : "";
  if (question.includes("delete")) return deleteFilesAnswer(sse, input, question.includes("flaky") ? "flaky" : question.includes("slow") ? "slow" : "");
  if (question.includes("book")) return askForDate(sse, input);
  if (question.includes("tomorrow")) return weatherAnswer(sse, input, "tomorrow");
  if (question.includes("weather")) return weatherAnswer(sse, input, "today");
  if (question.includes("story")) {
    return streamAnswer(sse, input, "Once upon a time, in a data centre far away, a very long answer began to stream and stream and stream ", "hang");
  }
  if (question.includes("long answer")) {
    // "long answer in 1 delta", "long answer in 3000 deltas and wait" (the run stays open, for the stop button).
    const deltas = Number(/in (\d+) delta/.exec(question)?.[1] ?? 3000);
    return burstAnswer(sse, input, LONG_ANSWER, deltas, question.includes("and wait") ? "hang" : "finish");
  }
  if (question.includes("fail")) return streamAnswer(sse, input, "Let me work that out. The first step is ", "fail");
  if (question.includes("remember")) {
    return streamAnswer(sse, input, `This thread (${input.threadId.slice(0, 8)}…) has ${input.messages.length} messages so far, and I received all of them.`);
  }
  return streamAnswer(sse, input, "I'm a **scripted AG-UI agent**. My answer streams as text deltas into Carbon AI Chat through carbon-agui-rx.");
}


/**
 * The demo agent with tools behind it: "e-mail" sends one through the tool
 * server (`send_email` needs a reviewer there), so the agent shows the tool
 * call, interrupts with the server's approval id, and on the person's answer
 * decides that approval — with the arguments they edited — and reports the
 * tool's result. Everything else goes to `scriptedAgent`.
 */
export function scriptedAgentWithTools(tools: ToolClient): AgentScript {
  return async (input, sse) => {
    const decision = input.resume?.[0];
    if (decision?.interruptId.startsWith("apr_")) return decideEmail(sse, input, tools, decision);
    const last = input.messages.at(-1);
    const question = typeof last?.content === "string" ? last.content.toLowerCase() : "";
    if (!decision && question.includes("e-mail")) return emailThroughToolServer(sse, input, tools);
    return scriptedAgent(input, sse);
  };
}

async function emailThroughToolServer(sse: SseResponse, input: RunAgentInput, tools: ToolClient) {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  const toolCallId = `email-${runId}`;
  const args = { to: "ops@example.com", subject: "Deploy finished" };
  send({ type: "RUN_STARTED", threadId, runId });
  send({ type: "TOOL_CALL_START", toolCallId, toolCallName: "send_email", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(args) });
  send({ type: "TOOL_CALL_END", toolCallId });
  // The thread is the tool server's run; the tool call id keys the invoke, so a retried run never sends twice.
  const call = await tools.invoke<{ to: string }>("send_email", args, { runId: threadId, threadId, idempotencyKey: toolCallId });
  if (call.status === "ok") {
    send({ type: "TOOL_CALL_RESULT", messageId: `result-${runId}`, toolCallId, content: JSON.stringify(call.result) });
    return streamAnswer(sse, input, `Sent to ${call.result.to}.`);
  }
  const interrupt = { id: call.approval_id, reason: "tool_approval", message: "The tool server needs your approval to send this e-mail.", toolCallId };
  send({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "interrupt", interrupts: [interrupt] } });
  sse.end();
}

async function decideEmail(sse: SseResponse, input: RunAgentInput, tools: ToolClient, decision: NonNullable<RunAgentInput["resume"]>[number]) {
  const edited = (decision.payload as { args?: Record<string, unknown> } | null)?.args;
  const approved = decision.status !== "cancelled";
  const outcome = await tools.decide<{ to: string; cc?: string }>(decision.interruptId, approved ? { approved, ...(edited && { editedArguments: edited }) } : { approved, reason: "rejected in the chat" });
  const text = outcome.status === "ok" ? `Sent through the tool server to ${outcome.result.to}${outcome.result.cc ? ` (cc ${outcome.result.cc})` : ""}.` : "Okay, the e-mail was not sent.";
  return streamAnswer(sse, input, text);
}
