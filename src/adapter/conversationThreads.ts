import type { CarbonChatInstance, CarbonThreadInstance, CustomLoadHistory } from "../carbon";
import type { Conversation } from "../conversation";
import type { InterruptDecision } from "../hitl";
import type { ThreadSummary } from "../persistence/store";
import type { CarbonEvents } from "./carbonEvents";
import type { ChatPersistence } from "./chatPersistence";
import { CurrentConversation } from "./currentConversation";

/**
 * The adapter's threads, as the host moves between them: a new one, another
 * one from the agent's server or the store, the restored history Carbon
 * loads, the threads listed, deleted and saved. Where the conversation goes
 * (`adopt`) and how the turns of the one left end is the adapter's.
 */
export abstract class ConversationThreads extends CurrentConversation {
  /** The Carbon instance of the latest message, where a resume streams when none is given. */
  protected lastInstance: CarbonChatInstance | undefined;
  protected abstract readonly carbonEvents: CarbonEvents;
  /** With `persistence` or `threads`: the threads, and the transcript each turn records (docs/persistence.md). */
  protected abstract readonly persisted: ChatPersistence | undefined;
  /** Makes `conversation` the current one; the turns of the one left end. */
  protected abstract adopt(conversation: Conversation): void;

  /**
   * Starts a new thread with no history. Every turn begun on the old one
   * ends (what streams shows "Response stopped"; a turn still waiting never
   * starts), and whatever its runs still do is written into the old
   * conversation, not the new one. Carbon's restart does this by itself when
   * the adapter has seen the instance (its event bus).
   */
  reset(): void {
    this.adopt(this.newConversation({}));
  }

  /**
   * Carbon's `customLoadHistory`: the thread of `threadId`, its latest
   * `shownTurns`, from the agent's server where it keeps threads (a run
   * still going on it streams on into the chat), else as `persistence`
   * stored it (docs/persistence.md).
   */
  readonly loadHistory: CustomLoadHistory = async (instance) => {
    if (instance) this.carbonEvents.follow((this.lastInstance = instance));
    return this.persisted?.loadHistory(instance) ?? [];
  };

  /** How many earlier turns of a restored thread its chat does not show yet; `showEarlierHistory` inserts them. */
  get earlierTurns(): number {
    return this.persisted?.earlierTurns() ?? 0;
  }

  showEarlierHistory(instance: CarbonThreadInstance, turns?: number): Promise<void> {
    return this.persisted?.showEarlierHistory(instance, turns) ?? Promise.resolve();
  }

  /** How an interrupt of this thread was answered once the answer went to the agent, for a restored card. */
  interruptAnswer(interruptId: string): InterruptDecision["type"] | "cancelled" | undefined {
    return this.persisted?.interruptAnswer(interruptId);
  }

  /** The threads, latest first: the agent's server's where it lists them (`threads`), else the store's. */
  listThreads(): Promise<ThreadSummary[]> {
    return this.persisted?.list() ?? Promise.resolve([]);
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
    if (this.persisted) return this.persisted.switchThread(threadId, instance);
    this.adopt(this.newConversation({ threadId }));
    await this.carbonEvents.clear(instance);
  }

  /** Deletes a thread, on the agent's server too where it deletes threads; the current one is replaced by a new thread. */
  async deleteThread(threadId: string, instance?: CarbonThreadInstance): Promise<void> {
    if (threadId === this.threadId) await this.newThread(instance);
    await this.persisted?.remove(threadId);
  }

  /** Stops what streams and saves the current thread now, as the page does when it goes away. */
  saveNow(): Promise<void> {
    return this.persisted?.saveNow() ?? Promise.resolve();
  }
}
