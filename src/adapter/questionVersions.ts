import { contentToText } from "@ag-ui/core";
import { distinctUntilChanged, map, merge, switchMap, type Observable } from "rxjs";
import type { CarbonEditInstance } from "../carbon";
import { AgUiEditError } from "../errors";
import { leafOf } from "../thread/log";
import { questionOf, questionsOf, type QuestionEntry } from "../thread/questions";
import type { Thread } from "../thread/thread";
import { serverBranchOf } from "../thread/versions";
import type { ServerBranches } from "./answerVersions";

/** A question of the thread's current branch, as the control under it draws it. */
export interface QuestionVersionsState {
  /** Carbon's id of the person's message. */
  requestId: string;
  /** Its text, for Carbon's input when it is edited. */
  text: string;
  /** The first response under it: the control goes with it. None while nothing of its answer showed. */
  responseId?: string;
  /** The version shown, from 0, of how many (each edit of the question adds one). */
  index: number;
  count: number;
  /** Whether it may be edited, or another version shown, now: no card waits, no run goes on the thread. */
  canEdit: boolean;
  /** Whether the person is editing it: its text is in Carbon's input, and the next message sent takes its place. */
  editing: boolean;
}

/** Why `requestId` cannot be edited (or switched) now (a typed error), or its question when it can. */
export function editRefusal(thread: Thread, requestId: string): AgUiEditError | QuestionEntry {
  const question = questionOf(thread.branch(), requestId);
  if (!question) return new AgUiEditError(`The thread's branch holds no question '${requestId}' to edit`);
  if (thread.conversation.pendingInterrupts.length > 0) return new AgUiEditError("A card waits for an answer: answer it before editing a question");
  if (runGoing(thread)) return new AgUiEditError("A run goes on on this thread: wait for its answer, or stop it, before editing a question");
  return question;
}

/** Whether a run of the branch has not ended yet. */
const runGoing = (thread: Thread) => thread.branch().some((entry) => entry.kind === "run" && entry.ended === "open");

/** The questions of the thread's current branch, as the controls under them draw them; `editing` is the question being edited, if any. */
export function questionsState(thread: Thread, editing: string | undefined): QuestionVersionsState[] {
  const canEdit = thread.conversation.pendingInterrupts.length === 0 && !runGoing(thread);
  return questionsOf(thread.log.data, thread.branch()).map(({ question, versions, index, responseId }) => {
    const { id, content } = question.act.message;
    const text = contentToText(content);
    return { requestId: id, text, ...(responseId !== undefined && { responseId }), index, count: versions.length, canEdit, editing: id === editing };
  });
}

/** The questions of the current thread, as they change (an entry of its log, a card, the edit under way). */
export function questionsState$(threads$: Observable<Thread>, editing$: Observable<string | undefined>): Observable<QuestionVersionsState[]> {
  return threads$.pipe(
    switchMap((thread) =>
      editing$.pipe(
        switchMap((editing) =>
          merge([undefined], thread.log.changes$, thread.conversation$.pipe(switchMap((conversation) => conversation.pendingInterrupts$))).pipe(map(() => questionsState(thread, editing))),
        ),
      ),
    ),
    distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
  );
}

/**
 * Shows version `index` (from 0) of the question `requestId` in its place:
 * the branch moves to that version's latest entry (on the agent's server
 * too, where it keeps branches), and Carbon's chat shows the branch as a
 * restored chat shows it.
 */
export async function switchQuestion(thread: Thread, index: number, requestId: string, instance: CarbonEditInstance, server: ServerBranches): Promise<void> {
  const question = editRefusal(thread, requestId);
  if (question instanceof AgUiEditError) throw question;
  const versions = questionsOf(thread.log.data, thread.branch()).find((entry) => entry.question.id === question.id)!;
  if (!Number.isInteger(index) || index < 0 || index >= versions.versions.length) throw new AgUiEditError(`There is no version ${index + 1} of question '${requestId}'`);
  if (index === versions.index) return;
  const target = versions.versions[index]!;
  const { branches, callOptions } = server;
  const goal = serverBranchOf(thread.log.data, target);
  if (branches && goal !== undefined) {
    const head = await branches.head(thread.threadId, callOptions);
    thread.act({ type: "serverBranch", of: question.id, branch: head });
    await branches.moveTo(thread.threadId, goal, callOptions);
  }
  const shown = thread.replay().chat.map(({ item }) => item.message.id);
  const replayed = thread.switchTo(leafOf(thread.log.data, target));
  await instance.messaging.removeMessages(shown.filter((id): id is string => id !== undefined));
  await instance.messaging.insertHistory(replayed.chat.map(({ item }) => item));
}
