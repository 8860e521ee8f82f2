import type { Message } from "@ag-ui/core";
import { BehaviorSubject, type Observable, type SchedulerLike } from "rxjs";
import type { Conversation } from "../conversation";
import type { PendingInterrupt } from "../hitl";
import { randomId } from "../internal/ids";
import { applyAct, runBegan, runEnded } from "./fold";
import { branchOf, type ActEntry, type ImportedEntry, type LogEntry, type RunEnd, type RunEntry, type ThreadAct, type ThreadLogData } from "./log";
import { openingOf, type RunOpening } from "./prelude";
import { replayBranch, type ReplayOptions, type Replayed } from "./replay";
import { ThreadLog, type RunRecorder } from "./threadLog";

/** A run of the thread as it is played: where its events go, and how it ends. */
export interface LiveRun {
  readonly entry: Omit<RunEntry, "events" | "ended" | "kind">;
  /** What the log tells it as it begins: the events to show before its own, the words a resume may say again. */
  readonly opening: RunOpening;
  /** Where its events go, as they come. */
  readonly events: RunRecorder;
  /** Its first event came: the cards it answers wait no more. */
  began(): void;
  /** Its end, decided where it was played. */
  end(ended: RunEnd, about?: Pick<RunEntry, "failure" | "responded">): void;
}

/**
 * A thread: its log (`ThreadLog`, the one record of what happened) and the
 * conversation its current branch comes to (the projection: history,
 * state, activities, cards), kept as the log grows. Every write goes
 * through here: an act, folded as it is appended; a run, whose events the
 * pipeline folds as they come. Moving to another branch replays the log
 * into a new conversation (`replayBranch`): `conversation$` follows it.
 */
export class Thread {
  readonly log: ThreadLog;
  private readonly views: BehaviorSubject<Conversation>;

  constructor(
    threadId: string,
    private readonly options: ReplayOptions & { scheduler: SchedulerLike },
    from?: ThreadLogData,
    /** `from` replayed already. */
    replayed?: Replayed,
  ) {
    this.log = new ThreadLog(threadId, from);
    this.views = new BehaviorSubject((replayed ?? replayBranch(this.log.data, options)).conversation);
  }

  /** A new thread's history to start from (the adapter's `initialMessages`), as its first entry. */
  seed(messages: readonly Message[]): void {
    const entry: ImportedEntry = { kind: "imported", id: randomId(), time: this.now(), messages, activities: [], transcript: [] };
    this.log.import(entry);
    this.conversation.importMessages(messages);
  }

  get threadId(): string {
    return this.log.threadId;
  }

  /** The conversation the current branch comes to. */
  get conversation(): Conversation {
    return this.views.value;
  }

  /** The conversation now, and the new one whenever the current branch changes. */
  get conversation$(): Observable<Conversation> {
    return this.views.asObservable();
  }

  /** The current branch's entries. */
  branch(): LogEntry[] {
    return branchOf(this.log.data);
  }

  /** Now, as the log's times say it. */
  now(): string {
    return new Date(this.options.scheduler.now()).toISOString();
  }

  /** Appends an act at the head (or growing from `parent`, which moves the branch there), and folds it. */
  act(act: ThreadAct, parent?: string): ActEntry {
    const moves = parent !== undefined && parent !== this.log.head;
    const entry = this.log.act(randomId(), act, this.now(), ...(parent !== undefined ? [parent] : []));
    if (moves) this.rebuild();
    else applyAct(this.conversation, act);
    return entry;
  }

  /** What is written next grows from `id` (an entry of the current branch: a new answer to a question; none: the log's start, for a first question asked anew), and the conversation is the branch's up to it. */
  growFrom(id: string | undefined): void {
    if (id === this.log.head) return;
    this.log.moveHead(id);
    this.rebuild();
  }

  /** Begins a run at the head: see `LiveRun`. */
  beginRun(run: Pick<RunEntry, "runId" | "requestId" | "answers" | "parentRunId" | "origin">): LiveRun {
    const entry = { ...run, id: randomId(), responseId: randomId(), time: this.now(), ...(this.log.head !== undefined && { parent: this.log.head }) };
    const opening = openingOf(this.branch(), entry, this.conversation);
    const events = this.log.begin(entry);
    const conversation = this.conversation;
    let taken: PendingInterrupt[] | undefined;
    return {
      entry,
      opening,
      events,
      began: () => void (taken ??= runBegan(conversation, entry)),
      end: (ended, about = {}) => {
        this.log.end(entry.id, ended, about);
        runEnded(conversation, entry, taken ?? []);
      },
    };
  }

  /** The person goes to the branch that ends at `leaf` (a switch act after it), replayed: the chat it shows, the conversation it comes to (now the current one). */
  switchTo(leaf: string): Replayed {
    this.log.act(randomId(), { type: "switch" }, this.now(), leaf);
    return this.rebuild();
  }

  /** The current branch replayed (or the branch to `until`), without moving anything: what its chat shows. */
  replay(until?: string): Replayed {
    return replayBranch(this.log.data, this.options, until);
  }

  private rebuild(): Replayed {
    const replayed = this.replay();
    this.views.next(replayed.conversation);
    return replayed;
  }
}
