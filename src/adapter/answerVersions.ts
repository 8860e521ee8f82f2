import type { Message } from "@ag-ui/core";
import { distinctUntilChanged, map, merge, switchMap, type Observable } from "rxjs";
import type { CarbonVersionsInstance } from "../carbon";
import { AgUiRegenerateError } from "../errors";
import { leafOf } from "../thread/log";
import { chatAfter, type Replayed } from "../thread/replay";
import type { Thread } from "../thread/thread";
import { latestAnswer, serverBranchOf, type LatestAnswer } from "../thread/versions";
import type { ThreadBranches, ThreadCallOptions } from "../threads/agentThreads";

/** The versions bar of the latest answer, as the renderers draw it. */
export interface AnswerVersionsState {
  /** The latest response: the bar is under it. */
  responseId: string;
  /** The question it answers. */
  requestId: string;
  /** The version shown, from 0. */
  index: number;
  count: number;
  /** Whether it may be asked again now: no card waits for an answer. */
  canRegenerate: boolean;
}

/** The bar of the thread's latest answer, as its log holds it: none while the latest question has no answer that showed. */
export function versionsState(thread: Thread): AnswerVersionsState | undefined {
  const latest = latestAnswer(thread.log.data, thread.branch());
  if (!latest) return undefined;
  return { responseId: latest.responseId, requestId: latest.question.act.message.id, index: latest.index, count: latest.answers.length, canRegenerate: thread.conversation.pendingInterrupts.length === 0 };
}

/** The bar of the current thread's latest answer, as it changes (an entry of its log, a card). */
export function versionsState$(threads$: Observable<Thread>): Observable<AnswerVersionsState | undefined> {
  return threads$.pipe(
    switchMap((thread) => merge(thread.log.changes$, thread.conversation$.pipe(switchMap((conversation) => conversation.pendingInterrupts$))).pipe(map(() => versionsState(thread)))),
    distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
  );
}

/** Why the latest answer cannot be asked again now (a typed error), or nothing when it can. */
export function regenerateRefusal(thread: Thread): AgUiRegenerateError | undefined {
  const state = versionsState(thread);
  if (!state) return new AgUiRegenerateError("There is no answer to ask again: the latest question has none yet");
  if (!state.canRegenerate) return new AgUiRegenerateError("A card waits for an answer: answer it before asking again");
  return undefined;
}

/** What the agent's server is asked when the versions move, where it keeps branches (LangGraph's checkpoints). */
export interface ServerBranches {
  branches: ThreadBranches | undefined;
  callOptions: ThreadCallOptions;
}

/**
 * Sets the latest answer aside for a regenerate: the agent's server forks
 * before it (where it keeps branches: the old one's place is written in the
 * log), and its responses leave Carbon's chat. Returns what the new answer
 * grows from, and how to give the old one its place back.
 */
export async function setAsideLatest(thread: Thread, instance: CarbonVersionsInstance, server: ServerBranches): Promise<{ latest: LatestAnswer; putBack: () => Promise<void> }> {
  const refusal = regenerateRefusal(thread);
  if (refusal) throw refusal;
  const latest = latestAnswer(thread.log.data, thread.branch())!;
  const leaf = thread.log.head!;
  const branch = await server.branches?.forkBefore(thread.threadId, latest.question.act.message.id, server.callOptions);
  if (branch !== undefined) thread.act({ type: "serverBranch", of: latest.answers[latest.index]!, branch });
  await instance.messaging.removeMessages([...latest.responses]);
  return {
    latest,
    putBack: async () => {
      if (branch !== undefined) await server.branches?.moveTo(thread.threadId, branch, server.callOptions);
      await show(thread.log.head === leaf ? thread.replay() : thread.switchTo(leaf), thread, instance, latest.question.id);
    },
  };
}

/** Shows version `index` (from 0) of the latest answer in place of the one shown: the branch moves there (on the agent's server too), and Carbon's chat follows. */
export async function switchVersion(thread: Thread, index: number, instance: CarbonVersionsInstance, server: ServerBranches): Promise<void> {
  const latest = latestAnswer(thread.log.data, thread.branch());
  if (!latest || !Number.isInteger(index) || index < 0 || index >= latest.answers.length) throw new AgUiRegenerateError(`There is no version ${index + 1} of the latest answer`);
  if (index === latest.index) return;
  if (thread.conversation.pendingInterrupts.length > 0) throw new AgUiRegenerateError("A card waits for an answer: answer it before switching versions");
  const target = latest.answers[index]!;
  const { branches, callOptions } = server;
  const goal = serverBranchOf(thread.log.data, target);
  if (branches && goal !== undefined) {
    const head = await branches.head(thread.threadId, callOptions);
    thread.act({ type: "serverBranch", of: latest.answers[latest.index]!, branch: head });
    await branches.moveTo(thread.threadId, goal, callOptions);
  }
  await instance.messaging.removeMessages([...latest.responses]);
  await show(thread.switchTo(leafOf(thread.log.data, target)), thread, instance, latest.question.id);
}

/** The responses of the branch `replayed` after `question`, into Carbon's chat, as a restored chat shows them. */
async function show({ chat }: Replayed, thread: Thread, instance: CarbonVersionsInstance, question: string): Promise<void> {
  for (const { item } of chatAfter(chat, thread.branch(), question)) if ("output" in item.message) await instance.messaging.addMessage(item.message);
}

/** The answer's last words: the last assistant message with text after the question `requestId`, before the next one. */
export function lastAnswerMessage(messages: readonly Message[], requestId: string | undefined): string | undefined {
  const from = messages.findIndex((message) => message.id === requestId);
  if (from === -1) return undefined;
  let found: string | undefined;
  for (const message of messages.slice(from + 1)) {
    if (message.role === "user") break;
    if (message.role === "assistant" && typeof message.content === "string" && message.content !== "" && message.subagentRunId === undefined) found = message.id;
  }
  return found;
}
