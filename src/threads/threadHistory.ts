import { EventType, type BaseEvent, type Interrupt, type Message } from "@ag-ui/core";
import { from, type SchedulerLike } from "rxjs";
import { Conversation } from "../conversation";
import { agUiToCarbon, type AgUiToCarbonOptions } from "../operators/agUiToCarbon";
import { TranscriptLog } from "../persistence/transcriptLog";
import type { TranscriptEntry } from "../persistence/transcript";
import type { ServerThread } from "./agentThreads";

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

/** The text of a message of the person's, whatever its content's form. */
export function textOf(message: Extract<Message, { role: "user" }>): string {
  const { content } = message;
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** What a thread the agent's server keeps comes to in the chat: what it shows, and the interrupts its last answer leaves waiting. */
export interface ReplayedThread {
  transcript: TranscriptEntry[];
  /**
   * The interrupts waiting once the last answer is shown: the server's, and
   * what the chat asks of its own (a call of a tool the person answers, a
   * tool server's approval), decided by the same stages as a live run.
   */
  pending: Interrupt[];
}

/**
 * What the chat shows of a thread the agent's server holds, as a transcript:
 * each turn's answer is replayed as the run that made it (its text, tool
 * calls with their results, reasoning), through the same stages that show a
 * live answer, so a restored step or card reads as a live one did. The last
 * turn ends on the thread's pending interrupts (their decision cards), or,
 * with `runningTurn`, is left without its answer: the rejoined run shows it.
 */
export function transcriptOfThread(thread: Pick<ServerThread, "threadId" | "messages" | "interrupts">, options: ThreadReplayOptions): ReplayedThread {
  const log = new TranscriptLog();
  const turns = turnsOf(thread.messages);
  let pending: Interrupt[] = options.runningTurn ? [...thread.interrupts] : [];
  turns.forEach((turn, at) => {
    const last = at === turns.length - 1;
    log.addRequest(turn.request.id, textOf(turn.request), options.time);
    if (last && options.runningTurn) return;
    const events = runOfAnswer(thread.threadId, turn.answer, last ? thread.interrupts : []);
    const conversation = new Conversation({ threadId: thread.threadId, scheduler: options.scheduler });
    // Synchronous: the events are an array, and nothing is merged in time.
    from(events)
      .pipe(agUiToCarbon({ ...options.pipeline, conversation, coalesce: false, responseId: `${turn.request.id}-answer`, record: (chunk) => log.addChunk(chunk, options.time, turn.request.id) }))
      .subscribe({ error: () => undefined });
    if (last) pending = conversation.pendingInterrupts.map((entry) => entry.interrupt);
  });
  return { transcript: log.toEntries(), pending };
}

export interface ThreadReplayOptions {
  /** The options answers are shown with (item policy, `html`, `askedTools`…); its time-based and recording ones are the replay's own. */
  pipeline: AgUiToCarbonOptions;
  scheduler: SchedulerLike;
  /** ISO 8601: the time the restored messages show (the server keeps none per message). */
  time: string;
  /** The thread's last turn is still being answered by a run. */
  runningTurn?: boolean;
}

/** The events of a run that would have made `answer`, ending on `interrupts`. */
function runOfAnswer(threadId: string, answer: readonly Message[], interrupts: readonly Interrupt[]): BaseEvent[] {
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId, runId: `restore-${threadId}` } as BaseEvent];
  for (const message of answer) {
    if (message.role === "assistant") {
      const text = typeof message.content === "string" ? message.content : "";
      if (text) events.push(...textEvents(message.id, text));
      for (const call of message.toolCalls ?? []) {
        events.push(
          { type: EventType.TOOL_CALL_START, toolCallId: call.id, toolCallName: call.function.name, parentMessageId: message.id } as BaseEvent,
          { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: call.function.arguments } as BaseEvent,
          { type: EventType.TOOL_CALL_END, toolCallId: call.id } as BaseEvent,
        );
      }
    } else if (message.role === "tool") {
      events.push({ type: EventType.TOOL_CALL_RESULT, messageId: message.id, toolCallId: message.toolCallId, content: message.content, ...(message.error !== undefined && { error: message.error }) } as BaseEvent);
    } else if (message.role === "reasoning" && message.content) {
      events.push(
        { type: EventType.REASONING_START, messageId: message.id } as BaseEvent,
        { type: EventType.REASONING_MESSAGE_START, messageId: message.id, role: "reasoning" } as BaseEvent,
        { type: EventType.REASONING_MESSAGE_CONTENT, messageId: message.id, delta: message.content } as BaseEvent,
        { type: EventType.REASONING_MESSAGE_END, messageId: message.id } as BaseEvent,
        { type: EventType.REASONING_END, messageId: message.id } as BaseEvent,
      );
    }
  }
  events.push({ type: EventType.RUN_FINISHED, threadId, runId: `restore-${threadId}`, ...(interrupts.length > 0 && { outcome: { type: "interrupt", interrupts } }) } as BaseEvent);
  return events;
}

function textEvents(messageId: string, text: string): BaseEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
  ];
}
