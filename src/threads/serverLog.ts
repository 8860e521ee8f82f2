import { EventType, type BaseEvent, type Interrupt, type Message } from "@ag-ui/core";
import type { CardAnswer } from "../conversation";
import { describeContent } from "../contentParts";
import { isRecord } from "../internal/isRecord";
import { compactEvents } from "../thread/compactEvents";
import type { ActEntry, ImportedEntry, LogEntry, RunAnswer, RunEntry, ThreadLogData } from "../thread/log";
import type { ServerThread, ServerThreadOfMessages, ServerThreadOfRuns, ThreadSubagent } from "./agentThreads";

/** A turn of a thread's history: the person's message, and what the agent did with it. */
export interface HistoryTurn {
  request: Extract<Message, { role: "user" }>;
  /** The messages after it, up to the next message of the person's. */
  answer: Message[];
}

/** The thread's turns, oldest first; messages before the first message of the person's (a system prompt) belong to none. */
export function turnsOf(messages: readonly Message[]): HistoryTurn[] {
  const turns: HistoryTurn[] = [];
  for (const message of messages) {
    if (message.role === "user") turns.push({ request: message, answer: [] });
    else turns.at(-1)?.answer.push(message);
  }
  return turns;
}

/**
 * A thread the agent's server keeps, read into a log, so the chat shows it
 * as a live one showed it (the same stages replay it) and goes on from it:
 *
 * - a thread of recorded runs (`connect`) is its runs as they came: the
 *   person's messages each RUN_STARTED echoes are their acts, the resume it
 *   carries answers the cards it names;
 * - a thread of messages (LangGraph) is each turn's question, and its answer
 *   as the run that would have made it (text, tool calls with their results,
 *   reasoning); the last run ends with the thread's messages, state and
 *   interrupts as the server holds them (their decision cards). With a run
 *   still going (`running`), the last turn is left without its answer: the
 *   rejoined run shows it.
 *
 * `time` is when the entries say they were written (the server keeps none per message).
 */
export function logOfServerThread(thread: ServerThread, time: string): ThreadLogData {
  return "runs" in thread ? logOfRuns(thread, time) : logOfMessages(thread, time);
}

/** Appends entries in a chain: each grows from the one before. */
class Chain {
  readonly entries: LogEntry[] = [];

  add<T extends LogEntry>(entry: Omit<T, "parent">): T {
    const parent = this.entries.at(-1)?.id;
    const added = { ...entry, ...(parent !== undefined && { parent }) } as T;
    this.entries.push(added);
    return added;
  }

  log(threadId: string): ThreadLogData {
    const head = this.entries.at(-1)?.id;
    return { threadId, entries: this.entries, ...(head !== undefined && { head }) };
  }
}

function logOfRuns(thread: ServerThreadOfRuns, time: string): ThreadLogData {
  const chain = new Chain();
  const asked = new Set<string>();
  let requestId: string | undefined;
  const askAll = (started: BaseEvent | undefined) => {
    for (const message of inputOf(started).messages) {
      if (message.role !== "user" || asked.has(message.id)) continue;
      asked.add(message.id);
      requestId = message.id;
      chain.add<ActEntry>({ kind: "act", id: `${message.id}-asked`, time, act: { type: "message", message } });
    }
  };
  thread.runs.forEach((events, index) => {
    askAll(events[0]);
    const named = (events[0] as { runId?: unknown } | undefined)?.runId;
    const runId = typeof named === "string" ? named : `${thread.threadId}-${index}`;
    const answers = resumeAnswers(inputOf(events[0]));
    chain.add<RunEntry>({
      kind: "run",
      id: `${runId}-${index}`,
      runId,
      responseId: `${runId}-answer`,
      ...(requestId !== undefined && { requestId }),
      ...(answers.length > 0 && { answers }),
      time,
      events: compactEvents(events),
      ended: endOf(events),
    });
  });
  // The run still going: the person's message it answers shows; the rejoined run shows its answer.
  if (thread.runningStarted) askAll(thread.runningStarted);
  return chain.log(thread.threadId);
}

/** How a recorded run ended, as its last event says: a cut one failed (its replay says why, as live). */
function endOf(events: readonly BaseEvent[]): RunEntry["ended"] {
  const last = events.at(-1);
  if (last?.type === EventType.RUN_FINISHED) return (last as { outcome?: { type?: unknown } }).outcome?.type === "cancelled" ? "stopped" : "finished";
  return "failed";
}

function logOfMessages(thread: ServerThreadOfMessages, time: string): ThreadLogData {
  const chain = new Chain();
  const turns = turnsOf(thread.messages);
  const subagents = new Map((thread.subagents ?? []).map((subagent) => [subagent.subagentRunId, subagent]));
  const before = thread.messages.slice(0, turns[0] ? thread.messages.indexOf(turns[0].request) : thread.messages.length);
  if (before.length > 0) chain.add<ImportedEntry>({ kind: "imported", id: `${thread.threadId}-before`, time, messages: before, activities: [], transcript: [] });
  turns.forEach((turn, at) => {
    const last = at === turns.length - 1;
    chain.add<ActEntry>({ kind: "act", id: `${turn.request.id}-asked`, time, act: { type: "message", message: turn.request } });
    if (last && thread.running) return;
    // The last run brings the thread as the server holds it: its messages (reconciled), its state, what waits.
    const held = last ? { messages: thread.messages, state: thread.state, interrupts: thread.interrupts } : undefined;
    chain.add<RunEntry>({ kind: "run", id: `${turn.request.id}-restored`, runId: `restore-${thread.threadId}`, responseId: `${turn.request.id}-answer`, requestId: turn.request.id, time, events: runOfAnswer(thread.threadId, turn.answer, held, subagents), ended: "finished" });
  });
  return chain.log(thread.threadId);
}

/** What a run was given, as its RUN_STARTED echoes it (CopilotKit records the messages a run brought there). */
export function inputOf(event: BaseEvent | undefined): { messages: Message[]; state?: unknown; resume: unknown[] } {
  const input: unknown = event?.type === EventType.RUN_STARTED ? (event as { input?: unknown }).input : undefined;
  if (!isRecord(input)) return { messages: [], resume: [] };
  const messages = Array.isArray(input.messages) ? (input.messages as unknown[]).filter((message): message is Message => isRecord(message) && typeof message.id === "string" && typeof message.role === "string") : [];
  return { messages, state: input.state, resume: Array.isArray(input.resume) ? input.resume : [] };
}

/** The person's messages a run was given that the conversation does not hold: the requests a chat shows before its answer. */
export function newRequests(input: { messages: readonly Message[] }, conversation: { hasMessage(id: string): boolean }): Extract<Message, { role: "user" }>[] {
  return input.messages.filter((message): message is Extract<Message, { role: "user" }> => message.role === "user" && !conversation.hasMessage(message.id));
}

/** How a resume answered each interrupt, as a card says it: a cancellation as a rejection, an approval with arguments as an edit. */
function resumeAnswers(input: { resume: unknown[] }): RunAnswer[] {
  return input.resume.flatMap((entry): RunAnswer[] => {
    if (!isRecord(entry) || typeof entry.interruptId !== "string" || (entry.status !== "resolved" && entry.status !== "cancelled")) return [];
    const payload = isRecord(entry.payload) ? entry.payload : undefined;
    const answer: CardAnswer = entry.status === "cancelled" ? "reject" : payload?.approved === true ? (payload.args !== undefined ? "edit" : "approve") : "answer";
    return [{ interruptId: entry.interruptId, answer, entry: { interruptId: entry.interruptId, status: entry.status, ...(entry.payload !== undefined && { payload: entry.payload }) } }];
  });
}

/**
 * The events of a run that would have made `answer`, ending with `held`
 * (the thread as the server holds it: its messages, its state, its
 * interrupts) when it is the last. A message history keeps no subagent
 * events: the messages of one `subagentRunId` are that invocation's,
 * started at its first message (named as the server's `subagents` says,
 * else as the first of them with a `name` says, else "subagent"; under the
 * call that started it, where the server knows it) and finished at the end,
 * waiting when an interrupt is its own. Its messages a live run never shows
 * are left out (the last run's snapshot holds them).
 */
function runOfAnswer(threadId: string, answer: readonly Message[], held: { messages: readonly Message[]; state: unknown; interrupts: readonly Interrupt[] } | undefined, known: ReadonlyMap<string, ThreadSubagent>): BaseEvent[] {
  const runId = `restore-${threadId}`;
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent];
  const subagents = new Set<string>();
  const names = new Map<string, string>();
  for (const message of answer) if (message.subagentRunId !== undefined && "name" in message && message.name && !names.has(message.subagentRunId)) names.set(message.subagentRunId, message.name);
  for (const message of answer) {
    const { subagentRunId } = message;
    const subagent = subagentRunId === undefined ? undefined : known.get(subagentRunId);
    if (subagentRunId !== undefined && !subagents.has(subagentRunId)) {
      subagents.add(subagentRunId);
      const parentToolCallId = subagent?.parentToolCallId;
      events.push({ type: EventType.SUBAGENT_STARTED, subagentRunId, name: subagent?.name ?? names.get(subagentRunId) ?? "subagent", ...(parentToolCallId !== undefined && { parentToolCallId }) } as BaseEvent);
    }
    if (subagent?.unshown?.includes(message.id)) continue;
    const at = events.length;
    events.push(...eventsOf(message));
    if (subagentRunId !== undefined) for (let index = at; index < events.length; index++) events[index] = { ...events[index]!, subagentRunId } as BaseEvent;
  }
  const interrupts = held?.interrupts ?? [];
  const asking = new Set(interrupts.map((interrupt) => interrupt.subagentRunId));
  // A worker that asked before it said anything (its messages are still in its own graph) starts where it asks.
  for (const subagentRunId of asking) {
    const subagent = subagentRunId === undefined ? undefined : known.get(subagentRunId);
    if (!subagent || subagents.has(subagent.subagentRunId)) continue;
    subagents.add(subagent.subagentRunId);
    events.push({ type: EventType.SUBAGENT_STARTED, subagentRunId: subagent.subagentRunId, name: subagent.name, ...(subagent.parentToolCallId !== undefined && { parentToolCallId: subagent.parentToolCallId }) } as BaseEvent);
  }
  for (const subagentRunId of subagents) events.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId, outcome: { type: asking.has(subagentRunId) ? "suspended" : "success" } } as BaseEvent);
  if (held) events.push({ type: EventType.MESSAGES_SNAPSHOT, messages: held.messages } as BaseEvent, { type: EventType.STATE_SNAPSHOT, snapshot: held.state ?? {} } as BaseEvent);
  events.push({ type: EventType.RUN_FINISHED, threadId, runId, ...(interrupts.length > 0 && { outcome: { type: "interrupt", interrupts } }) } as BaseEvent);
  return events;
}

/** The events that would have made `message` (none for a message the chat never shows, as a system prompt). */
function eventsOf(message: Message): BaseEvent[] {
  switch (message.role) {
    case "assistant":
      return [
        ...(typeof message.content === "string" && message.content !== "" ? textEvents(message.id, message.content) : []),
        ...(message.toolCalls ?? []).flatMap((call) => [
          { type: EventType.TOOL_CALL_START, toolCallId: call.id, toolCallName: call.function.name, parentMessageId: message.id } as BaseEvent,
          { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: call.function.arguments } as BaseEvent,
          { type: EventType.TOOL_CALL_END, toolCallId: call.id } as BaseEvent,
        ]),
      ];
    case "tool":
      return [{ type: EventType.TOOL_CALL_RESULT, messageId: message.id, toolCallId: message.toolCallId, content: describeContent(message.content), ...(message.error !== undefined && { error: message.error }) } as BaseEvent];
    case "reasoning":
      if (!message.content) return [];
      return [
        { type: EventType.REASONING_START, messageId: message.id } as BaseEvent,
        { type: EventType.REASONING_MESSAGE_START, messageId: message.id, role: "reasoning" } as BaseEvent,
        { type: EventType.REASONING_MESSAGE_CONTENT, messageId: message.id, delta: message.content } as BaseEvent,
        { type: EventType.REASONING_MESSAGE_END, messageId: message.id } as BaseEvent,
        { type: EventType.REASONING_END, messageId: message.id } as BaseEvent,
      ];
    default:
      return [];
  }
}

function textEvents(messageId: string, text: string): BaseEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
  ];
}
