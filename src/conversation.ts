import type { Message } from "@ag-ui/core";
import { BehaviorSubject, type Observable } from "rxjs";
import { randomId } from "./internal/ids";

export interface ConversationInit {
  /** The AG-UI thread id. Default: a fresh random id. */
  threadId?: string;
  /** History to start from (e.g. restored from storage). */
  messages?: readonly Message[];
  /** Shared state to start from, and to return to on `reset()`. */
  state?: unknown;
}

/**
 * What outlives a turn: the thread id, the message history and the shared
 * state. The adapter owns one; tracking operators report to it.
 *
 * Reading is cheap: `messages` is an immutable snapshot, republished once per
 * changed message (never per streamed event).
 */
export class Conversation {
  private threadIdValue: string;
  private readonly list: Message[] = [];
  /** Position of each message in `list`, by id, so a message is replaced in place. */
  private readonly positions = new Map<string, number>();
  private readonly messagesSubject = new BehaviorSubject<readonly Message[]>(Object.freeze([]));
  private readonly stateSubject: BehaviorSubject<unknown>;

  /** The history, republished on every change. */
  readonly messages$: Observable<readonly Message[]> = this.messagesSubject.asObservable();
  /** The shared state, republished on every change. */
  readonly state$: Observable<unknown>;

  constructor(private readonly init: ConversationInit = {}) {
    this.threadIdValue = init.threadId ?? randomId();
    this.stateSubject = new BehaviorSubject(init.state);
    this.state$ = this.stateSubject.asObservable();
    for (const message of init.messages ?? []) this.place(message);
    this.publishMessages();
  }

  get threadId(): string {
    return this.threadIdValue;
  }

  get messages(): readonly Message[] {
    return this.messagesSubject.value;
  }

  get state(): unknown {
    return this.stateSubject.value;
  }

  /** Adds a message, or replaces the one with the same id where it stands. */
  upsertMessage(message: Message): void {
    this.place(message);
    this.publishMessages();
  }

  /** Starts a new thread: a new thread id, no history, the initial state. */
  reset(threadId: string = randomId()): void {
    this.threadIdValue = threadId;
    this.list.length = 0;
    this.positions.clear();
    this.publishMessages();
    this.stateSubject.next(this.init.state);
  }

  private place(message: Message): void {
    const position = this.positions.get(message.id);
    if (position === undefined) {
      this.positions.set(message.id, this.list.length);
      this.list.push(message);
    } else {
      this.list[position] = message;
    }
  }

  private publishMessages(): void {
    this.messagesSubject.next(Object.freeze(this.list.slice()));
  }
}
