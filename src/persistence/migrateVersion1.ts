import type { Message, TokenUsage } from "@ag-ui/core";
import type { Activity } from "../conversation";
import type { PendingInterrupt } from "../hitl";
import type { ActEntry, ImportedEntry, LogEntry } from "../thread/log";
import { SNAPSHOT_VERSION, type ConversationSnapshot } from "./snapshot";
import type { TranscriptEntry } from "./transcript";

/** An answer set aside for another version of it, as version 1 kept it. */
interface KeptAnswerVersion1 {
  messages: readonly Message[];
  activities: readonly Activity[];
  transcript: readonly TranscriptEntry[];
  branch?: string;
}

/** A snapshot of version 1: each of the thread's views stored as it was (the history, the chat's transcript, the cards, the versions). */
export interface SnapshotVersion1 {
  version: 1;
  threadId: string;
  savedAt: string;
  messages: readonly Message[];
  state: unknown;
  activities: readonly Activity[];
  pendingInterrupts: readonly PendingInterrupt[];
  transcript: readonly TranscriptEntry[];
  usage?: readonly TokenUsage[];
  versions?: { requestId: string; chosen: number; answers: readonly (KeptAnswerVersion1 | null)[] };
}

/**
 * A snapshot of version 1 read into a log, so that a thread saved so still
 * opens as it was and goes on: what came before its latest question as one
 * imported entry (its history, its chat as its transcript showed it), the
 * latest question as the person's message, and each version of its answer
 * as an imported entry that grows from it, the one shown on the current
 * branch (with the cards that wait and the usage), so it can be asked again
 * and switched between as any answer. Where the agent's server kept an
 * answer's branch, the log says so.
 */
export function logOfVersion1(old: SnapshotVersion1): ConversationSnapshot {
  const { threadId, savedAt } = old;
  const requestId = old.versions?.requestId ?? [...old.transcript].reverse().find((entry) => entry.kind === "request")?.id;
  const question = requestId === undefined ? undefined : old.messages.find((message): message is Extract<Message, { role: "user" }> => message.id === requestId && message.role === "user");
  const askedAt = old.transcript.findIndex((entry) => entry.kind === "request" && entry.id === requestId);
  const base = { state: old.state, ...(old.usage && { usage: old.usage }) };
  if (!question || askedAt === -1) {
    const whole: ImportedEntry = { kind: "imported", id: `${threadId}-imported`, time: savedAt, messages: old.messages, activities: old.activities, transcript: old.transcript, ...base, pendingInterrupts: old.pendingInterrupts };
    return { version: SNAPSHOT_VERSION, threadId, savedAt, entries: [whole], head: whole.id };
  }
  const cut = old.messages.indexOf(question);
  const timeOf = (entry: TranscriptEntry | undefined) => entry?.time ?? savedAt;
  const before: ImportedEntry = {
    kind: "imported",
    id: `${threadId}-imported`,
    time: timeOf(old.transcript[0]),
    messages: old.messages.slice(0, cut),
    activities: old.activities.filter((activity) => activity.requestId !== requestId),
    transcript: old.transcript.slice(0, askedAt),
    ...base,
  };
  const asked: ActEntry = { kind: "act", id: `${threadId}-question`, parent: before.id, time: timeOf(old.transcript[askedAt]), act: { type: "message", message: question } };
  const shown: KeptAnswerVersion1 = { messages: old.messages.slice(cut + 1), activities: old.activities.filter((activity) => activity.requestId === requestId), transcript: old.transcript.slice(askedAt + 1) };
  const versions = old.versions?.answers ?? [null];
  const entries: LogEntry[] = [before, asked];
  let head = asked.id;
  versions.forEach((kept, index) => {
    const answer = kept ?? shown;
    const entry: ImportedEntry = {
      kind: "imported",
      id: `${threadId}-answer-${index}`,
      parent: asked.id,
      time: timeOf(answer.transcript[0]),
      messages: answer.messages,
      activities: answer.activities,
      transcript: answer.transcript,
      ...(kept === null && { pendingInterrupts: old.pendingInterrupts }),
    };
    entries.push(entry);
    if (answer.branch !== undefined) entries.push({ kind: "act", id: `${entry.id}-branch`, parent: entry.id, time: entry.time, act: { type: "serverBranch", of: entry.id, branch: answer.branch } });
    if (kept === null) head = entries.at(-1)!.id;
  });
  return { version: SNAPSHOT_VERSION, threadId, savedAt, entries, head };
}
