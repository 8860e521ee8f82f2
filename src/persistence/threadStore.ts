import type { SchedulerLike, Subscription } from "rxjs";
import { AgUiSnapshotError, AgUiStoreError, type CarbonAgUiError } from "../errors";
import { randomId } from "../internal/ids";
import type { ThreadLogData } from "../thread/log";
import type { ThreadLog } from "../thread/threadLog";
import { parseSnapshot, type SnapshotLimits } from "./schema";
import { logOf, snapshotOf } from "./snapshot";
import type { ConversationStore, ThreadSummary } from "./store";

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

/** What loading a thread came to: its log; nothing stored; or a snapshot refused (reported). */
export type LoadedThread = { log: ThreadLogData } | "none" | "refused";

/**
 * The threads of a store, each its log: the one place a thread is saved,
 * at each change of its log's entries (`keep`: an act, a run begun or
 * ended, a branch moved; never an event). Saves never overlap (one at a
 * time; saves asked for while one runs collapse into one of the latest log
 * per thread, taken when it is written); loads check what they read. Every
 * failure goes to `report`, and nothing throws.
 */
export class ThreadStore {
  /** The log of each thread waiting for its save. */
  private readonly waiting = new Map<string, ThreadLog>();
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

  /** Saves `log` at each change of its entries, until unsubscribed. */
  keep(log: ThreadLog): Subscription {
    return log.changes$.subscribe(() => void this.save(log));
  }

  /** Now, as the snapshot's times say it. */
  now(): string {
    return new Date(this.scheduler.now()).toISOString();
  }

  /** Saves the log once the saves before it are done; resolves then, whatever came of it. */
  save(log: ThreadLog): Promise<void> {
    const { threadId } = log;
    const queued = this.waiting.has(threadId);
    this.waiting.set(threadId, log);
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

  /** The log as it is now, to store. */
  private snapshotNow(log: ThreadLog) {
    return snapshotOf(log.data, new Date(this.scheduler.now()));
  }

  /** Whether a save of the thread was asked for and has not been written yet. */
  hasUnsaved(threadId: string): boolean {
    return this.unsaved.has(threadId);
  }

  /** Saves at once, synchronously where the store can (`saveNow`): the page is going away. */
  saveBeforeUnload(log: ThreadLog): void {
    const { store } = this.options;
    if (!store.saveNow) return void this.save(log);
    try {
      store.saveNow(this.snapshotNow(log));
    } catch (error) {
      this.report(new AgUiStoreError("save", log.threadId, { cause: error }));
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
      return { log: logOf(snapshot) };
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
