import type { Message } from "@ag-ui/core";
import { Conversation, type Activity } from "../conversation";
import type { TranscriptEntry } from "../persistence/transcript";
import type { SchedulerLike } from "rxjs";
import type { ServerThread } from "./agentThreads";
import { turnsOf, type ReplayedThread } from "./threadHistory";

/** What this browser kept of a thread: its conversation (messages, activities, decisions taken) and what its chat showed. */
export interface CachedThread {
  conversation: Conversation;
  transcript: readonly TranscriptEntry[];
}

/**
 * The thread as the chat goes on with it: the server's messages, state and
 * pending interrupts (as `replayed` read them), always. What only this browser knew is kept where it
 * still fits: a turn the server holds exactly as the browser last saw it
 * (the same messages, by id and content), and saw to its end, shows as the
 * browser showed it, with its Carbon items, feedback and stopped or failed
 * marks; a turn changed elsewhere, never seen here, or left mid-answer when
 * the page went away (the server's answer wins over what the page saw of
 * it), shows as `serverTranscript` has it. A turn the server does not hold is gone. What waits is what the
 * replay of the last answer left waiting; the activities, and the decisions
 * taken on cards still waiting, come from the cache.
 */
export function withCache(server: Pick<ServerThread, "threadId" | "running">, replayed: ReplayedThread, cached: CachedThread | undefined, scheduler: SchedulerLike): CachedThread {
  const serverTranscript = replayed.transcript;
  const conversation = new Conversation({ threadId: server.threadId, messages: [...replayed.messages, ...activityMessages(replayed.activities, cached)], state: replayed.state, scheduler });
  conversation.addPendingInterrupts(replayed.pending);
  if (!cached) return { conversation, transcript: serverTranscript };
  for (const { interrupt, decision } of cached.conversation.pendingInterrupts) {
    if (decision && replayed.pending.some((pending) => pending.id === interrupt.id)) conversation.decideInterrupt(interrupt.id, decision);
  }
  const seenHere = new Map(turnsOf(cached.conversation.messages).map((turn) => [turn.request.id, fingerprint([turn.request, ...turn.answer])]));
  const shownHere = byRequest(cached.transcript);
  const serverTurns = turnsOf(replayed.messages);
  const stillRunning = server.running ? serverTurns.at(-1)?.request.id : undefined;
  // What only this browser knew stays while the server's turn is the one it saw, and it saw that turn end: an answer it was
  // shown when the page went away (unfinished) is the server's to tell, whatever it came to there.
  const unchanged = new Set(
    serverTurns
      .filter((turn) => turn.request.id !== stillRunning && !shownHere.get(turn.request.id)?.some(isUnfinished) && seenHere.get(turn.request.id) === fingerprint([turn.request, ...turn.answer]))
      .map((turn) => turn.request.id),
  );
  const transcript: TranscriptEntry[] = [];
  for (const [requestId, entries] of byRequest(serverTranscript)) transcript.push(...((unchanged.has(requestId) && shownHere.get(requestId)) || entries));
  // How the cards answered here were answered: a restored card says so.
  const kept = new Set(transcript);
  transcript.push(...cached.transcript.filter((entry) => entry.kind === "decision" && !kept.has(entry)));
  return { conversation, transcript };
}

const isUnfinished = (entry: TranscriptEntry) => entry.kind === "response" && entry.unfinished === true;

/** The transcript cut into turns, each from its request to the next, by request id. */
function byRequest(transcript: readonly TranscriptEntry[]): Map<string, TranscriptEntry[]> {
  const turns = new Map<string, TranscriptEntry[]>();
  let current: TranscriptEntry[] | undefined;
  for (const entry of transcript) {
    if (entry.kind === "request") turns.set(entry.id, (current = []));
    current?.push(entry);
  }
  return turns;
}

/** What identifies a turn's messages whichever side wrote them: ids, roles, words, calls and the calls answered. */
function fingerprint(messages: readonly Message[]): string {
  return JSON.stringify(
    messages.map((message) => [
      message.id,
      message.role,
      typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""),
      message.role === "assistant" ? (message.toolCalls ?? []).map((call) => [call.id, call.function.name, call.function.arguments]) : [],
      message.role === "tool" ? message.toolCallId : "",
    ]),
  );
}

/** The activities the server's thread left, and those only this browser kept (the server's win). */
function activityMessages(served: readonly Activity[], cached: CachedThread | undefined): Message[] {
  const byId = new Map([...(cached?.conversation.activities.values() ?? []), ...served].map((activity) => [activity.messageId, activity]));
  return [...byId.values()].map(({ messageId, activityType, content }): Message => ({ id: messageId, role: "activity", activityType, content }));
}
