import type { Message, TokenUsage } from "@ag-ui/core";
import { BehaviorSubject, distinctUntilChanged, map, switchMap, type Observable } from "rxjs";
import type { Activity, CardAnswer, Conversation } from "../conversation";
import type { CarbonAgUiError } from "../errors";
import type { PendingInterrupt } from "../hitl";
import type { ThreadLogData } from "../thread/log";
import type { Replayed } from "../thread/replay";
import { randomId } from "../internal/ids";
import { Thread } from "../thread/thread";
import type { ResolvedOptions } from "./options";

/**
 * The adapter's thread, as the host reads it: the current one (which
 * `reset()` and a thread switch replace; a turn keeps the one it began on)
 * and, for each of its views, the value now and an Observable that follows
 * the current thread's current branch. Every view is a projection of the
 * thread's log (see `Thread`).
 */
export abstract class ThreadViews {
  protected readonly threads: BehaviorSubject<Thread>;

  constructor(protected readonly viewOptions: Pick<ResolvedOptions, "threadId" | "initialMessages" | "replay" | "scheduler" | "onWarning">) {
    const { threadId, initialMessages } = viewOptions;
    this.threads = new BehaviorSubject(this.makeThread(threadId, initialMessages));
  }

  protected get thread(): Thread {
    return this.threads.value;
  }

  protected get conversation(): Conversation {
    return this.thread.conversation;
  }

  /** The AG-UI thread id of this conversation; `reset()` starts a new one. */
  get threadId(): string {
    return this.thread.threadId;
  }

  /** The thread id, at once and on every change (a reset, a restart, a switch): for a page that keeps it in its URL. */
  get threadId$(): Observable<string> {
    return this.threads.pipe(
      map((thread) => thread.threadId),
      distinctUntilChanged(),
    );
  }

  /** The conversation so far, as AG-UI messages: what the next run sends. */
  get messages(): readonly Message[] {
    return this.conversation.messages;
  }

  get messages$(): Observable<readonly Message[]> {
    return this.follow((conversation) => conversation.messages$);
  }

  /** The shared state (frozen), sent with the next run. */
  get state(): unknown {
    return this.conversation.state;
  }

  get state$(): Observable<unknown> {
    return this.follow((conversation) => conversation.state$);
  }

  /** Interrupts awaiting their answer, oldest first, each with the decision taken so far. */
  get pendingInterrupts(): readonly PendingInterrupt[] {
    return this.conversation.pendingInterrupts;
  }

  /** The oldest pending interrupt (it may already hold a decision not yet sent). */
  get pendingInterrupt(): PendingInterrupt | undefined {
    return this.conversation.pendingInterrupts[0];
  }

  get pendingInterrupts$(): Observable<readonly PendingInterrupt[]> {
    return this.follow((conversation) => conversation.pendingInterrupts$);
  }

  /** The tokens the thread's runs reported using, summed by provider and model (`aggregateTokenUsage`); see `onUsage` for each run's. */
  get usage(): readonly TokenUsage[] {
    return this.conversation.usage;
  }

  get usage$(): Observable<readonly TokenUsage[]> {
    return this.follow((conversation) => conversation.usage$);
  }

  /** The thread's activities (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA), by message id. */
  get activities(): ReadonlyMap<string, Activity> {
    return this.conversation.activities;
  }

  /**
   * The activity of `messageId` in the current conversation (undefined while
   * it has none), then each change of it; a reset, a thread switch or a
   * version switched to follow the new one. What an A2UI surface's renderer draws.
   */
  activity$(messageId: string): Observable<Activity | undefined> {
    return this.follow((conversation) => conversation.activity$(messageId));
  }

  /** Whether an A2UI surface of this thread can still be acted on: it is of the latest answer (see `Conversation.isActivityCurrent`). */
  isSurfaceCurrent(activityId: string): boolean {
    return this.conversation.isActivityCurrent(activityId);
  }

  /** The adapter's clock (its `scheduler`'s): what an interrupt's expiry is read on, when a card is drawn and when it is answered alike. */
  now(): number {
    return this.viewOptions.scheduler.now();
  }

  /** Reports a warning of the host's or a renderer's (a surface's refused URL, a limit) where the adapter's own go: `onWarning`. */
  warn(warning: CarbonAgUiError): void {
    this.viewOptions.onWarning(warning);
  }

  /** How an interrupt of this thread was answered once the answer went, for a restored card. */
  interruptAnswer(interruptId: string): CardAnswer | undefined {
    return this.conversation.answerOf(interruptId);
  }

  /** A thread of this adapter: its log `from` (or new, with `initialMessages`), replayed by the adapter's stages. */
  protected makeThread(threadId: string | undefined, initialMessages?: readonly Message[], from?: { log: ThreadLogData; replayed?: Replayed }): Thread {
    const { replay } = this.viewOptions;
    if (from) return new Thread(from.log.threadId, replay, from.log, from.replayed);
    const thread = new Thread(threadId ?? randomId(), replay);
    if (initialMessages && initialMessages.length > 0) thread.seed(initialMessages);
    return thread;
  }

  private follow<T>(view: (conversation: Conversation) => Observable<T>): Observable<T> {
    return this.threads.pipe(
      switchMap((thread) => thread.conversation$),
      switchMap(view),
    );
  }
}

