import type { CarbonChatInstance, CarbonThreadInstance } from "../carbon";
import type { Conversation } from "../conversation";
import { AgUiConnectionError, AgUiThreadSavedElsewhereError, asCarbonAgUiError } from "../errors";
import { threadServerError } from "../threads/threadServerError";
import type { AgentThreads } from "../threads/agentThreads";
import { loadThread, type LoadedForChat, type RunningRun } from "./loadThread";
import { memoryStore } from "../persistence/memoryStore";
import { settleDecidedElsewhere } from "./approvals/settleElsewhere";
import { randomId } from "../internal/ids";
import type { AgUiToCarbonOptions } from "../operators/agUiToCarbon";
import { historyItemsOf, notRestoredNotice, splitAtTurns, type CarbonHistoryItem } from "../persistence/restore";
import type { ThreadSummary } from "../persistence/store";
import { ThreadStore, type PersistenceOptions } from "../persistence/threadStore";
import type { TranscriptEntry } from "../persistence/transcript";
import type { ResolvedOptions } from "./options";
import type { CardFate } from "./turns/outcome";
import type { TurnRecord } from "./turns/turnPath";
import { AnswerVersionsOf, lastAnswerMessage } from "./answerVersions";

/** What the adapter lends its persisted threads: its current conversation, and the way to replace it. */
export interface ThreadHost {
  current(): Conversation;
  /** Makes `conversation` the current one (every turn on the one before ends); a new thread without one. */
  adopt(conversation?: Conversation): void;
  newConversation(threadId: string): Conversation;
  /** Whether a turn is under way (begun, not over). */
  busy(): boolean;
  stopAll(): void;
  /** Clears Carbon's chat for the adapter (not taken for a clear of the host's). */
  clear(instance: CarbonThreadInstance): Promise<void>;
  /** Streams a run still going on `conversation` into the chat, as a turn of its own, once Carbon shows what came before. */
  rejoin(conversation: Conversation, run: RunningRun, instance: CarbonChatInstance): void;
}

/** The feedback bus event fields read. */
export interface CarbonFeedbackEvent {
  interactionType?: string;
  message?: { id?: string };
  messageItem?: { message_item_options?: { feedback?: { id?: string } } };
  isPositive?: boolean;
  text?: string;
  categories?: string[];
}

/**
 * The adapter's `persistence`: each conversation's transcript recorded as it
 * is shown, saved at a turn's end, on decisions, feedback and `pagehide`;
 * threads loaded into Carbon (the latest `shownTurns`, earlier ones on
 * demand), listed, switched to and deleted. Where the agent keeps its
 * threads (`threads`) they come from its server, and the store is their
 * cache. See docs/persistence.md.
 */
export type { RunningRun };

/**
 * The adapter's threads: with `persistence`, or where the agent keeps its
 * threads (`threads`), whose cache is then in memory without one: what this
 * page showed of each thread it opened.
 */
export function chatPersistenceOf(persistence: PersistenceOptions | undefined, options: ResolvedOptions, host: ThreadHost): ChatPersistence | undefined {
  const chosen = persistence ?? (options.threads && { store: memoryStore(), channel: false as const });
  return chosen && new ChatPersistence(chosen, options.threads, host, options);
}

export class ChatPersistence implements TurnRecord {
  private readonly threads: ThreadStore;
  /** What a restored conversation's chat does not show yet. */
  private readonly unshown = new WeakMap<Conversation, TranscriptEntry[]>();
  /** How many turns a restored thread shows at first, and each `showEarlierHistory` adds. */
  private readonly shownTurns: number;
  /** The versions of each thread's latest answer, kept in its transcript. */
  readonly versions: AnswerVersionsOf;

  constructor(
    persistence: PersistenceOptions,
    /** Where the agent keeps its threads, when it does: what it holds wins over the store, which is then its cache. */
    private readonly server: AgentThreads | undefined,
    private readonly host: ThreadHost,
    private readonly options: ResolvedOptions,
  ) {
    this.shownTurns = persistence.shownTurns ?? 5;
    const onSavedElsewhere = (threadId: string) => threadId === host.current().threadId && options.onWarning(new AgUiThreadSavedElsewhereError(threadId));
    this.threads = new ThreadStore(persistence, (error) => options.onError(error), options.scheduler, onSavedElsewhere);
    this.versions = new AnswerVersionsOf({
      logOf: (conversation) => this.threads.logOf(conversation),
      save: (conversation) => void this.threads.save(conversation),
      restoreOptions: options.restoreOptions,
      branches: server?.branches,
      callOptions: this.callOptions(),
    });
    // A reload, a closed tab: what streams stops (the snapshot holds it stopped, its tool calls closed) and is saved,
    // as is a save not yet written; a page with nothing new writes nothing (another tab's may be newer). Where the agent
    // keeps threads its run goes on, for the next page to rejoin; the snapshot holds the answer so far, shown stopped
    // where the run cannot be rejoined.
    this.onPageHide = () => {
      const changing = host.busy() || this.threads.hasUnsaved(host.current().threadId);
      if (server) this.threads.logOf(host.current()).leave();
      else host.stopAll();
      if (changing) this.threads.saveBeforeUnload(host.current());
    };
    globalThis.addEventListener?.("pagehide", this.onPageHide);
  }

  private readonly onPageHide: () => void;

  /** Lets go of the page: no `pagehide` save, no notices of other pages' saves. */
  dispose(): void {
    globalThis.removeEventListener?.("pagehide", this.onPageHide);
    this.threads.close();
  }

  /** The run's response id and where its chunks are recorded. */
  recording(conversation: Conversation, requestId: string | undefined, runId: string): Pick<AgUiToCarbonOptions, "responseId" | "record" | "recordUnfinishedOn"> {
    const log = this.threads.logOf(conversation);
    const time = this.threads.now();
    return {
      responseId: randomId(),
      record: (chunk) => {
        log.addChunk(chunk, time, requestId, runId);
        if ("final_response" in chunk) this.versions.changed();
      },
      // Where the agent keeps threads, its run goes on when the connection breaks (a reload aborts it before `pagehide`):
      // the answer is kept unfinished, and the page that comes back shows what the server holds of it, not a mark it did not earn.
      ...(this.server && { recordUnfinishedOn: (error: unknown) => error instanceof AgUiConnectionError }),
    };
  }

  /** A message's turn begins: its text. */
  request(conversation: Conversation, { id, text }: { id: string; text: string }): void {
    this.threads.logOf(conversation).addRequest(id, text, this.threads.now());
    this.versions.changed();
  }

  /** The cards whose answers became final, as their turn's outcome (or the tool server) says. */
  fates(conversation: Conversation, fates: readonly CardFate[]): void {
    const log = this.threads.logOf(conversation);
    for (const { interruptId, answer } of fates) log.addDecision(interruptId, answer, this.threads.now());
  }

  save(conversation: Conversation): Promise<void> {
    return this.threads.save(conversation);
  }

  /** The thread named by the current conversation, into the chat; a run still going on it rejoined once Carbon shows the rest. */
  async loadHistory(instance: CarbonChatInstance | undefined): Promise<CarbonHistoryItem[]> {
    const { threadId } = this.host.current();
    // A thread the adapter made itself has nothing to restore.
    if (this.server && threadId !== this.options.threadId) return [];
    const loaded = await this.loadThread(threadId);
    if (this.host.current().threadId !== threadId) return [];
    if (loaded === "none") return [];
    if ("notice" in loaded) {
      this.host.adopt();
      return [notRestoredNotice(this.threads.now(), loaded.notice)];
    }
    this.host.adopt(loaded.conversation);
    this.versions.changed();
    if (loaded.running && instance) this.host.rejoin(loaded.conversation, loaded.running, instance);
    return this.latestHistory(loaded.conversation);
  }

  /** A thread as it is to be shown, with the approvals the tool server decided meanwhile settled (their cards restore answered). */
  private async loadThread(threadId: string): Promise<LoadedForChat> {
    const loaded = await loadThread(threadId, this.threads, this.server, this.options);
    if (typeof loaded !== "object" || !("conversation" in loaded)) return loaded;
    const client = this.options.toolClient;
    const elsewhere = client ? await settleDecidedElsewhere(client, loaded.conversation, (error) => this.options.onWarning(asCarbonAgUiError(error))) : [];
    this.fates(
      loaded.conversation,
      elsewhere.map(({ interrupt, decision }) => ({ interruptId: interrupt.id, answer: decision?.type ?? "reject" })),
    );
    if (elsewhere.length > 0) void this.threads.save(loaded.conversation);
    return loaded;
  }

  /** The latest `shownTurns` of the conversation's transcript, as Carbon's history; the earlier ones wait for `showEarlierHistory`. */
  private latestHistory(conversation: Conversation): CarbonHistoryItem[] {
    return historyItemsOf(this.takeLatest(conversation, this.threads.logOf(conversation).toEntries(), this.shownTurns), this.options.restoreOptions);
  }

  /** The latest `turns` of `transcript`; the rest is what the conversation has not shown yet. */
  private takeLatest(conversation: Conversation, transcript: readonly TranscriptEntry[], turns: number): TranscriptEntry[] {
    const { earlier, later } = splitAtTurns(transcript, turns);
    this.unshown.set(conversation, earlier);
    return later;
  }

  earlierTurns(): number {
    return (this.unshown.get(this.host.current()) ?? []).filter((entry) => entry.kind === "request").length;
  }

  async showEarlierHistory(instance: CarbonThreadInstance, turns = this.shownTurns): Promise<void> {
    const conversation = this.host.current();
    const later = this.takeLatest(conversation, this.unshown.get(conversation) ?? [], turns);
    if (later.length > 0) await instance.messaging.insertHistory(historyItemsOf(later, this.options.restoreOptions));
  }

  interruptAnswer(interruptId: string) {
    return this.threads.logOf(this.host.current()).answerOf(interruptId);
  }

  /** The agent's server's threads where it lists them (this browser's when it cannot, the failure reported), else the store's. */
  async list(): Promise<ThreadSummary[]> {
    if (this.server?.list) {
      try {
        return await this.server.list(this.callOptions());
      } catch (thrown) {
        this.options.onError(threadServerError("list", undefined, thrown));
      }
    }
    return this.threads.list();
  }

  /** Another thread into the chat (as `CarbonAgUiAdapter.switchThread` says). */
  async switchThread(threadId: string, instance: CarbonThreadInstance): Promise<void> {
    const loaded = await this.loadThread(threadId);
    this.host.adopt(typeof loaded === "object" && "conversation" in loaded ? loaded.conversation : this.host.newConversation(loaded === "none" ? threadId : randomId()));
    await this.host.clear(instance);
    if (loaded === "none") return;
    if ("notice" in loaded) return instance.messaging.insertHistory([notRestoredNotice(this.threads.now(), loaded.notice)]);
    await instance.messaging.insertHistory(this.latestHistory(loaded.conversation));
    this.versions.changed();
    if (loaded.running) this.host.rejoin(loaded.conversation, loaded.running, instance);
  }

  /** Deletes the thread on the agent's server where it can (a failure reported) and here. */
  async remove(threadId: string): Promise<void> {
    if (this.server?.remove) {
      try {
        await this.server.remove(threadId, this.callOptions());
      } catch (thrown) {
        this.options.onError(threadServerError("remove", threadId, thrown));
      }
    }
    return this.threads.remove(threadId);
  }

  /** What the adapter lends a thread source: its clock, and where its warnings go. */
  private callOptions() {
    return { scheduler: this.options.scheduler, onWarning: this.options.onWarning };
  }

  saveNow(): Promise<void> {
    this.host.stopAll();
    return this.threads.save(this.host.current());
  }

  /**
   * Feedback submitted on an answer of the current thread joins its
   * transcript, and is saved. Returns what the thread knows of the answer:
   * the run that made it and its last words' message.
   */
  keepFeedback({ interactionType, message, messageItem, isPositive, text, categories }: CarbonFeedbackEvent): { runId?: string; messageId?: string } {
    const feedbackId = messageItem?.message_item_options?.feedback?.id;
    if (interactionType !== "submitted" || message?.id === undefined || feedbackId === undefined) return {};
    const feedback = { is_positive: isPositive === true, ...(text !== undefined && { text }), ...(categories && { categories }) };
    const conversation = this.host.current();
    const log = this.threads.logOf(conversation);
    if (log.setFeedback(message.id, feedbackId, feedback)) void this.threads.save(conversation);
    const response = log.toEntries().find((entry) => entry.kind === "response" && entry.id === message.id);
    if (response?.kind !== "response") return {};
    const messageId = lastAnswerMessage(conversation.messages, response.requestId);
    return { ...(response.runId !== undefined && { runId: response.runId }), ...(messageId !== undefined && { messageId }) };
  }
}
