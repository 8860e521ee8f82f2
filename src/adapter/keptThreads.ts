import type { Subscription } from "rxjs";
import type { CarbonThreadInstance } from "../carbon";
import { AgUiThreadSavedElsewhereError, asCarbonAgUiError } from "../errors";
import { memoryStore } from "../persistence/memoryStore";
import { splitAtTurns, type CarbonHistoryItem } from "../persistence/restore";
import type { ThreadSummary } from "../persistence/store";
import { ThreadStore, type PersistenceOptions } from "../persistence/threadStore";
import type { ThreadLogData } from "../thread/log";
import { replayBranch, type Replayed } from "../thread/replay";
import type { Thread } from "../thread/thread";
import type { AgentThreads } from "../threads/agentThreads";
import { threadServerError } from "../threads/threadServerError";
import { settleDecidedElsewhere } from "./approvals/settleElsewhere";
import { loadThread, type RunningRun } from "./loadThread";
import type { ResolvedOptions } from "./options";

/** What the adapter lends the threads it keeps. */
export interface ThreadHost {
  current(): Thread;
  /** A thread of the adapter's from a log, replayed already. */
  threadOf(log: ThreadLogData, replayed: Replayed): Thread;
  /** Whether a turn is under way (begun, not over). */
  busy(): boolean;
  stopAll(): void;
}

/** A thread opened: its chat as a restored chat shows it (the latest turns), and the run still going on it. */
export type OpenedThread = { thread: Thread; chat: CarbonHistoryItem[]; running?: RunningRun } | "none" | { notice: string };

/**
 * Where the adapter's threads are kept: with `persistence`, its store (each
 * thread's log saved at each change of its entries: `ThreadStore.keep`);
 * where the agent keeps threads (`threads`), its server, the store (in
 * memory without one) its cache. Threads are opened (the latest
 * `shownTurns` of their chat, earlier ones on demand), listed and deleted
 * here; a page going away saves what it has. Without either, nothing is
 * kept: threads live while the page does.
 */
export class KeptThreads {
  private readonly store: ThreadStore | undefined;
  private readonly saving = new Map<Thread, Subscription>();
  /** What a restored thread's chat does not show yet. */
  private readonly unshown = new WeakMap<Thread, CarbonHistoryItem[]>();
  private readonly shownTurns: number;
  private readonly onPageHide: () => void;

  constructor(
    persistence: PersistenceOptions | undefined,
    private readonly server: AgentThreads | undefined,
    private readonly host: ThreadHost,
    private readonly options: ResolvedOptions,
  ) {
    const chosen = persistence ?? (server && { store: memoryStore(), channel: false as const });
    this.shownTurns = chosen?.shownTurns ?? 5;
    const onSavedElsewhere = (threadId: string) => threadId === host.current().threadId && options.onWarning(new AgUiThreadSavedElsewhereError(threadId));
    this.store = chosen && new ThreadStore(chosen, (error) => options.onError(error), options.scheduler, onSavedElsewhere);
    // A reload, a closed tab: where the agent keeps threads its runs go on, for the next page to rejoin; elsewhere what
    // streams stops (it shows stopped when restored). What is new is saved at once; a page with nothing new writes nothing.
    this.onPageHide = () => {
      const thread = host.current();
      const changing = host.busy() || this.store?.hasUnsaved(thread.threadId) === true;
      if (server) thread.log.leave();
      else host.stopAll();
      if (changing) this.store?.saveBeforeUnload(thread.log);
    };
    if (this.store) globalThis.addEventListener?.("pagehide", this.onPageHide);
  }

  /** Saves `thread` at each change of its log, from now until the adapter is disposed. */
  keep(thread: Thread): void {
    if (this.store && !this.saving.has(thread)) this.saving.set(thread, this.store.keep(thread.log));
  }

  /** Lets go of the page: no `pagehide` save, no notices of other pages' saves, no more saves. */
  dispose(): void {
    globalThis.removeEventListener?.("pagehide", this.onPageHide);
    for (const subscription of this.saving.values()) subscription.unsubscribe();
    this.store?.close();
  }

  /** The thread `threadId` as it is to be shown, from the agent's server or the store, with the approvals the tool server decided meanwhile settled. */
  async open(threadId: string): Promise<OpenedThread> {
    if (!this.store && !this.server) return "none";
    const loaded = await loadThread(threadId, this.store, this.server, this.options);
    if (typeof loaded !== "object" || !("log" in loaded)) return loaded;
    const replayed = replayBranch(loaded.log, this.options.replay);
    const thread = this.host.threadOf(loaded.log, replayed);
    const client = this.options.toolClient;
    if (client) await settleDecidedElsewhere(client, thread, (error) => this.options.onWarning(asCarbonAgUiError(error)));
    return { thread, chat: this.latest(thread, replayed.chat.map(({ item }) => item), this.shownTurns), ...(loaded.running && { running: loaded.running }) };
  }

  /** How many earlier turns of a restored thread its chat does not show yet. */
  earlierTurns(thread: Thread): number {
    return (this.unshown.get(thread) ?? []).filter((item) => "input" in item.message).length;
  }

  /** The next `turns` earlier turns of a restored thread, before what its chat shows. */
  async showEarlier(thread: Thread, instance: CarbonThreadInstance, turns = this.shownTurns): Promise<void> {
    const later = this.latest(thread, this.unshown.get(thread) ?? [], turns);
    if (later.length > 0) await instance.messaging.insertHistory(later);
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
    return this.store?.list() ?? [];
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
    await this.store?.remove(threadId);
  }

  /** Stops what streams and saves `thread` now. */
  saveNow(thread: Thread): Promise<void> {
    this.host.stopAll();
    return this.store?.save(thread.log) ?? Promise.resolve();
  }

  /** What the adapter lends a thread source: its clock, and where its warnings go. */
  callOptions() {
    return { scheduler: this.options.scheduler, onWarning: this.options.onWarning };
  }

  /** The latest `turns` of `chat`; the rest is what `thread`'s chat does not show yet. */
  private latest(thread: Thread, chat: readonly CarbonHistoryItem[], turns: number): CarbonHistoryItem[] {
    const { earlier, later } = splitAtTurns(chat, turns);
    this.unshown.set(thread, earlier);
    return later;
  }
}
