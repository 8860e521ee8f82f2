import type { Message, ToolCall } from "@ag-ui/core";
import { BehaviorSubject, type Observable } from "rxjs";
import { findToolCall } from "../internal/findToolCall";
import { EncryptedValues } from "./encryptedValues";
import { MessageList } from "./messageList";
import { reconcileSnapshot } from "./snapshotReconciliation";

/** A call as the history holds it. */
export interface HeldCall {
  name: string;
  arguments: string;
}

/** A message of the history: any role but `activity`, which is an activity, not history. */
export type HistoryMessage = Exclude<Message, { role: "activity" }>;

/**
 * The message history of a thread, in the order `@ag-ui/client` keeps it
 * (a `MessageList`: each message's position by id, so a message is replaced
 * where it stands), republished frozen through `messages$` on each change
 * (never per streamed event). A MESSAGES_SNAPSHOT is reconciled by
 * `reconcileSnapshot`; encrypted values wait for their message in
 * `EncryptedValues`.
 */
export class History {
  private readonly list = new MessageList();
  private readonly encrypted = new EncryptedValues();
  private readonly subject = new BehaviorSubject<readonly Message[]>(Object.freeze([]));
  /**
   * What the history has held, also once a snapshot dropped it: each
   * assistant message's text, each call, and the calls it has held a result
   * of. A later run that streams one again replays it; it is not new.
   */
  private readonly held = { texts: new Map<string, string>(), calls: new Map<string, HeldCall>(), answered: new Set<string>() };

  /** The history, republished on every change. */
  readonly messages$: Observable<readonly Message[]> = this.subject.asObservable();

  /**
   * A history holding `messages` (e.g. restored from storage) in the order
   * given, as `@ag-ui/client` keeps its `initialMessages`: a tool result
   * stays where it is, also after an answer that followed its call
   * (LangGraph's threads), rather than being moved next to the call. One
   * pass: a message is appended, or, when its id came before, updated where
   * that one stands (as `upsert` does).
   */
  constructor(messages: readonly HistoryMessage[] = []) {
    for (const message of messages) {
      if (this.list.has(message.id)) this.list.place(message);
      else this.list.append(message);
      this.note(message);
    }
    this.publish();
  }

  /** The text of every assistant message the history has held, by id (the latest it held), those a snapshot dropped since included. */
  get heldTexts(): ReadonlyMap<string, string> {
    return this.held.texts;
  }

  /** Every call the history has held a result of, as it held the call. */
  answeredCalls(): Map<string, HeldCall> {
    const answered = new Map<string, HeldCall>();
    for (const toolCallId of this.held.answered) {
      const call = this.held.calls.get(toolCallId);
      if (call) answered.set(toolCallId, call);
    }
    return answered;
  }

  private note(message: Message): void {
    if (message.role === "tool") return void this.held.answered.add(message.toolCallId);
    if (message.role !== "assistant") return;
    if (typeof message.content === "string" && message.content !== "") this.held.texts.set(message.id, message.content);
    for (const call of message.toolCalls ?? []) this.held.calls.set(call.id, { name: call.function.name, arguments: call.function.arguments });
  }

  get messages(): readonly Message[] {
    return this.subject.value;
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
   *   message of their own, named after the call, and leave that message alone.
   */
  upsert(message: HistoryMessage): void {
    this.list.place(message);
    this.note(message);
    // Where it went: its own place, or, for calls under another role's message, an assistant message per call.
    for (const id of [message.id, ...((message as { toolCalls?: ToolCall[] }).toolCalls ?? []).map((call) => call.id)]) {
      const placed = this.list.get(id);
      if (placed) this.encrypted.settle(this.list, placed);
    }
    this.publish();
  }

  /**
   * Holds the place of a message that has just started (its START event), so
   * that the history keeps the order in which messages began, whenever each
   * is complete. The place stays out of `messages` until the message (or an
   * encrypted value for it) arrives; a message that never has anything to
   * keep leaves no trace.
   */
  reserve(id: string, role: "assistant" | "user" | "system" | "developer" | "reasoning", subagentRunId?: string): void {
    this.list.reserve(id, role, subagentRunId);
  }

  /**
   * Replaces the history with `messages` (a MESSAGES_SNAPSHOT), reconciled by
   * id (see `reconcileSnapshot`). A snapshot that changes nothing publishes
   * nothing.
   */
  replace(messages: readonly HistoryMessage[]): void {
    const { updated, removed } = reconcileSnapshot(this.list, messages);
    for (const message of updated) {
      this.encrypted.settle(this.list, this.list.get(message.id)!);
      this.note(message);
    }
    if (updated.length > 0 || removed) this.publish();
  }

  /** Puts `messages` last, in their order (an imported thread's). */
  appendAll(messages: readonly HistoryMessage[]): void {
    for (const message of messages) {
      if (this.list.has(message.id)) continue;
      this.list.append(message);
      this.note(message);
    }
    this.publish();
  }

  /** The latest tool call with this id, with the id of the assistant message that made it. */
  findToolCall(toolCallId: string): { call: ToolCall; messageId: string } | undefined {
    return findToolCall(this.list.items, toolCallId);
  }

  /** The id of the last message of the person's, if any. */
  lastRequestId(): string | undefined {
    const { items } = this.list;
    for (let at = items.length - 1; at >= 0; at--) if (items[at]!.role === "user") return items[at]!.id;
    return undefined;
  }

  /** Whether the history holds a message with this id (or the place of one that has started). */
  has(id: string): boolean {
    return this.list.has(id);
  }

  /** Attaches a provider's encrypted reasoning value to the message or tool call it belongs to (see `EncryptedValues`). */
  attachEncryptedValue(subtype: "message" | "tool-call", entityId: string, encryptedValue: string): void {
    if (this.encrypted.attach(this.list, subtype, entityId, encryptedValue)) this.publish();
  }

  private publish(): void {
    this.subject.next(Object.freeze(this.list.visible()));
  }
}
