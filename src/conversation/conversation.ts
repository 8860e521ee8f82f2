import { aggregateTokenUsage, type Interrupt, type Message, type TokenUsage, type ToolCall } from "@ag-ui/core";
import { BehaviorSubject, type Observable, type SchedulerLike } from "rxjs";
import type { InterruptDecision, PendingInterrupt } from "../hitl";
import { deepFreeze } from "../internal/deepFreeze";
import { frameScheduler } from "../internal/frameScheduler";
import { randomId } from "../internal/ids";
import type { PatchOutcome } from "../internal/jsonPatch";
import { Activities, type Activity } from "./activities";
import { History, type HeldCall, type HistoryMessage } from "./history";
import { PendingCards, type CardAnswer } from "./pendingCards";
import { SharedStateDocument } from "./sharedStateDocument";

export type { Activity } from "./activities";
export type { CardAnswer } from "./pendingCards";

export interface ConversationInit {
  /** The AG-UI thread id. Default: a fresh random id. */
  threadId?: string;
  /** History to start from (e.g. restored from storage); its `activity` messages are activities. */
  messages?: readonly Message[];
  /** Shared state to start from. Default `{}`. */
  state?: unknown;
  /** The tokens the thread's runs used so far (see `usage`). */
  usage?: readonly TokenUsage[];
  /**
   * Paces `state$`: at most one snapshot per task of this scheduler, however
   * many deltas arrive. Default: animation frames in a browser, else the
   * async (macrotask) scheduler.
   */
  scheduler?: SchedulerLike;
}

/**
 * A thread as the chat goes on from it: its id, its `History`, its shared
 * state (a `SharedStateDocument`), its `Activities`, its decision cards
 * (`PendingCards`: what waits, how each was answered), usage, and the
 * clarification last shown. It is the projection of the thread's log: the
 * adapter's pipeline (`applyToConversation()`) and its acts (see
 * `src/thread/fold.ts`) write it, nothing else. Reading is cheap: every
 * value handed out is an immutable snapshot.
 */
export class Conversation {
  /** The AG-UI thread the conversation is. */
  readonly threadId: string;
  private readonly history: History;
  private readonly sharedState: SharedStateDocument;
  private readonly activityList: Activities;
  private readonly cards = new PendingCards();
  /** The tokens the thread's runs reported, summed by provider and model. */
  private readonly usageSubject: BehaviorSubject<readonly TokenUsage[]>;
  /** The clarification card last shown on this thread, and the state version it was shown for. */
  private shownClarification: { question: string; stateVersion: number } | undefined;

  /** The history, republished on every change. */
  readonly messages$: Observable<readonly Message[]>;
  /** The shared state: the current snapshot at once, then the latest after each burst of changes. */
  readonly state$: Observable<unknown>;

  constructor(init: ConversationInit = {}) {
    this.threadId = init.threadId ?? randomId();
    const messages = init.messages ?? [];
    this.history = new History(messages.filter((message): message is HistoryMessage => message.role !== "activity"));
    this.activityList = new Activities(() => this.history.lastRequestId());
    for (const message of messages) if (message.role === "activity") this.activityList.setMessage(message);
    this.messages$ = this.history.messages$;
    // Python AG-UI servers (pydantic) require `state` in every run input, as HttpAgent always sends it: `{}` for none.
    this.sharedState = new SharedStateDocument(init.state === undefined ? {} : init.state, init.scheduler ?? frameScheduler());
    this.state$ = this.sharedState.state$;
    this.usageSubject = new BehaviorSubject<readonly TokenUsage[]>(deepFreeze(aggregateTokenUsage([...(init.usage ?? [])])));
  }

  /**
   * The tokens the thread's runs reported using (their RUN_FINISHED's or
   * RUN_ERROR's `usage`), summed by provider and model as `@ag-ui/core`'s
   * `aggregateTokenUsage` does; frozen.
   */
  get usage(): readonly TokenUsage[] {
    return this.usageSubject.value;
  }

  /** `usage`, at once and after each run that reports some. */
  get usage$(): Observable<readonly TokenUsage[]> {
    return this.usageSubject.asObservable();
  }

  /** Adds a run's reported usage to the thread's totals. */
  addUsage(usage: readonly TokenUsage[]): void {
    if (usage.length === 0) return;
    this.usageSubject.next(deepFreeze(aggregateTokenUsage([...this.usage, ...usage])));
  }

  get messages(): readonly Message[] {
    return this.history.messages;
  }

  /** The shared state now, frozen. */
  get state(): unknown {
    return this.sharedState.state;
  }

  /** Replaces the shared state (a STATE_SNAPSHOT). */
  replaceState(state: unknown): void {
    this.sharedState.replace(state);
  }

  /** Applies an RFC 6902 patch to the shared state (a STATE_DELTA), all or nothing; see `PatchOutcome`. */
  patchState(patch: readonly unknown[]): PatchOutcome {
    return this.sharedState.patch(patch);
  }

  /** Adds a message, or updates the one with the same id where it stands (see `History.upsert`); an `activity` message is an activity. */
  upsertMessage(message: Message): void {
    if (message.role === "activity") this.activityList.setMessage(message);
    else this.history.upsert(message);
  }

  /** Puts `messages` last, as they are (an imported history, as `@ag-ui/client` keeps its `initialMessages`); its `activity` messages are activities. */
  importMessages(messages: readonly Message[]): void {
    this.history.appendAll(messages.filter((message): message is HistoryMessage => message.role !== "activity"));
    for (const message of messages) if (message.role === "activity") this.activityList.setMessage(message);
  }

  /** Adds each of `messages` the history does not hold, in order: what a run was given, as its RUN_STARTED echoes it (as `@ag-ui/client` applies it). */
  addMissingMessages(messages: readonly Message[]): void {
    for (const message of messages) if (!this.hasMessage(message.id)) this.upsertMessage(message);
  }

  /** Holds the place in the history of a message that has just started (see `History.reserve`). */
  reserveMessage(id: string, role: "assistant" | "user" | "system" | "developer" | "reasoning", subagentRunId?: string): void {
    this.history.reserve(id, role, subagentRunId);
  }

  /** Replaces the history with `messages` (a MESSAGES_SNAPSHOT), reconciled by id (see `History.replace`); its `activity` messages, the activities. */
  replaceMessages(messages: readonly Message[]): void {
    this.history.replace(messages.filter((message): message is HistoryMessage => message.role !== "activity"));
    this.activityList.replaceWith(messages.filter((message): message is Extract<Message, { role: "activity" }> => message.role === "activity"));
  }

  /** The latest tool call with this id in the history, with the id of the assistant message that made it. */
  findToolCall(toolCallId: string): { call: ToolCall; messageId: string } | undefined {
    return this.history.findToolCall(toolCallId);
  }

  /** Whether the history holds a message with this id (or the place of one that has started). */
  hasMessage(id: string): boolean {
    return this.history.has(id);
  }

  /** The text of every assistant message the thread's history has held, by id, those a snapshot dropped since included: what the person has seen. */
  get heldTexts(): ReadonlyMap<string, string> {
    return this.history.heldTexts;
  }

  /** The calls the history has held a result of, as it held them: a later run that announces one again replays it. */
  answeredCalls(): Map<string, HeldCall> {
    return this.history.answeredCalls();
  }

  /** The id of the latest message of the person's, if any. */
  get lastRequestId(): string | undefined {
    return this.history.lastRequestId();
  }

  /** Attaches a provider's encrypted reasoning value to its message or tool call (see `History.attachEncryptedValue`). */
  attachEncryptedValue(subtype: "message" | "tool-call", entityId: string, encryptedValue: string): void {
    this.history.attachEncryptedValue(subtype, entityId, encryptedValue);
  }

  /** The activities of this thread, by message id. */
  get activities(): ReadonlyMap<string, Activity> {
    return this.activityList.all;
  }

  /** The activity of `messageId` now (undefined while there is none), then each change of it. */
  activity$(messageId: string): Observable<Activity | undefined> {
    return this.activityList.activity$(messageId);
  }

  /** Whether the activity of `messageId` belongs to the latest of the person's messages (a form of an earlier answer is not acted on). */
  isActivityCurrent(messageId: string): boolean {
    const activity = this.activities.get(messageId);
    return activity !== undefined && activity.requestId === this.history.lastRequestId();
  }

  /** Puts back an activity as it was kept (its `requestId` included), as a stored conversation is restored. */
  restoreActivity(activity: Activity): void {
    this.activityList.restore(activity);
  }

  /** Sets an activity (ACTIVITY_SNAPSHOT). */
  setActivity(messageId: string, activityType: string, content: Record<string, unknown>): Activity {
    return this.activityList.set(messageId, activityType, content);
  }

  /** Applies an RFC 6902 patch to an activity's content (ACTIVITY_DELTA), all or nothing; undefined when there is no such activity. */
  patchActivity(messageId: string, activityType: string, patch: readonly unknown[]): { outcome: PatchOutcome; activity: Activity } | undefined {
    return this.activityList.patch(messageId, activityType, patch);
  }

  /** Interrupts awaiting their answer, oldest first, each with the decision taken so far. */
  get pendingInterrupts(): readonly PendingInterrupt[] {
    return this.cards.pending;
  }

  /** The pending interrupts, republished on every change (for decision-card renderers). */
  get pendingInterrupts$(): Observable<readonly PendingInterrupt[]> {
    return this.cards.pending$;
  }

  /** Adds interrupts to those awaiting an answer, after the ones already there; an id already pending is ignored. */
  addPendingInterrupts(interrupts: readonly Interrupt[]): void {
    this.cards.add(interrupts);
  }

  /** Records the decision for a pending interrupt (replacing an earlier one). */
  decideInterrupt(interruptId: string, decision: InterruptDecision): void {
    this.cards.decide(interruptId, decision);
  }

  /** The cards `answered` are answered as each says: they wait no more. Returns them as they waited. */
  settleInterrupts(answered: readonly { interruptId: string; answer: CardAnswer }[]): PendingInterrupt[] {
    return this.cards.settle(answered);
  }

  /** How the card of `interruptId` was answered, once its answer went. */
  answerOf(interruptId: string): CardAnswer | undefined {
    return this.cards.answerOf(interruptId);
  }

  /** The question of the clarification card shown for the state as it is now, if one was: it is not shown again until the agent asks anew. */
  get clarificationShownForState(): string | undefined {
    return this.shownClarification?.stateVersion === this.sharedState.version ? this.shownClarification.question : undefined;
  }

  /** Notes that a clarification card for `question` was shown, for the state as it is now. */
  noteClarificationShown(question: string): void {
    this.shownClarification = { question, stateVersion: this.sharedState.version };
  }
}
