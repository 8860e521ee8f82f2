import type { Message, TokenUsage } from "@ag-ui/core";
import { Conversation, type Activity, type ConversationInit } from "../conversation";
import type { PendingInterrupt } from "../hitl";
import type { AnswerVersions } from "./answerVersions";
import type { TranscriptEntry } from "./transcript";

/** The snapshot format this library writes and reads. */
export const SNAPSHOT_VERSION = 1;

/**
 * A conversation as plain JSON, enough to restore it with no agent: what the
 * agent is sent (messages, encrypted values verbatim, shared state), what
 * the thread holds (activities, interrupts awaiting a resume with the
 * decisions taken and their expiry), and what the chat showed
 * (`transcript`). Never a token, a header or `forwardedProps`: those are the
 * adapter's options, not the conversation's.
 */
export interface ConversationSnapshot {
  version: typeof SNAPSHOT_VERSION;
  threadId: string;
  /** ISO 8601: when it was taken. */
  savedAt: string;
  /** The AG-UI history, as the next run sends it. */
  messages: readonly Message[];
  /** The shared state (any JSON value). */
  state: unknown;
  activities: readonly Activity[];
  pendingInterrupts: readonly PendingInterrupt[];
  transcript: readonly TranscriptEntry[];
  /** The tokens the thread's runs reported (`Conversation.usage`); absent when none did. */
  usage?: readonly TokenUsage[];
  /** The versions of the latest answer, once it was asked again (`regenerate`); absent when it was not. */
  versions?: AnswerVersions;
}

/** A snapshot of `conversation` now, with what the chat showed. Its parts are the conversation's frozen values, not copies. */
export function snapshotOf(conversation: Conversation, transcript: readonly TranscriptEntry[], savedAt: Date, versions?: AnswerVersions): ConversationSnapshot {
  return {
    version: SNAPSHOT_VERSION,
    threadId: conversation.threadId,
    savedAt: savedAt.toISOString(),
    messages: conversation.messages,
    state: conversation.state,
    activities: [...conversation.activities.values()],
    pendingInterrupts: conversation.pendingInterrupts,
    transcript,
    ...(conversation.usage.length > 0 && { usage: conversation.usage }),
    ...(versions && { versions }),
  };
}

/** The conversation a snapshot holds: its thread, history, state, activities, pending interrupts with their decisions, and usage. */
export function conversationOf(snapshot: ConversationSnapshot, init: Pick<ConversationInit, "scheduler"> = {}): Conversation {
  const conversation = new Conversation({ ...init, threadId: snapshot.threadId, messages: snapshot.messages, state: snapshot.state, ...(snapshot.usage && { usage: snapshot.usage }) });
  for (const activity of snapshot.activities) conversation.restoreActivity(activity);
  conversation.addPendingInterrupts(snapshot.pendingInterrupts.map((entry) => entry.interrupt));
  for (const { interrupt, decision } of snapshot.pendingInterrupts) if (decision) conversation.decideInterrupt(interrupt.id, decision);
  return conversation;
}
