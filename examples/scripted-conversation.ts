/**
 * The demos' agent: answers by keyword with streamed text, a stopped story, a
 * failure, history recall, a weather answer with reasoning, a tool call,
 * shared state and a Carbon card, a long answer in one burst of deltas, and
 * approvals whose continuation streams slowly, a supervisor with subagents, names to regenerate, an A2UI booking form
 * (and the answer to its Book); with a tool client, an e-mail sent through a tool server that asks for approval. Each answer follows what was typed (the city, the files, the address, what to book: `askedFor.ts`), and
 * what it has no answer for it says so, with what it can do. Served by the testing kit's agent server.
 */
import type { RunAgentInput } from "@ag-ui/core";
import { BOOKING_FORM, confirmation } from "./bookingForm";
import type { AgentScript, SseResponse } from "carbon-agui-rx/testing";
import type { ToolClient } from "carbon-agui-rx/tool-client";
import { addressIn, cityIn, filesIn, FORECAST_CITIES, gistIn, listed } from "./askedFor";
import { supervisorRun } from "./supervisor";

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Streams `text` word by word as one assistant message, then ends the run unless told to fail or hang; a `snapshot`
 * becomes the shared state first.
 */
async function streamAnswer(sse: SseResponse, input: RunAgentInput, text: string, ending: "finish" | "fail" | "hang" = "finish", snapshot?: object) {
  const messageId = `answer-${input.runId}`;
  sse.send({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as never);
  if (snapshot !== undefined) sse.send({ type: "STATE_SNAPSHOT", snapshot } as never);
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

type Day = "today" | "tomorrow";
type Forecast = { celsius: number; sky: string };

/** The demo's made-up forecasts, by city and day. */
const FORECASTS: Record<(typeof FORECAST_CITIES)[number], Record<Day, Forecast>> = {
  Oslo: { today: { celsius: 4, sky: "sleet" }, tomorrow: { celsius: 6, sky: "clouds" } },
  Paris: { today: { celsius: 12, sky: "light rain" }, tomorrow: { celsius: 14, sky: "sunny spells" } },
  London: { today: { celsius: 9, sky: "drizzle" }, tomorrow: { celsius: 10, sky: "overcast" } },
  "New York": { today: { celsius: 7, sky: "wind" }, tomorrow: { celsius: 5, sky: "clear" } },
  Tokyo: { today: { celsius: 15, sky: "clear" }, tomorrow: { celsius: 13, sky: "showers" } },
};

/**
 * The weather in the city asked about (for "tomorrow" without one, the city of the last look-up, from the shared
 * state); a city it has no forecast for, or none at all, is answered plainly with the cities it knows.
 */
function weatherAnswer(sse: SseResponse, input: RunAgentInput, question: string, day: Day) {
  const state = (input.state ?? {}) as { lastCity?: string };
  const named = cityIn(question) ?? (day === "tomorrow" ? state.lastCity : undefined);
  const cities = listed(FORECAST_CITIES);
  if (named === undefined) return streamAnswer(sse, input, `Which city? I'm a scripted demo agent with made-up forecasts for ${cities}.`);
  const city = FORECAST_CITIES.find((known) => known === named);
  if (city === undefined) return streamAnswer(sse, input, `I'm a scripted demo agent with made-up forecasts for ${cities} only, not ${named}.`);
  return forecastAnswer(sse, input, city, day);
}

/** Reasons, calls a weather tool (a live chain-of-thought step), updates shared state, and answers with a Carbon card; today's card offers tomorrow's. */
async function forecastAnswer(sse: SseResponse, input: RunAgentInput, city: keyof typeof FORECASTS, day: Day) {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  const forecast = FORECASTS[city][day];
  send({ type: "RUN_STARTED", threadId, runId });
  send({ type: "REASONING_MESSAGE_CHUNK", messageId: `think-${runId}`, delta: `The user wants ${day}'s weather in ${city}: ` });
  send({ type: "REASONING_MESSAGE_CHUNK", delta: "call the forecast tool." });
  send({ type: "TOOL_CALL_START", toolCallId: `call-${runId}`, toolCallName: "get_forecast", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId: `call-${runId}`, delta: JSON.stringify({ city, day }) });
  send({ type: "TOOL_CALL_END", toolCallId: `call-${runId}` });
  await pause(20);
  send({ type: "TOOL_CALL_RESULT", messageId: `result-${runId}`, toolCallId: `call-${runId}`, content: JSON.stringify(forecast) });
  send({ type: "STATE_SNAPSHOT", snapshot: { lastCity: city, lookups: 1 } });
  send({ type: "STATE_DELTA", delta: [{ op: "replace", path: "/lookups", value: 2 }] });
  const tomorrowButton = { response_type: "button", button_type: "post_back", label: "Tomorrow?", value: { input: { text: "And tomorrow?" } } };
  send({
    type: "CUSTOM",
    name: "carbon.item",
    value: {
      response_type: "card",
      body: [{ response_type: "text", text: `${city}${day === "tomorrow" ? " tomorrow" : ""}: ${forecast.celsius} °C, ${forecast.sky}` }],
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

/** The files the demo deletes when the person names none ("delete my old files"). */
const SOME_FILES = ["notes.txt", "draft.md", "old.log"];

/** Asks for approval before deleting the files named, or some files of its own (an AG-UI interrupt), and continues once it is answered. */
async function deleteFilesAnswer(sse: SseResponse, input: RunAgentInput, question: string, kind: Deletion) {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  const named = filesIn(question);
  const paths = named.length > 0 ? named : SOME_FILES;
  send({ type: "RUN_STARTED", threadId, runId });
  send({ type: "TOOL_CALL_START", toolCallId: `delete-${runId}`, toolCallName: "delete_files", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId: `delete-${runId}`, delta: JSON.stringify({ paths }) });
  send({ type: "TOOL_CALL_END", toolCallId: `delete-${runId}` });
  const message = paths.length === 1 ? `Delete ${paths[0]}?` : `Delete these ${paths.length} files?`;
  const interrupt = { id: `${kind ? `${kind}-` : ""}approve-${runId}`, reason: "tool_approval", message, toolCallId: `delete-${runId}` };
  remember(interrupt.id, paths);
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
  const backups = deletedPaths(input).map((path) => `${path}.bak`);
  send({ type: "TOOL_CALL_START", toolCallId, toolCallName: "delete_files", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify({ paths: backups }) });
  send({ type: "TOOL_CALL_END", toolCallId });
  const interrupt = { id: `backups-${runId}`, reason: "tool_approval", message: `Delete their ${backups.length} backups too?`, toolCallId };
  send({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "interrupt", interrupts: [interrupt] } });
  sse.end();
}

/** Interrupts whose first resume this agent drops before any event (the "flaky" request), so the card re-arms. */
const droppedOnce = new Set<string>();

/** Ends the run asking for a detail through shared state, without an interrupt: a clarification. The state keeps what to book. */
function askForDate(sse: SseResponse, input: RunAgentInput, typed: string) {
  const { threadId, runId } = input;
  const booking = /\bbook\s+(.+?)[.!?]*$/i.exec(typed.trim())?.[1] ?? "it";
  sse.send({ type: "RUN_STARTED", threadId, runId } as never);
  sse.send({ type: "STATE_SNAPSHOT", snapshot: { phase: "needs_detail", ask: "Which date should I book?", booking } } as never);
  sse.send({ type: "RUN_FINISHED", threadId, runId } as never);
  sse.end();
}

/** The answer to the clarification: books what was asked for, for the date given. */
function bookAnswer(sse: SseResponse, input: RunAgentInput, booking: string, typed: string) {
  const date = typed.trim().replace(/[.!?]+$/, "");
  return streamAnswer(sse, input, `Booked: ${booking}, ${date}.`, "finish", { phase: "booked", booking, date });
}

/**
 * The files each open deletion asked about, by interrupt id: a resume carries only the decision, so the agent keeps
 * what it asked, as an agent keeps its thread. The oldest go past 100.
 */
const askedToDelete = new Map<string, string[]>();
function remember(interruptId: string, paths: string[]) {
  askedToDelete.set(interruptId, paths);
  if (askedToDelete.size > 100) askedToDelete.delete(askedToDelete.keys().next().value!);
}

/** The files of the deletion this resume answers: as the person edited them on the card, else as the agent asked. */
function deletedPaths(input: RunAgentInput): string[] {
  const decision = input.resume?.[0];
  const edited = (decision?.payload as { args?: { paths?: string[] } } | null | undefined)?.args?.paths;
  return edited ?? askedToDelete.get(decision?.interruptId ?? "") ?? SOME_FILES;
}

/** The supervisor's run (`supervisor.ts`), an event every few milliseconds. */
async function superviseResearch(sse: SseResponse, input: RunAgentInput) {
  for (const event of supervisorRun(input)) {
    sse.send(event as never);
    await pause(3);
  }
  sse.end();
}

/** What the agent can answer, for a question it cannot. */
const WHAT_I_CAN_DO = `Ask me about the weather in a city (${listed(FORECAST_CITIES)}), to delete files, to e-mail someone, to book something, why there are tides (a supervisor and its subagents), to suggest a name (regenerate for another), for a booking form, for a story or a long answer, to fail, or what you said so far.`;

/** The files the approval form asks about: its Approve (or Approve with changes) deletes them, Reject leaves them. */
const APPROVAL_PATHS = ["/tmp/a.log", "/tmp/b.log", "/tmp/c.log"];
/** A surface with what a decision card shows: a question, the arguments, and its three answers (for the browser bench). */
const APPROVAL_FORM = {
  surfaceId: "approval",
  components: [
    { id: "root", component: "Card", child: "body" },
    { id: "body", component: "Column", children: ["ask", "args", "answers"] },
    { id: "ask", component: "Text", text: "Delete these 3 files?", variant: "h5" },
    { id: "args", component: "Text", text: { path: "/args" }, variant: "caption" },
    { id: "answers", component: "Row", children: ["approve", "edit", "reject"] },
    ...["approve", "edit", "reject"].flatMap((answer) => [
      { id: `${answer}-label`, component: "Text", text: { approve: "Approve", edit: "Approve with changes", reject: "Reject" }[answer] },
      { id: answer, component: "Button", child: `${answer}-label`, variant: answer === "approve" ? "primary" : "default", action: { event: { name: answer, context: {} } } },
    ]),
  ],
  data: { args: JSON.stringify({ paths: APPROVAL_PATHS }, null, 2) },
};

/**
 * A form (the booking form unless told) as `@ag-ui/a2ui-middleware` sends it for a `render_a2ui` call (no middleware
 * here: the scripted agent sends its events itself): the call's step, the surface building, painted, then painted
 * with its data.
 */
async function paintForm(sse: SseResponse, input: RunAgentInput, form: { surfaceId: string; components: object[]; data: object } = BOOKING_FORM) {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  const toolCallId = `render-${runId}`;
  const messageId = `a2ui-surface-${toolCallId}`;
  const { surfaceId } = form;
  const catalogId = "https://a2ui.org/specification/v0_9/basic_catalog.json";
  const painted = [
    { version: "v0.9", createSurface: { surfaceId, catalogId } },
    { version: "v0.9", updateComponents: { surfaceId, components: form.components } },
  ];
  const surface = (content: object) => send({ type: "ACTIVITY_SNAPSHOT", messageId, activityType: "a2ui-surface", content, replace: true });
  send({ type: "RUN_STARTED", threadId, runId });
  surface({ status: "building" });
  send({ type: "TOOL_CALL_START", toolCallId, toolCallName: "render_a2ui", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(form) });
  send({ type: "TOOL_CALL_END", toolCallId });
  await pause(3);
  surface({ a2ui_operations: painted });
  await pause(3);
  surface({ a2ui_operations: [...painted, { version: "v0.9", updateDataModel: { surfaceId, path: "/", value: form.data } }] });
  send({ type: "TOOL_CALL_RESULT", messageId: `rendered-${runId}`, toolCallId, content: JSON.stringify({ status: "rendered" }) });
  send({ type: "RUN_FINISHED", threadId, runId });
  sse.end();
}

/** The names the agent suggests, one more each time the same question is asked again (regenerate). */
export const SUGGESTED_NAMES = ["Biscuit", "Pixel", "Marmalade", "Nimbus"];
const suggestionsMade = new Map<string, number>();

/** A name for the question `questionId` of `threadId`: the next one each time it is asked. */
function suggestedName(threadId: string, questionId: string): string {
  const key = `${threadId}/${questionId}`;
  const made = suggestionsMade.get(key) ?? 0;
  suggestionsMade.set(key, made + 1);
  return `How about **${SUGGESTED_NAMES[made % SUGGESTED_NAMES.length]}**?`;
}

/** What the agent says once a deletion was decided, by the card or by the approval form: the files deleted, or (refused) none. */
const deletionReply = (deleted: readonly string[] | "refused") => (deleted === "refused" ? "Okay, I left the files alone." : `Done: deleted ${deleted.map((path) => `\`${path}\``).join(", ")}.`);

/** Answers by keyword, like the scripted agents in the tests. */
export async function scriptedAgent(input: RunAgentInput, sse: SseResponse) {
  const decision = input.resume?.[0];
  if (decision && decision.interruptId.includes("flaky") && !droppedOnce.has(decision.interruptId)) {
    droppedOnce.add(decision.interruptId);
    return sse.end();
  }
  if (decision?.interruptId.startsWith("slow-") && decision.status !== "cancelled") return shredSlowly(sse, input);
  if (decision) {
    return streamAnswer(sse, input, deletionReply(decision.status === "cancelled" ? "refused" : deletedPaths(input)));
  }
  const action = (input.forwardedProps as { a2uiAction?: { userAction?: { name?: string; context?: Record<string, unknown> } } } | undefined)?.a2uiAction?.userAction;
  if (action?.name === "book_room") return streamAnswer(sse, input, confirmation(action.context ?? {}));
  if (action?.name === "approve" || action?.name === "edit" || action?.name === "reject") return streamAnswer(sse, input, deletionReply(action.name === "reject" ? "refused" : APPROVAL_PATHS));
  const last = input.messages.at(-1);
  const typed = typeof last?.content === "string" ? last.content : "";
  const question = typed.toLowerCase();
  const booking = (input.state as { phase?: string; booking?: string } | undefined)?.phase === "needs_detail" ? (input.state as { booking?: string }).booking : undefined;
  if (booking !== undefined) return bookAnswer(sse, input, booking, typed);
  if (question.includes("delete")) return deleteFilesAnswer(sse, input, typed, question.includes("flaky") ? "flaky" : question.includes("slow") ? "slow" : "");
  if (question.includes("booking form")) return paintForm(sse, input);
  if (question.includes("approval form")) return paintForm(sse, input, APPROVAL_FORM);
  if (question.includes("book")) return askForDate(sse, input, typed);
  if (question.includes("tomorrow")) return weatherAnswer(sse, input, typed, "tomorrow");
  if (question.includes("weather")) return weatherAnswer(sse, input, typed, "today");
  if (question.includes("story")) {
    return streamAnswer(sse, input, "Once upon a time, in a data centre far away, a very long answer began to stream and stream and stream ", "hang");
  }
  if (question.includes("long answer")) {
    // "long answer in 1 delta", "long answer in 3000 deltas and wait" (the run stays open, for the stop button).
    const deltas = Number(/in (\d+) delta/.exec(question)?.[1] ?? 3000);
    return burstAnswer(sse, input, LONG_ANSWER, deltas, question.includes("and wait") ? "hang" : "finish");
  }
  if (question.includes("tides")) return superviseResearch(sse, input);
  if (question.includes("suggest a name")) return streamAnswer(sse, input, suggestedName(input.threadId, last?.id ?? ""));
  if (question.includes("fail")) return streamAnswer(sse, input, "Let me work that out. The first step is ", "fail");
  if (question.includes("remember")) {
    return streamAnswer(sse, input, `This thread (${input.threadId.slice(0, 8)}…) has ${input.messages.length} messages so far, and I received all of them.`);
  }
  // A greeting, or a question about the agent itself, gets what it is; anything else is said plainly to be beyond it.
  if (/^(hi|hello|hey)\b|\b(what|who) are you\b/.test(question)) {
    return streamAnswer(sse, input, `I'm a **scripted AG-UI agent**: my answers stream as text deltas into Carbon AI Chat through carbon-agui-rx. ${WHAT_I_CAN_DO}`);
  }
  return streamAnswer(sse, input, `I'm a **scripted AG-UI agent**, so I cannot answer that. ${WHAT_I_CAN_DO}`);
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
  const typed = input.messages.at(-1)?.content;
  const text = typeof typed === "string" ? typed : "";
  // The address typed, or a name after "e-mail" at example.com ("e-mail ops", the starter prompt's); the subject is what follows "that".
  const to = addressIn(text) ?? `${/e-mail\s+(\w+)/i.exec(text)?.[1] ?? "ops"}@example.com`;
  const args = { to, subject: gistIn(text) ?? "A note from the demo agent" };
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
