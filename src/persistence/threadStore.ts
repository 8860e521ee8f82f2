import type { SchedulerLike } from "rxjs";
import type { Conversation } from "../conversation";
import { AgUiSnapshotError, AgUiStoreError, type CarbonAgUiError } from "../errors";
import { randomId } from "../internal/ids";
import { parseSnapshot, type SnapshotLimits } from "./schema";
import { conversationOf, snapshotOf, type ConversationSnapshot } from "./snapshot";
import type { ConversationStore, ThreadSummary } from "./store";
import { TranscriptLog } from "./transcriptLog";
import type { AnswerVersions } from "./answerVersions";
import type { TranscriptEntry } from "./transcript";

/** The adapter's `persistence` option. */
export interface PersistenceOptions {
  /** Where conversations are kept: `indexedDbStore()`, `memoryStore()`, or your own (a server). */
  store: ConversationStore;
  /** How large a stored conversation may be to be restored. */
  limits?: SnapshotLimits;
  /**
   * How many of the latest turns a restored chat shows at once: Carbon 1.9.1
   * takes some 60–80 ms to render each restored answer with its chain of
   * thought and reasoning (far more with tables), all before it paints.
   * Earlier turns stay in the conversation (the agent gets them) and
   * `showEarlierHistory` puts them in the chat. Default 5.
   */
  shownTurns?: number;
  /**
   * The `BroadcastChannel` on which the pages of the origin tell each other
   * which thread they saved, so one showing it hears that its copy is stale
   * (`AgUiThreadSavedElsewhereError` to `onWarning`). Default
   * "carbon-agui-rx"; `false` for none.
   */
  channel?: string | false;
}

/** What a page posts on the channel after each save. */
interface SavedNotice {
  threadId: string;
  /** The page that saved it. */
  writer: string;
}

/** What loading a thread came to: its conversation (what its chat showed is its `logOf`); nothing stored; or a snapshot refused (reported). */
export type LoadedThread = { conversation: Conversation } | "none" | "refused";

/**
 * The conversations of a store: each conversation's transcript, saves that
 * never overlap (one at a time; saves asked for while one runs collapse into
 * one of the latest state per thread, taken when it is written), loads that
 * check what they read. Every failure goes to `report`, and nothing throws.
 */
export class ThreadStore {
  private readonly logs = new WeakMap<Conversation, TranscriptLog>();
  /** The conversation of each thread waiting for its save. */
  private readonly waiting = new Map<string, Conversation>();
  /** Threads with a save asked for and not yet written. */
  private readonly unsaved = new Set<string>();
  private lastSave: Promise<void> = Promise.resolve();
  private channel: BroadcastChannel | undefined;
  private readonly writer = randomId();

  constructor(
    private readonly options: PersistenceOptions,
    private readonly report: (error: CarbonAgUiError) => void,
    private readonly scheduler: SchedulerLike,
    /** Hears of a save of `threadId` by another page. */
    onSavedElsewhere: (threadId: string) => void,
  ) {
    const { channel = "carbon-agui-rx" } = options;
    if (channel === false || typeof BroadcastChannel !== "function") return;
    this.channel = new BroadcastChannel(channel);
    // Node's channel would keep the process alive; a page's has no unref.
    (this.channel as { unref?: () => void }).unref?.();
    this.channel.onmessage = ({ data }: MessageEvent<Partial<SavedNotice>>) => {
      if (typeof data?.threadId === "string" && data.writer !== this.writer) onSavedElsewhere(data.threadId);
    };
  }

  /** Stops telling and hearing of saves on the channel (it closes); saves go on. */
  close(): void {
    this.channel?.close();
    this.channel = undefined;
  }

  /** What the chat of `conversation` showed so far. */
  logOf(conversation: Conversation): TranscriptLog {
    let log = this.logs.get(conversation);
    if (!log) this.logs.set(conversation, (log = new TranscriptLog()));
    return log;
  }

  /** Takes `transcript` as what the chat of `conversation` showed so far (a thread restored from elsewhere), with the versions of its latest answer kept here. */
  adoptLog(conversation: Conversation, transcript: readonly TranscriptEntry[], versions?: AnswerVersions): void {
    this.logs.set(conversation, new TranscriptLog(transcript, versions));
  }

  /** Now, as the snapshot's times say it. */
  now(): string {
    return new Date(this.scheduler.now()).toISOString();
  }

  /** Saves the conversation once the saves before it are done; resolves then, whatever came of it. */
  save(conversation: Conversation): Promise<void> {
    const { threadId } = conversation;
    const queued = this.waiting.has(threadId);
    this.waiting.set(threadId, conversation);
    this.unsaved.add(threadId);
    if (queued) return this.lastSave;
    this.lastSave = this.lastSave.then(async () => {
      const latest = this.waiting.get(threadId);
      // Removed since it was asked for.
      if (!latest) return;
      this.waiting.delete(threadId);
      try {
        await this.options.store.save(this.snapshotNow(latest));
        this.channel?.postMessage({ threadId, writer: this.writer } satisfies SavedNotice);
      } catch (error) {
        this.report(new AgUiStoreError("save", threadId, { cause: error }));
      }
      if (!this.waiting.has(threadId)) this.unsaved.delete(threadId);
    });
    return this.lastSave;
  }

  /** The conversation as it is now, with what its chat showed, to store. */
  private snapshotNow(conversation: Conversation): ConversationSnapshot {
    const log = this.logOf(conversation);
    return snapshotOf(conversation, log.toEntries(), new Date(this.scheduler.now()), log.versions);
  }

  /** Whether a save of the thread was asked for and has not been written yet. */
  hasUnsaved(threadId: string): boolean {
    return this.unsaved.has(threadId);
  }

  /** Saves at once, synchronously where the store can (`saveNow`): the page is going away. */
  saveBeforeUnload(conversation: Conversation): void {
    const { store } = this.options;
    if (!store.saveNow) return void this.save(conversation);
    try {
      store.saveNow(this.snapshotNow(conversation));
    } catch (error) {
      this.report(new AgUiStoreError("save", conversation.threadId, { cause: error }));
    }
  }

  async load(threadId: string): Promise<LoadedThread> {
    let raw: unknown;
    try {
      raw = await this.options.store.load(threadId);
    } catch (error) {
      this.report(new AgUiStoreError("load", threadId, { cause: error }));
      return "refused";
    }
    if (raw === undefined || raw === null) return "none";
    try {
      const snapshot = parseSnapshot(raw, this.options.limits);
      if (snapshot.threadId !== threadId) throw new AgUiSnapshotError(`The conversation stored for thread '${threadId}' belongs to another thread`);
      const conversation = conversationOf(snapshot, { scheduler: this.scheduler });
      this.logs.set(conversation, new TranscriptLog(snapshot.transcript, snapshot.versions));
      return { conversation };
    } catch (error) {
      this.report(error instanceof AgUiSnapshotError ? error : new AgUiStoreError("load", threadId, { cause: error }));
      return "refused";
    }
  }

  async list(): Promise<ThreadSummary[]> {
    try {
      return await this.options.store.list();
    } catch (error) {
      this.report(new AgUiStoreError("list", undefined, { cause: error }));
      return [];
    }
  }

  /** Removes a thread once the saves before are done (a save still waiting for it is dropped). */
  remove(threadId: string): Promise<void> {
    this.waiting.delete(threadId);
    this.lastSave = this.lastSave.then(async () => {
      try {
        await this.options.store.remove(threadId);
      } catch (error) {
        this.report(new AgUiStoreError("remove", threadId, { cause: error }));
      }
    });
    return this.lastSave;
  }
}
