import { EventType, type BaseEvent, type ToolCall, type ToolCallStartEvent } from "@ag-ui/core";
import type { Conversation } from "../conversation";
import type { HeldCall } from "../conversation/history";
import type { LogEntry, RunEntry } from "./log";

/**
 * What a run shows before its own events: the calls the chat answered
 * since the run before (a frontend tool's result, the person's answer, a
 * tool server's), each with its result, so the answer that goes on from
 * them says what they were. Decided from the log, for a live run and a
 * restored one alike: the toolResult acts after the last run or message on
 * the branch. A resume shows none (the agent says what it does with its
 * answers), nor does a card the chat made itself.
 */
export function preludeOf(before: readonly LogEntry[], run: Pick<RunEntry, "answers" | "origin">, conversation: Conversation): BaseEvent[] {
  if ((run.answers?.length ?? 0) > 0 || run.origin === "chat") return [];
  const results: BaseEvent[] = [];
  for (let at = before.length - 1; at >= 0; at--) {
    const entry = before[at]!;
    if (entry.kind === "run" || entry.kind === "imported" || (entry.kind === "act" && entry.act.type === "message")) break;
    if (entry.kind !== "act" || entry.act.type !== "toolResult") continue;
    const { message } = entry.act;
    const found = conversation.findToolCall(message.toolCallId);
    if (found && typeof message.content === "string") results.unshift(...callWithResult(found.call, found.messageId, { id: message.id, content: message.content, ...(message.error !== undefined && { error: message.error }) }));
  }
  return results;
}

/** The events that show an answered call: the call, then its result. */
export function callWithResult(call: ToolCall, messageId: string, result: { id: string; content: string; error?: string }): BaseEvent[] {
  const { id: toolCallId, function: fn } = call;
  return [
    { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: fn.name, parentMessageId: messageId },
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: fn.arguments },
    { type: EventType.TOOL_CALL_END, toolCallId },
    { type: EventType.TOOL_CALL_RESULT, messageId: result.id, toolCallId, content: result.content, ...(result.error !== undefined && { error: result.error }) },
  ] as BaseEvent[];
}

/** What the log tells a run as it begins, live or replayed alike. */
export interface RunOpening {
  /** The events it shows before its own (`preludeOf`). */
  prelude: BaseEvent[];
  /** In a resume, the words the run it resumes showed that the agent's record has dropped (`saidBeforeResume`). */
  saidBeforeResume: string[];
}

export function openingOf(before: readonly LogEntry[], run: Pick<RunEntry, "answers" | "origin">, conversation: Conversation): RunOpening {
  return { prelude: preludeOf(before, run, conversation), saidBeforeResume: saidBeforeResume(before, run, conversation) };
}

/**
 * The words a resume may say again: those of the assistant messages the run
 * it resumes (the branch's last run) showed that the agent's record has
 * dropped since, in the order they began. LangGraph keeps a node's messages
 * only once the node is done, so a snapshot at an interrupt lacks what the
 * interrupted node said, and a resume runs that node again from its start:
 * its model says the same words under a new id (`textMessages()` shows
 * them once). None for a run that resumes nothing.
 */
export function saidBeforeResume(before: readonly LogEntry[], run: Pick<RunEntry, "answers">, conversation: Conversation): string[] {
  if ((run.answers?.length ?? 0) === 0) return [];
  let resumed: RunEntry | undefined;
  for (let at = before.length - 1; at >= 0 && !resumed; at--) if (before[at]!.kind === "run") resumed = before[at] as RunEntry;
  const said: string[] = [];
  const seen = new Set<string>();
  for (const event of resumed?.events ?? []) {
    if (event.type !== EventType.TEXT_MESSAGE_START && event.type !== EventType.TEXT_MESSAGE_CHUNK) continue;
    const { messageId } = event as { messageId?: string };
    if (messageId === undefined || seen.has(messageId)) continue;
    seen.add(messageId);
    const text = conversation.hasMessage(messageId) ? undefined : conversation.heldTexts.get(messageId);
    if (text !== undefined) said.push(text);
  }
  return said;
}

/** The calls answered before the run, but those its prelude shows answered now: they are shown once, in the run they go with. */
export function answeredBefore(conversation: Conversation, prelude: readonly BaseEvent[]): Map<string, HeldCall> {
  const answered = conversation.answeredCalls();
  for (const event of prelude) if (event.type === EventType.TOOL_CALL_START) answered.delete((event as ToolCallStartEvent).toolCallId);
  return answered;
}

/** `events` with `prelude` right after the first, its RUN_STARTED. */
export function withPrelude(events: readonly BaseEvent[], prelude: readonly BaseEvent[]): BaseEvent[] {
  if (prelude.length === 0 || events[0]?.type !== EventType.RUN_STARTED) return [...events];
  return [events[0], ...prelude, ...events.slice(1)];
}
