import type { Interrupt, Message, ToolCall } from "@ag-ui/core";
import {
  auditTime,
  BehaviorSubject,
  defer,
  map,
  startWith,
  Subject,
  type Observable,
  type SchedulerLike,
} from "rxjs";
import type { InterruptDecision, PendingInterrupt } from "./hitl";
import { deepFreeze } from "./internal/deepFreeze";
import { frameScheduler } from "./internal/frameScheduler";
import { randomId } from "./internal/ids";
import { applyPatchAtomically, type PatchOutcome } from "./internal/jsonPatch";

/** A running activity (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA), by the message id it belongs to. */
export interface Activity {
  readonly messageId: string;
  readonly activityType: string;
  /** Frozen: each change makes a new one. */
  readonly content: Readonly<Record<string, unknown>>;
}

export interface ConversationInit {
  /** The AG-UI thread id. Default: a fresh random id. */
  threadId?: string;
  /** History to start from (e.g. restored from storage). */
  messages?: readonly Message[];
  /** Shared state to start from, and to return to on `reset()`. */
  state?: unknown;
  /**
   * Paces `state$`: at most one snapshot per task of this scheduler, however
   * many deltas arrive. Default: animation frames in a browser, else the
   * async (macrotask) scheduler.
   */
  scheduler?: SchedulerLike;
}

const MAX_PENDING_ENCRYPTED_VALUES = 256;

/**
 * What outlives a turn: the thread id, the message history, the shared
 * state, activities and pending interrupts. The adapter owns one;
 * `applyToConversation()` writes a run's changes into it.
 *
 * Reading is cheap: `messages` is an immutable snapshot, republished once per
 * changed message (never per streamed event).
 *
 * The shared state is kept as a private working copy that deltas change in
 * place, at a cost that follows the delta, not the state. Readers get a
 * frozen snapshot, made when first read after a change; `state$` publishes
 * one at most once per scheduler task, so a burst of deltas to a large state
 * costs one copy, not one per delta.
 */
export class Conversation {
  private threadIdValue: string;
  private readonly list: Message[] = [];
  /** Position of each message in `list`, by id, so a message is replaced in place. */
  private readonly positions = new Map<string, number>();
  /**
   * Ids whose place in `list` is held for a message that has started but has
   * nothing to keep yet (see `reserveMessage`); left out of `messages`.
   */
  private readonly reserved = new Set<string>();
  private readonly messagesSubject = new BehaviorSubject<readonly Message[]>(Object.freeze([]));
  private readonly activityMap = new Map<string, Activity>();
  /** Interrupts awaiting their resume, by id in arrival order. */
  private readonly pendingSubject = new BehaviorSubject<readonly PendingInterrupt[]>(Object.freeze([]));
  /** Encrypted values that came before their message or tool call, by `${subtype}:${entityId}`; capped. */
  private readonly pendingEncryptedValues = new Map<string, string>();
  /** The state deltas change in place; never handed out. */
  private stateDocument: unknown;
  /** The frozen copy readers get, valid while `stateChangedSinceSnapshot` is false. */
  private stateSnapshot: unknown;
  private stateChangedSinceSnapshot = true;
  /** How many times the shared state changed: a clarification asked at this version was asked already. */
  private stateVersion = 0;
  /** The clarification card last shown on this thread, and the state it was shown for. */
  private shownClarification: { question: string; stateVersion: number } | undefined;
  private readonly stateChanges = new Subject<void>();

  /** The history, republished on every change. */
  readonly messages$: Observable<readonly Message[]> = this.messagesSubject.asObservable();
  /** The shared state: the current snapshot at once, then the latest after each burst of changes. */
  readonly state$: Observable<unknown>;

  constructor(private readonly init: ConversationInit = {}) {
    this.threadIdValue = init.threadId ?? randomId();
    this.stateDocument = structuredClone(init.state);
    const scheduler = init.scheduler ?? frameScheduler();
    this.state$ = defer(() =>
      this.stateChanges.pipe(
        auditTime(0, scheduler),
        map(() => this.state),
        startWith(this.state),
      ),
    );
    for (const message of init.messages ?? []) this.place(message);
    this.publishMessages();
  }

  get threadId(): string {
    return this.threadIdValue;
  }

  get messages(): readonly Message[] {
    return this.messagesSubject.value;
  }

  /** The shared state now, frozen. */
  get state(): unknown {
    if (this.stateChangedSinceSnapshot) {
      this.stateSnapshot = deepFreeze(structuredClone(this.stateDocument));
      this.stateChangedSinceSnapshot = false;
    }
    return this.stateSnapshot;
  }

  /** Replaces the shared state (a STATE_SNAPSHOT); any JSON value. */
  replaceState(state: unknown): void {
    this.stateDocument = structuredClone(state);
    this.stateChanged();
  }

  /** Applies an RFC 6902 patch to the shared state (a STATE_DELTA), all or nothing; see `PatchOutcome`. */
  patchState(patch: readonly unknown[]): PatchOutcome {
    const outcome = applyPatchAtomically(this.stateDocument, patch);
    this.stateDocument = outcome.document;
    if (outcome.error === undefined) this.stateChanged();
    return outcome;
  }

  /**
   * Adds a message, or updates the one with the same id where it stands. An
   * update of the same role keeps the fields it does not carry and merges tool
   * calls by id, so an assistant message's text and its tool calls can arrive
   * in either order, and in several runs. As in `@ag-ui/client`:
   *
   * - a new `tool` message goes right after the assistant message holding its
   *   call (and the results already there), so a result always follows its call;
   * - tool calls sent under the id of a message that is not an assistant's
   *   (a `parentMessageId` naming the user's message) each go to an assistant
   *   message of their own, named after the call, and leave that message alone;
   * - an `activity` message is an activity (see `activities`), not history:
   *   the agent is not sent it back.
   */
  upsertMessage(message: Message): void {
    this.place(message);
    this.publishMessages();
  }

  /**
   * Holds the place in the history of a message that has just started (its
   * START event), so that the history keeps the order in which messages
   * began, as `@ag-ui/client` does, whenever each is complete. The place
   * stays out of `messages` until the message (or an encrypted value for it)
   * arrives; a message that never has anything to keep leaves no trace.
   */
  reserveMessage(id: string, role: "assistant" | "user" | "system" | "developer" | "reasoning"): void {
    if (this.positions.has(id)) return;
    this.positions.set(id, this.list.length);
    this.list.push((role === "assistant" ? { id, role } : { id, role, content: "" }) as Message);
    this.reserved.add(id);
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

  /** The activities of this thread, by message id. */
  get activities(): ReadonlyMap<string, Activity> {
    return this.activityMap;
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

  /**
   * Replaces the history with `messages` (a MESSAGES_SNAPSHOT), reconciled by
   * id as `@ag-ui/client` does: the messages we hold that the snapshot has
   * stay where they are, as the snapshot has them (keeping an
   * `encryptedValue` only we had); the others go, except reasoning messages
   * when the snapshot has none (a server that does not keep them); the
   * snapshot's new messages follow, in its order. Its `activity` messages
   * replace the activities (when it has any).
   */
  replaceMessages(messages: readonly Message[]): void {
    const snapshot = new Map<string, Message>();
    const activities: Message[] = [];
    for (const message of messages) {
      if (message.role === "activity") activities.push(message);
      else snapshot.set(message.id, message);
    }
    const keepReasoning = ![...snapshot.values()].some((message) => message.role === "reasoning");
    const previous = this.list.slice();
    const wasReserved = new Set(this.reserved);
    this.list.length = 0;
    this.positions.clear();
    this.reserved.clear();
    for (const known of previous) {
      const update = snapshot.get(known.id);
      if (update) {
        const encryptedValue = (known as { encryptedValue?: string }).encryptedValue;
        const keepsValue = known.role === update.role && encryptedValue !== undefined && (update as { encryptedValue?: string }).encryptedValue === undefined;
        this.place(keepsValue ? ({ ...update, encryptedValue } as Message) : update);
      } else if (known.role === "reasoning" && keepReasoning) {
        if (wasReserved.has(known.id)) this.reserveMessage(known.id, "reasoning");
        else this.place(known);
      }
    }
    for (const message of snapshot.values()) if (!this.positions.has(message.id)) this.place(message);
    if (activities.length > 0) {
      this.activityMap.clear();
      for (const message of activities) this.place(message);
    }
    this.publishMessages();
  }

  /** The latest tool call with this id in the history, with the id of the assistant message that made it. */
  findToolCall(toolCallId: string): { call: ToolCall; messageId: string } | undefined {
    for (let position = this.list.length - 1; position >= 0; position--) {
      const message = this.list[position]!;
      const call = message.role === "assistant" ? message.toolCalls?.find((candidate) => candidate.id === toolCallId) : undefined;
      if (call) return { call, messageId: message.id };
    }
    return undefined;
  }

  /** Whether the history holds a message with this id (or the place of one that has started). */
  hasMessage(id: string): boolean {
    return this.positions.has(id);
  }

  /**
   * Attaches a provider's encrypted reasoning value to the message or tool
   * call it belongs to, to be sent back with later runs. One that arrives
   * before its message or tool call waits for it (at most 256 wait).
   */
  attachEncryptedValue(subtype: "message" | "tool-call", entityId: string, encryptedValue: string): void {
    if (this.applyEncryptedValue(subtype, entityId, encryptedValue)) return this.publishMessages();
    if (this.pendingEncryptedValues.size >= MAX_PENDING_ENCRYPTED_VALUES) {
      this.pendingEncryptedValues.delete(this.pendingEncryptedValues.keys().next().value as string);
    }
    this.pendingEncryptedValues.set(`${subtype}:${entityId}`, encryptedValue);
  }

  /**
   * The question of the clarification card shown for the state as it is now,
   * if one was: the agent has not asked anew (its state still carries an
   * answered question), so that card is not shown again.
   */
  get clarificationShownForState(): string | undefined {
    return this.shownClarification?.stateVersion === this.stateVersion ? this.shownClarification.question : undefined;
  }

  /** Notes that a clarification card for `question` was shown, for the state as it is now. */
  noteClarificationShown(question: string): void {
    this.shownClarification = { question, stateVersion: this.stateVersion };
  }

  /** Starts a new thread: a new thread id, no history, the initial state, no activities or pending interrupts. */
  reset(threadId: string = randomId()): void {
    this.threadIdValue = threadId;
    this.list.length = 0;
    this.positions.clear();
    this.reserved.clear();
    this.pendingEncryptedValues.clear();
    this.activityMap.clear();
    this.shownClarification = undefined;
    this.publishPending([]);
    this.publishMessages();
    this.replaceState(this.init.state);
  }

  private place(message: Message): void {
    if (message.role === "activity") {
      this.putActivity({ messageId: message.id, activityType: message.activityType, content: structuredClone(message.content) });
      return;
    }
    const position = this.positions.get(message.id);
    const existing = position === undefined ? undefined : this.list[position]!;
    const toolCalls = (message as { toolCalls?: ToolCall[] }).toolCalls;
    if (existing && existing.role !== "assistant" && message.role === "assistant" && toolCalls && !this.reserved.has(message.id)) {
      // Tool calls under another role's message: each in an assistant message of its own, as @ag-ui/client does.
      for (const call of toolCalls) this.place({ id: call.id, role: "assistant", toolCalls: [call] });
      return;
    }
    if (position === undefined) {
      this.insert(message.role === "tool" ? this.resultPosition(message.toolCallId) : this.list.length, message);
    } else if (this.reserved.delete(message.id)) {
      this.list[position] = message;
    } else {
      this.list[position] = existing!.role === message.role ? mergeMessages(existing!, message) : message;
    }
    if (this.pendingEncryptedValues.size > 0) this.applyPendingEncryptedValues(this.list[this.positions.get(message.id)!]!);
  }

  /** Where a new result of `toolCallId` goes: after the assistant message holding the call and the results after it; else last. */
  private resultPosition(toolCallId: string): number {
    const owner = this.list.findIndex((message) => message.role === "assistant" && message.toolCalls?.some((call) => call.id === toolCallId));
    if (owner === -1) return this.list.length;
    let position = owner + 1;
    while (position < this.list.length && this.list[position]!.role === "tool") position++;
    return position;
  }

  private insert(position: number, message: Message): void {
    this.list.splice(position, 0, message);
    for (let at = position; at < this.list.length; at++) this.positions.set(this.list[at]!.id, at);
  }

  private applyPendingEncryptedValues(message: Message): void {
    const ids = [`message:${message.id}`, ...((message as { toolCalls?: ToolCall[] }).toolCalls ?? []).map((call) => `tool-call:${call.id}`)];
    for (const key of ids) {
      const value = this.pendingEncryptedValues.get(key);
      if (value === undefined) continue;
      this.pendingEncryptedValues.delete(key);
      const [subtype, ...rest] = key.split(":");
      this.applyEncryptedValue(subtype as "message" | "tool-call", rest.join(":"), value);
    }
  }

  /** Sets the value on its message or tool call; false when neither is in the history yet. */
  private applyEncryptedValue(subtype: "message" | "tool-call", entityId: string, encryptedValue: string): boolean {
    if (subtype === "message") {
      const position = this.positions.get(entityId);
      if (position === undefined) return false;
      // A message with nothing but its encrypted value (encrypted reasoning) is kept for it.
      this.reserved.delete(entityId);
      this.list[position] = { ...this.list[position]!, encryptedValue } as Message;
      return true;
    }
    for (let position = this.list.length - 1; position >= 0; position--) {
      const message = this.list[position] as Message & { toolCalls?: ToolCall[] };
      if (!message.toolCalls?.some((call) => call.id === entityId)) continue;
      const toolCalls = message.toolCalls.map((call) => (call.id === entityId ? { ...call, encryptedValue } : call));
      this.list[position] = { ...message, toolCalls } as Message;
      return true;
    }
    return false;
  }

  private publishPending(pending: readonly PendingInterrupt[]): void {
    this.pendingSubject.next(deepFreeze([...pending]));
  }

  private putActivity(activity: Activity): Activity {
    const frozen = deepFreeze(activity);
    this.activityMap.set(activity.messageId, frozen);
    return frozen;
  }

  private stateChanged(): void {
    this.stateVersion++;
    this.stateChangedSinceSnapshot = true;
    this.stateChanges.next();
  }

  private publishMessages(): void {
    const messages = this.reserved.size === 0 ? this.list.slice() : this.list.filter((message) => !this.reserved.has(message.id));
    this.messagesSubject.next(Object.freeze(messages));
  }
}

/** A message updated by another of the same id and role: its fields win, tool calls are merged by id. */
function mergeMessages(existing: Message, update: Message): Message {
  const merged = { ...existing, ...update } as Message & { toolCalls?: ToolCall[] };
  const before = (existing as { toolCalls?: ToolCall[] }).toolCalls;
  const after = (update as { toolCalls?: ToolCall[] }).toolCalls;
  if (before && after) {
    const byId = new Map(before.map((call) => [call.id, call]));
    for (const call of after) byId.set(call.id, { ...byId.get(call.id), ...call });
    merged.toolCalls = [...byId.values()];
  }
  return merged;
}
