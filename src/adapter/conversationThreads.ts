import type { CarbonChatInstance, CarbonEditInstance, CarbonThreadInstance, CarbonVersionsInstance, CustomLoadHistory } from "../carbon";
import type { Observable } from "rxjs";
import { notRestoredNotice } from "../persistence/restore";
import type { ThreadSummary } from "../persistence/store";
import { randomId } from "../internal/ids";
import type { Thread } from "../thread/thread";
import type { AnswerVersionsState } from "./answerVersions";
import type { Branches } from "./branches";
import type { CarbonEvents } from "./carbonEvents";
import type { KeptThreads } from "./keptThreads";
import type { RunningRun } from "./loadThread";
import type { QuestionVersionsState } from "./questionVersions";
import { ThreadViews } from "./threadViews";

/**
 * The adapter's threads, as the host moves between them: a new one, another
 * one from the agent's server or the store, the restored history Carbon
 * loads, the threads listed, deleted and saved; and within a thread, its
 * branches (`Branches`: the versions of an answer and of a question). Where
 * a thread goes (`adopt`), how the turns of the one left end, and how a
 * run still going is rejoined are the adapter's.
 */
export abstract class ConversationThreads extends ThreadViews {
  /** The Carbon instance of the latest message, where a resume streams when none is given. */
  protected lastInstance: CarbonChatInstance | undefined;
  protected abstract readonly carbonEvents: CarbonEvents;
  protected abstract readonly kept: KeptThreads;
  protected abstract readonly branches: Branches;
  /** Makes `thread` the current one; the turns of the one left end. */
  protected abstract adopt(thread: Thread): void;
  /** Streams a run still going on `thread` into the chat, as a turn of its own, once Carbon shows what came before. */
  protected abstract rejoin(thread: Thread, run: RunningRun, instance: CarbonChatInstance): void;

  /**
   * Starts a new thread with no history. Every turn begun on the old one
   * ends (what streams shows "Response stopped"; a turn still waiting never
   * starts), and whatever its runs still do is written into the old thread,
   * not the new one. Carbon's restart does this by itself when the adapter
   * has seen the instance (its event bus).
   */
  reset(): void {
    this.adopt(this.makeThread(undefined));
  }

  /**
   * Carbon's `customLoadHistory`: the thread of `threadId`, its latest
   * `shownTurns`, from the agent's server where it keeps threads (a run
   * still going on it streams on into the chat), else as `persistence`
   * stored it (docs/persistence.md).
   */
  readonly loadHistory: CustomLoadHistory = async (instance) => {
    if (instance) this.carbonEvents.follow((this.lastInstance = instance));
    const { threadId } = this;
    // A thread the adapter made itself has nothing to restore on the agent's server.
    if (this.keptOnServer && threadId !== this.viewOptions.threadId) return [];
    const opened = await this.kept.open(threadId);
    if (this.threadId !== threadId || opened === "none") return [];
    if ("notice" in opened) {
      this.reset();
      return [notRestoredNotice(this.thread.now(), opened.notice)];
    }
    this.adopt(opened.thread);
    if (opened.running && instance) this.rejoin(opened.thread, opened.running, instance);
    return opened.chat;
  };

  /** Whether the agent's server keeps the threads. */
  protected abstract readonly keptOnServer: boolean;

  /** How many earlier turns of a restored thread its chat does not show yet; `showEarlierHistory` inserts them. */
  get earlierTurns(): number {
    return this.kept.earlierTurns(this.thread);
  }

  showEarlierHistory(instance: CarbonThreadInstance, turns?: number): Promise<void> {
    return this.kept.showEarlier(this.thread, instance, turns);
  }

  /** The threads, latest first: the agent's server's where it lists them (`threads`), else the store's. */
  listThreads(): Promise<ThreadSummary[]> {
    return this.kept.list();
  }

  /** A new thread, and Carbon's chat cleared (as a `clearConversation()` of the host's on an instance the adapter follows). */
  async newThread(instance?: CarbonThreadInstance): Promise<void> {
    this.reset();
    if (instance) await this.carbonEvents.clear(instance);
  }

  /**
   * Switches to a thread of the agent's server or the store, Carbon's chat
   * replaced. One neither holds starts empty under that id; with `threads`,
   * one the server cannot give shows why in one line, on a new thread.
   */
  async switchThread(threadId: string, instance: CarbonThreadInstance): Promise<void> {
    if (threadId === this.threadId) return;
    this.carbonEvents.follow((this.lastInstance = instance));
    const opened = await this.kept.open(threadId);
    this.adopt(typeof opened === "object" && "thread" in opened ? opened.thread : this.makeThread(opened === "none" ? threadId : randomId()));
    await this.carbonEvents.clear(instance);
    if (opened === "none") return;
    if ("notice" in opened) return instance.messaging.insertHistory([notRestoredNotice(this.thread.now(), opened.notice)]);
    await instance.messaging.insertHistory(opened.chat);
    if (opened.running) this.rejoin(opened.thread, opened.running, instance);
  }

  /** Deletes a thread, on the agent's server too where it deletes threads; the current one is replaced by a new thread. */
  async deleteThread(threadId: string, instance?: CarbonThreadInstance): Promise<void> {
    if (threadId === this.threadId) await this.newThread(instance);
    await this.kept.remove(threadId);
  }

  /** Stops what streams and saves the current thread now, as the page does when it goes away. */
  saveNow(): Promise<void> {
    return this.kept.saveNow(this.thread);
  }

  /** The versions bar of the latest answer (`answerVersions`): under which response, which version of how many, whether it may be asked again. */
  get answerVersions$(): Observable<AnswerVersionsState | undefined> {
    return this.branches.answerVersions$;
  }

  /**
   * Asks the latest question again (the versions bar's Regenerate): after the turn playing now, the answer shown is set
   * aside as a version (a branch of the thread's log), and the agent answers anew (`parentRunId`: the run before the
   * question). Rejects with `AgUiRegenerateError`, asked now or when its time comes, with no answer to ask again and while a card waits.
   */
  regenerate(instance: CarbonVersionsInstance, options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.branches.regenerate(instance, options.signal);
  }

  /** Shows version `index` (from 0) of the latest answer in its place, the one the next run builds on. Rejects with `AgUiRegenerateError` for no such version, and while a card waits. */
  switchVersion(index: number, instance: CarbonVersionsInstance): Promise<void> {
    return this.branches.switchVersion(index, instance);
  }

  /** The questions of the thread's branch (Carbon's ids), each with its versions (an edit adds one) and whether it may be edited now. */
  get questionVersions$(): Observable<QuestionVersionsState[]> {
    return this.branches.questionVersions$;
  }

  /**
   * Edits question `requestId` (the latest or an earlier one): it and everything after it leave the chat and the history
   * the agent gets, and `text` is sent as a new message on a new branch of the thread's log, its answer streaming where
   * the old one was; the branch left is kept (`switchQuestion`). `startEdit` begins the same from Carbon's input. Rejects
   * with `AgUiEditError` for a question the branch does not hold, while a card waits and while a turn plays.
   */
  editQuestion(requestId: string, text: string, instance: CarbonEditInstance): Promise<void> {
    return this.branches.editQuestion(requestId, text, instance);
  }

  /** Puts question `requestId`'s text in Carbon's input: the next message the person sends takes its place, as `editQuestion`. `cancelEdit` lets go of it. */
  startEdit(requestId: string, instance: CarbonEditInstance): void {
    this.branches.startEdit(requestId, instance);
  }

  cancelEdit(): void {
    this.branches.cancelEdit();
  }

  /** Shows version `index` (from 0) of question `requestId` in its place, with what followed it there: the branch the next run builds on. */
  switchQuestion(index: number, requestId: string, instance: CarbonEditInstance): Promise<void> {
    return this.branches.switchQuestion(index, requestId, instance);
  }
}
