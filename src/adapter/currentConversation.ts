import type { Message, TokenUsage } from "@ag-ui/core";
import { BehaviorSubject, distinctUntilChanged, map, switchMap, type Observable } from "rxjs";
import { Conversation, type Activity } from "../conversation";
import type { PendingInterrupt } from "../hitl";
import type { ResolvedOptions } from "./options";

/**
 * The adapter's conversation, as the host reads it: the current one (which
 * `reset()` and a thread switch replace; a turn keeps the one it began on)
 * and, for each of its parts, the value now and an Observable that follows
 * the current conversation.
 */
export abstract class CurrentConversation {
  protected readonly conversations: BehaviorSubject<Conversation>;

  constructor(private readonly conversationOptions: Pick<ResolvedOptions, "threadId" | "initialMessages" | "initialState" | "scheduler">) {
    const { threadId, initialMessages } = conversationOptions;
    this.conversations = new BehaviorSubject(this.newConversation({ ...(threadId !== undefined && { threadId }), ...(initialMessages !== undefined && { messages: initialMessages }) }));
  }

  protected get conversation(): Conversation {
    return this.conversations.value;
  }

  /** The AG-UI thread id of this conversation; `reset()` starts a new one. */
  get threadId(): string {
    return this.conversation.threadId;
  }

  /** The thread id, at once and on every change (a reset, a restart, a switch): for a page that keeps it in its URL. */
  get threadId$(): Observable<string> {
    return this.conversations.pipe(
      map((conversation) => conversation.threadId),
      distinctUntilChanged(),
    );
  }

  /** The conversation so far, as AG-UI messages. */
  get messages(): readonly Message[] {
    return this.conversation.messages;
  }

  get messages$(): Observable<readonly Message[]> {
    return this.conversations.pipe(switchMap((conversation) => conversation.messages$));
  }

  /** The shared state (frozen), sent with the next run. */
  get state(): unknown {
    return this.conversation.state;
  }

  get state$(): Observable<unknown> {
    return this.conversations.pipe(switchMap((conversation) => conversation.state$));
  }

  /** Interrupts awaiting their resume, oldest first, each with the decision taken so far. */
  get pendingInterrupts(): readonly PendingInterrupt[] {
    return this.conversation.pendingInterrupts;
  }

  /** The oldest pending interrupt (it may already hold a decision not yet sent). */
  get pendingInterrupt(): PendingInterrupt | undefined {
    return this.conversation.pendingInterrupts[0];
  }

  get pendingInterrupts$(): Observable<readonly PendingInterrupt[]> {
    return this.conversations.pipe(switchMap((conversation) => conversation.pendingInterrupts$));
  }

  /** The tokens the thread's runs reported using, summed by provider and model (`aggregateTokenUsage`); see `onUsage` for each run's. */
  get usage(): readonly TokenUsage[] {
    return this.conversation.usage;
  }

  get usage$(): Observable<readonly TokenUsage[]> {
    return this.conversations.pipe(switchMap((conversation) => conversation.usage$));
  }

  /** The thread's activities (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA), by message id. */
  get activities(): ReadonlyMap<string, Activity> {
    return this.conversation.activities;
  }

  /**
   * The activity of `messageId` in the current conversation (undefined while
   * it has none), then each change of it; a reset or a thread switch follows
   * the new conversation. What an A2UI surface's renderer draws.
   */
  activity$(messageId: string): Observable<Activity | undefined> {
    return this.conversations.pipe(switchMap((conversation) => conversation.activity$(messageId)));
  }

  /** A conversation of this adapter: the initial state, paced by the host's scheduler. */
  protected newConversation(thread: { threadId?: string; messages?: readonly Message[] }): Conversation {
    const { initialState, scheduler } = this.conversationOptions;
    return new Conversation({ ...thread, ...(initialState !== undefined && { state: initialState }), scheduler });
  }
}
