import { EventType, type BaseEvent, type Interrupt, type Message } from "@ag-ui/core";
import { from, type SchedulerLike } from "rxjs";
import { Conversation, type Activity } from "../conversation";
import { describeContent } from "../contentParts";
import { isRecord } from "../internal/isRecord";
import { agUiToCarbon, type AgUiToCarbonOptions } from "../operators/agUiToCarbon";
import { TranscriptLog } from "../persistence/transcriptLog";
import type { TranscriptDecision, TranscriptEntry } from "../persistence/transcript";
import type { ServerThread, ServerThreadOfMessages, ServerThreadOfRuns } from "./agentThreads";

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

/** What the chat shows of a message of the person's, whatever its content's form (see `describeContent`). */
export function textOf(message: Extract<Message, { role: "user" }>): string {
  return describeContent(message.content);
}

/** What a thread the agent's server keeps comes to in the chat, read once through the stages. */
export interface ReplayedThread {
  /** The history the next run sends. */
  messages: readonly Message[];
  state: unknown;
  /** The activities the thread's events left (a thread given as messages has none of its own). */
  activities: readonly Activity[];
  transcript: TranscriptEntry[];
  /**
   * The interrupts waiting once the last answer is shown: the server's, and
   * what the chat asks of its own (a call of a tool the person answers, a
   * tool server's approval), decided by the same stages as a live run.
   */
  pending: Interrupt[];
}

export interface ThreadReplayOptions {
  /** The options answers are shown with (item policy, `html`, `askedTools`…); its time-based and recording ones are the replay's own. */
  pipeline: AgUiToCarbonOptions;
  scheduler: SchedulerLike;
  /** ISO 8601: the time the restored messages show (the server keeps none per message). */
  time: string;
}

/**
 * What the chat shows of a thread the agent's server holds, with the
 * history, state and waiting interrupts the chat goes on from: its answers
 * go through the same stages that show a live answer, once, so a restored
 * step or card reads as a live one did.
 *
 * - A thread of recorded runs (`connect`) replays each run as it came: the
 *   person's messages its RUN_STARTED echoes are the requests, and what the
 *   run showed (Carbon items included) is the answer.
 * - A thread of messages (LangGraph) replays each turn's answer as the run
 *   that would have made it (its text, tool calls with their results,
 *   reasoning); the last ends on the thread's interrupts (their decision
 *   cards). With a run still going (`running`), the last turn is left
 *   without its answer: the rejoined run shows it.
 */
export function replayThread(thread: ServerThread, options: ThreadReplayOptions): ReplayedThread {
  return "runs" in thread ? replayRuns(thread, options) : replayMessages(thread, options);
}

function replayRuns(thread: ServerThreadOfRuns, options: ThreadReplayOptions): ReplayedThread {
  const { threadId } = thread;
  const conversation = new Conversation({ threadId, scheduler: options.scheduler });
  const log = new TranscriptLog();
  for (const run of thread.runs) {
    const requestId = takeInput(conversation, log, run[0], options.time);
    const { runId } = (run[0] ?? {}) as { runId?: unknown };
    // Synchronous: the events are an array, and nothing is merged in time.
    from(run)
      .pipe(
        agUiToCarbon({
          ...options.pipeline,
          conversation,
          coalesce: false,
          responseId: `${typeof runId === "string" ? runId : `${threadId}-${log.toEntries().length}`}-answer`,
          ...(requestId !== undefined && { requestId }),
          record: (chunk) => log.addChunk(chunk, options.time, requestId, typeof runId === "string" ? runId : undefined),
        }),
      )
      .subscribe({ error: () => undefined });
  }
  // The run still going: the person's message it answers shows; the rejoined run shows its answer.
  if (thread.runningStarted) {
    takeInput(conversation, log, thread.runningStarted, options.time);
    conversation.addMissingMessages(inputOf(thread.runningStarted).messages);
  }
  return {
    messages: conversation.messages,
    state: conversation.state,
    activities: [...conversation.activities.values()],
    transcript: log.toEntries(),
    pending: conversation.pendingInterrupts.map((entry) => entry.interrupt),
  };
}

/**
 * What a run's RUN_STARTED tells before its events: the interrupts waiting
 * are answered by it (their fates as its resume says), the person's
 * messages it echoes that the thread does not hold are requests, and the
 * state it began with is the state. Returns the request it answers.
 */
function takeInput(conversation: Conversation, log: TranscriptLog, started: BaseEvent | undefined, time: string): string | undefined {
  const input = inputOf(started);
  const answered = new Set(conversation.takePendingInterrupts().map((entry) => entry.interrupt.id));
  for (const { interruptId, answer } of resumeAnswers(input)) if (answered.has(interruptId)) log.addDecision(interruptId, answer, time);
  let requestId = lastRequestIn(conversation.messages);
  for (const message of newRequests(input, conversation)) {
    log.addRequest(message.id, textOf(message), time);
    requestId = message.id;
  }
  if (input.state !== undefined && input.state !== null) conversation.replaceState(input.state);
  return requestId;
}

function replayMessages(thread: ServerThreadOfMessages, options: ThreadReplayOptions): ReplayedThread {
  const log = new TranscriptLog();
  const turns = turnsOf(thread.messages);
  const runningTurn = thread.running !== undefined;
  let pending: Interrupt[] = runningTurn ? [...thread.interrupts] : [];
  turns.forEach((turn, at) => {
    const last = at === turns.length - 1;
    log.addRequest(turn.request.id, textOf(turn.request), options.time);
    if (last && runningTurn) return;
    const events = runOfAnswer(thread.threadId, turn.answer, last ? thread.interrupts : []);
    const conversation = new Conversation({ threadId: thread.threadId, scheduler: options.scheduler });
    // Synchronous: the events are an array, and nothing is merged in time.
    from(events)
      .pipe(agUiToCarbon({ ...options.pipeline, conversation, coalesce: false, responseId: `${turn.request.id}-answer`, record: (chunk) => log.addChunk(chunk, options.time, turn.request.id) }))
      .subscribe({ error: () => undefined });
    if (last) pending = conversation.pendingInterrupts.map((entry) => entry.interrupt);
  });
  return { messages: thread.messages, state: thread.state, activities: [], transcript: log.toEntries(), pending };
}

/** What a run was given, as its RUN_STARTED echoes it (CopilotKit records the messages a run brought there). */
export function inputOf(event: BaseEvent | undefined): { messages: Message[]; state?: unknown; resume: unknown[] } {
  const input: unknown = event?.type === EventType.RUN_STARTED ? (event as { input?: unknown }).input : undefined;
  if (!isRecord(input)) return { messages: [], resume: [] };
  const messages = Array.isArray(input.messages) ? (input.messages as unknown[]).filter((message): message is Message => isRecord(message) && typeof message.id === "string" && typeof message.role === "string") : [];
  return { messages, state: input.state, resume: Array.isArray(input.resume) ? input.resume : [] };
}

/** The person's messages a run was given that the conversation does not hold: the requests a chat shows before its answer. */
export function newRequests(input: { messages: readonly Message[] }, conversation: Pick<Conversation, "hasMessage">): Extract<Message, { role: "user" }>[] {
  return input.messages.filter((message): message is Extract<Message, { role: "user" }> => message.role === "user" && !conversation.hasMessage(message.id));
}

/** How a resume answered each interrupt, as a card says it: a cancellation as a rejection, an approval with arguments as an edit. */
function resumeAnswers(input: { resume: unknown[] }): { interruptId: string; answer: TranscriptDecision["answer"] }[] {
  return input.resume.flatMap((entry) => {
    if (!isRecord(entry) || typeof entry.interruptId !== "string") return [];
    const payload = isRecord(entry.payload) ? entry.payload : undefined;
    const answer: TranscriptDecision["answer"] = entry.status === "cancelled" ? "reject" : payload?.approved === true ? (payload.args !== undefined ? "edit" : "approve") : "answer";
    return [{ interruptId: entry.interruptId, answer }];
  });
}

function lastRequestIn(messages: readonly Message[]): string | undefined {
  for (let at = messages.length - 1; at >= 0; at--) if (messages[at]!.role === "user") return messages[at]!.id;
  return undefined;
}

/**
 * The events of a run that would have made `answer`, ending on `interrupts`.
 * A message history keeps no subagent events: the messages of one
 * `subagentRunId` are that invocation's, started at its first message
 * (named as the first of them with a `name` says, else "subagent") and
 * finished at the end, waiting when an interrupt is its own.
 */
function runOfAnswer(threadId: string, answer: readonly Message[], interrupts: readonly Interrupt[]): BaseEvent[] {
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId, runId: `restore-${threadId}` } as BaseEvent];
  const subagents = new Set<string>();
  const names = new Map<string, string>();
  for (const message of answer) if (message.subagentRunId !== undefined && "name" in message && message.name && !names.has(message.subagentRunId)) names.set(message.subagentRunId, message.name);
  for (const message of answer) {
    const { subagentRunId } = message;
    const at = events.length;
    if (subagentRunId !== undefined && !subagents.has(subagentRunId)) {
      subagents.add(subagentRunId);
      events.push({ type: EventType.SUBAGENT_STARTED, subagentRunId, name: names.get(subagentRunId) ?? "subagent" } as BaseEvent);
    }
    events.push(...eventsOf(message));
    if (subagentRunId !== undefined) for (let index = at; index < events.length; index++) events[index] = { ...events[index]!, subagentRunId } as BaseEvent;
  }
  const asking = new Set(interrupts.map((interrupt) => interrupt.subagentRunId));
  for (const subagentRunId of subagents) events.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId, outcome: { type: asking.has(subagentRunId) ? "suspended" : "success" } } as BaseEvent);
  events.push({ type: EventType.RUN_FINISHED, threadId, runId: `restore-${threadId}`, ...(interrupts.length > 0 && { outcome: { type: "interrupt", interrupts } }) } as BaseEvent);
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
