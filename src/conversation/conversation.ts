import { aggregateTokenUsage, type Interrupt, type Message, type TokenUsage, type ToolCall } from "@ag-ui/core";
import { BehaviorSubject, defer, filter, startWith, Subject, type Observable, type SchedulerLike } from "rxjs";
import type { InterruptDecision, PendingInterrupt } from "../hitl";
import { deepFreeze } from "../internal/deepFreeze";
import { frameScheduler } from "../internal/frameScheduler";
import { randomId } from "../internal/ids";
import { applyPatchAtomically, type PatchOutcome } from "../internal/jsonPatch";
import { History, type HeldCall, type HistoryMessage } from "./history";
import { SharedStateDocument } from "./sharedStateDocument";

/** A running activity (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA), by the message id it belongs to. */
export interface Activity {
  readonly messageId: string;
  readonly activityType: string;
  /** Frozen: each change makes a new one. */
  readonly content: Readonly<Record<string, unknown>>;
  /** The person's message the activity began in answer to (the history's last one then), if any. */
  readonly requestId?: string;
}

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

type ActivityMessage = Extract<Message, { role: "activity" }>;

/** An answer's part of a conversation: its messages, and the activities it made. */
export interface AnswerMessages {
  messages: HistoryMessage[];
  activities: Activity[];
}

/**
 * What outlives a turn: the thread id, its `History`, its shared state (a
 * `SharedStateDocument`), activities, pending interrupts, and the
 * clarification last shown. The adapter owns one; `applyToConversation()`
 * writes a run's changes into it. Reading is cheap: every value handed out
 * is an immutable snapshot.
 */
export class Conversation {
  /** The AG-UI thread the conversation is. */
  readonly threadId: string;
  private readonly history: History;
  private readonly sharedState: SharedStateDocument;
  private readonly activityMap = new Map<string, Activity>();
  /** Each activity as it changes. */
  private readonly activityChanges = new Subject<Activity>();
  /** Interrupts awaiting their resume, by id in arrival order. */
  private readonly pendingSubject = new BehaviorSubject<readonly PendingInterrupt[]>(Object.freeze([]));
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
    for (const message of messages) if (message.role === "activity") this.putActivityMessage(message);
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

  /** Replaces the shared state (a STATE_SNAPSHOT); any JSON value. */
  replaceState(state: unknown): void {
    this.sharedState.replace(state);
  }

  /** Applies an RFC 6902 patch to the shared state (a STATE_DELTA), all or nothing; see `PatchOutcome`. */
  patchState(patch: readonly unknown[]): PatchOutcome {
    return this.sharedState.patch(patch);
  }

  /** Adds a message, or updates the one with the same id where it stands (see `History.upsert`); an `activity` message is an activity. */
  upsertMessage(message: Message): void {
    if (message.role === "activity") this.putActivityMessage(message);
    else this.history.upsert(message);
  }

  /** Adds each of `messages` the history does not hold, in order: what a run was given, as its RUN_STARTED echoes it (as `@ag-ui/client` applies it). */
  addMissingMessages(messages: readonly Message[]): void {
    for (const message of messages) if (!this.hasMessage(message.id)) this.upsertMessage(message);
  }

  /** Holds the place in the history of a message that has just started (see `History.reserve`). */
  reserveMessage(id: string, role: "assistant" | "user" | "system" | "developer" | "reasoning", subagentRunId?: string): void {
    this.history.reserve(id, role, subagentRunId);
  }

  /**
   * Replaces the history with `messages` (a MESSAGES_SNAPSHOT), reconciled by
   * id as `@ag-ui/client` does (see `History.replace`). Its `activity`
   * messages replace the activities (when it has any).
   */
  replaceMessages(messages: readonly Message[]): void {
    const activities = messages.filter((message): message is ActivityMessage => message.role === "activity");
    this.history.replace(messages.filter((message): message is HistoryMessage => message.role !== "activity"));
    if (activities.length === 0) return;
    this.activityMap.clear();
    for (const message of activities) this.putActivityMessage(message);
  }

  /** The latest tool call with this id in the history, with the id of the assistant message that made it. */
  findToolCall(toolCallId: string): { call: ToolCall; messageId: string } | undefined {
    return this.history.findToolCall(toolCallId);
  }

  /** The text of every assistant message the thread's history has held, by id, those a snapshot dropped since included: what the person has seen. */
  get heldTexts(): ReadonlyMap<string, string> {
    return this.history.heldTexts;
  }

  /** The calls the history has held a result of, as it held them: a later run that announces one again replays it. */
  answeredCalls(): Map<string, HeldCall> {
    return this.history.answeredCalls();
  }

  /** Whether the history holds a message with this id (or the place of one that has started). */
  hasMessage(id: string): boolean {
    return this.history.has(id);
  }

  /** Attaches a provider's encrypted reasoning value to its message or tool call (see `History.attachEncryptedValue`). */
  attachEncryptedValue(subtype: "message" | "tool-call", entityId: string, encryptedValue: string): void {
    this.history.attachEncryptedValue(subtype, entityId, encryptedValue);
  }

  /** The activities of this thread, by message id. */
  get activities(): ReadonlyMap<string, Activity> {
    return this.activityMap;
  }

  /** The activity of `messageId` now (undefined while there is none), then each change of it. */
  activity$(messageId: string): Observable<Activity | undefined> {
    return defer(() =>
      this.activityChanges.pipe(
        filter((activity) => activity.messageId === messageId),
        startWith(this.activityMap.get(messageId)),
      ),
    );
  }

  /**
   * Whether the activity of `messageId` belongs to the latest of the
   * person's messages: no message of theirs came after the one it began in
   * answer to. (A form of an earlier answer is not acted on.)
   */
  isActivityCurrent(messageId: string): boolean {
    const activity = this.activityMap.get(messageId);
    return activity !== undefined && activity.requestId === this.history.lastRequestId();
  }

  /**
   * Sets aside the answer to the person's message `requestId`: the messages
   * after it (the history then ends with the question) and the activities
   * made in answer to it. What `putAnswer` puts back.
   */
  takeAnswer(requestId: string): AnswerMessages {
    const activities = [...this.activityMap.values()].filter((activity) => activity.requestId === requestId);
    for (const activity of activities) this.activityMap.delete(activity.messageId);
    return { messages: this.history.takeAfter(requestId) as HistoryMessage[], activities };
  }

  /** Puts an answer set aside (`takeAnswer`) back after the question. */
  putAnswer(answer: AnswerMessages): void {
    this.history.appendAll(answer.messages);
    for (const activity of answer.activities) this.restoreActivity(activity);
  }

  /** Puts back an activity as it was kept (its `requestId` included), as a stored conversation is restored. */
  restoreActivity(activity: Activity): void {
    this.putActivity({ ...activity, content: structuredClone(activity.content) });
  }

  /** Sets an activity (ACTIVITY_SNAPSHOT). */
  setActivity(messageId: string, activityType: string, content: Record<string, unknown>): Activity {
    return this.putActivity({ messageId, activityType, content: structuredClone(content) });
  }

  /** Applies an RFC 6902 patch to an activity's content (ACTIVITY_DELTA), all or nothing; undefined when there is no such activity. */
  patchActivity(messageId: string, activityType: string, patch: readonly unknown[]): { outcome: PatchOutcome; activity: Activity } | undefined {
    const existing = this.activityMap.get(messageId);
    if (!existing) return undefined;
    const outcome = applyPatchAtomically(structuredClone(existing.content), patch);
    if (outcome.error !== undefined) return { outcome, activity: existing };
    return { outcome, activity: this.putActivity({ messageId, activityType, content: outcome.document as Record<string, unknown> }) };
  }

  /** Interrupts awaiting their resume, oldest first, each with the decision taken so far. */
  get pendingInterrupts(): readonly PendingInterrupt[] {
    return this.pendingSubject.value;
  }

  /** The pending interrupts, republished on every change (for decision-card renderers). */
  get pendingInterrupts$(): Observable<readonly PendingInterrupt[]> {
    return this.pendingSubject.asObservable();
  }

  /** Adds interrupts to those awaiting a resume, after the ones already there; an id already pending is ignored. */
  addPendingInterrupts(interrupts: readonly Interrupt[]): void {
    const pending = [...this.pendingInterrupts];
    for (const interrupt of interrupts) {
      if (!pending.some((entry) => entry.interrupt.id === interrupt.id)) pending.push({ interrupt: structuredClone(interrupt) });
    }
    this.publishPending(pending);
  }

  /** Records the decision for a pending interrupt (replacing an earlier one). */
  decideInterrupt(interruptId: string, decision: InterruptDecision): void {
    this.publishPending(this.pendingInterrupts.map((entry) => (entry.interrupt.id === interruptId ? { interrupt: entry.interrupt, decision: structuredClone(decision) } : entry)));
  }

  /** Takes every pending interrupt out, for a resume run. */
  takePendingInterrupts(): readonly PendingInterrupt[] {
    const taken = this.pendingInterrupts;
    this.publishPending([]);
    return taken;
  }

  /** Puts interrupts back, with their decisions, ahead of any that arrived since (a resume that failed before its first event). */
  restorePendingInterrupts(entries: readonly PendingInterrupt[]): void {
    const arrivedSince = this.pendingInterrupts.filter((entry) => !entries.some((restored) => restored.interrupt.id === entry.interrupt.id));
    this.publishPending([...entries, ...arrivedSince]);
  }

  /**
   * The question of the clarification card shown for the state as it is now,
   * if one was: the agent has not asked anew (its state still carries an
   * answered question), so that card is not shown again.
   */
  get clarificationShownForState(): string | undefined {
    return this.shownClarification?.stateVersion === this.sharedState.version ? this.shownClarification.question : undefined;
  }

  /** Notes that a clarification card for `question` was shown, for the state as it is now. */
  noteClarificationShown(question: string): void {
    this.shownClarification = { question, stateVersion: this.sharedState.version };
  }

  private publishPending(pending: readonly PendingInterrupt[]): void {
    this.pendingSubject.next(deepFreeze([...pending]));
  }

  private putActivityMessage(message: ActivityMessage): void {
    this.putActivity({ messageId: message.id, activityType: message.activityType, content: structuredClone(message.content) });
  }

  /** Keeps `activity`; one without a `requestId` keeps its earlier one, or, new, takes the history's last message of the person's. */
  private putActivity(activity: Activity): Activity {
    const requestId = activity.requestId ?? this.activityMap.get(activity.messageId)?.requestId ?? this.history.lastRequestId();
    const frozen = deepFreeze({ ...activity, ...(requestId !== undefined && { requestId }) });
    this.activityMap.set(activity.messageId, frozen);
    this.activityChanges.next(frozen);
    return frozen;
  }
}
