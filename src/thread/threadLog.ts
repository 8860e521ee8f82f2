import { EventType, type BaseEvent, type RunStartedEvent } from "@ag-ui/core";
import { Subject, type Observable } from "rxjs";
import { CompactingEvents } from "./compactEvents";
import type { ActEntry, ImportedEntry, LogEntry, RunEnd, RunEntry, ThreadAct, ThreadLogData } from "./log";

/** What changed in a log, entry by entry (never per event). */
export type LogChange = { kind: "appended"; entry: LogEntry } | { kind: "ended"; run: RunEntry } | { kind: "moved"; head: string | undefined };

/** A run as it is written: its entry without its events, where they go, and whether the page left it (see `leave`). */
type Recording = { entry: Omit<RunEntry, "events">; events: CompactingEvents; left?: boolean };

/** Where a run's events go as they come. */
export interface RunRecorder {
  add(event: BaseEvent): void;
}

/** A run's entry with its events so far, compacted; the RUN_STARTED that opens them names the run as the agent does. */
function recorded({ entry, events }: Recording): RunEntry {
  const kept = events.events();
  const first = kept[0] as RunStartedEvent | undefined;
  const runId = first?.type === EventType.RUN_STARTED && typeof first.runId === "string" ? first.runId : entry.runId;
  return { ...entry, runId, events: kept } as RunEntry;
}

/**
 * The one writer of a thread's log: entries appended (each growing from the
 * head, which moves to it, or from the entry named), a run's events as they
 * come (consecutive deltas joined: memory follows the text), its end, and
 * the head moved to another branch. `changes$` tells each change of an
 * entry, never an event: what saves listen to. `data` is the log now, a
 * run still going with its events so far.
 */
export class ThreadLog {
  private readonly entries: LogEntry[];
  private readonly ids = new Set<string>();
  private readonly recordings = new Map<string, Recording>();
  private readonly changed = new Subject<LogChange>();
  private current: string | undefined;

  readonly changes$: Observable<LogChange> = this.changed.asObservable();

  constructor(
    readonly threadId: string,
    from: Pick<ThreadLogData, "entries" | "head"> = { entries: [] },
  ) {
    this.entries = [...from.entries];
    for (const entry of this.entries) this.ids.add(entry.id);
    this.current = from.head;
  }

  /** The entry the current branch ends at. */
  get head(): string | undefined {
    return this.current;
  }

  /** The log as it is now: a run still going with its events so far, compacted. */
  get data(): ThreadLogData {
    const entries = this.entries.map((entry) => {
      const recording = entry.kind === "run" ? this.recordings.get(entry.id) : undefined;
      return recording ? recorded(recording) : entry;
    });
    return { threadId: this.threadId, entries, ...(this.current !== undefined && { head: this.current }) };
  }

  /** Whether the log holds an entry of this id. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Appends an act, growing from the head (or from `parent`); the head moves to it. */
  act(id: string, act: ThreadAct, time: string, parent: string | undefined = this.current): ActEntry {
    const entry: ActEntry = { kind: "act", id, ...(parent !== undefined && { parent }), time, act };
    this.append(entry);
    return entry;
  }

  /** Appends an imported entry (a thread's history to start from), growing from the head. */
  import(entry: ImportedEntry): void {
    this.append({ ...entry, ...(this.current !== undefined && { parent: this.current }) });
  }

  /** Begins a run growing from the head (or from `entry.parent`): its events go to the recorder it gives, as they come; its end with `end`. */
  begin(entry: Omit<RunEntry, "events" | "ended" | "kind">): RunRecorder {
    const parent = "parent" in entry ? entry.parent : this.current;
    const run: RunEntry = { ...entry, kind: "run", ...(parent !== undefined && { parent }), events: [], ended: "open" };
    const { events: _events, ...rest } = run;
    const events = new CompactingEvents();
    this.recordings.set(run.id, { entry: rest, events });
    this.append(run);
    return events;
  }

  /**
   * The page goes away while runs go, and they go on where the agent keeps
   * threads: each keeps what it had, open, and takes nothing more (its end,
   * the unload breaking its connection, is no end of the run's: the page
   * that comes back takes it from the server).
   */
  leave(): void {
    for (const recording of this.recordings.values()) {
      recording.left = true;
      recording.events.stop();
    }
  }

  /** The run is over here: how it ended (`open`: it goes on where the agent runs it), its events compacted. */
  end(runId: string, ended: RunEnd, about: Pick<RunEntry, "failure" | "responded"> = {}): RunEntry | undefined {
    const recording = this.recordings.get(runId);
    if (!recording || recording.left) return undefined;
    this.recordings.delete(runId);
    const run: RunEntry = { ...recorded(recording), ...about, ended };
    this.entries[this.entries.findIndex((entry) => entry.id === runId)] = run;
    this.changed.next({ kind: "ended", run });
    return run;
  }

  /** The current branch ends at `id` from now on (which must be in the log; none: what is written next starts a branch of its own from the log's start). */
  moveHead(id: string | undefined): void {
    if (id === this.current) return;
    this.current = id;
    this.changed.next({ kind: "moved", head: id });
  }

  private append(entry: LogEntry): void {
    this.entries.push(entry);
    this.ids.add(entry.id);
    this.current = entry.id;
    this.changed.next({ kind: "appended", entry });
  }
}
