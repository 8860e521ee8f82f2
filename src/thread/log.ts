import type { BaseEvent, Message, ResumeEntry, TokenUsage } from "@ag-ui/core";
import type { Activity, CardAnswer } from "../conversation";
import type { InterruptDecision, PendingInterrupt } from "../hitl";
import type { A2uiUserAction } from "../operators/map/a2uiSurfaces";
import type { TranscriptEntry, TranscriptFeedback } from "../persistence/transcript";

/**
 * How a run ended, decided once, where it is played (`deliverRun`), and read
 * by everyone: the turn's outcome, the chat restored, the versions. `open`:
 * still going, or left while it went (a page that went away).
 */
export type RunEnd = "finished" | "stopped" | "failed" | "open";

export type { CardAnswer };

/** An interrupt a run's resume answers, and how (decided when the resume is made). */
export interface RunAnswer {
  interruptId: string;
  answer: CardAnswer;
  /** What the resume carries for it. */
  entry: ResumeEntry;
}

/** What every entry of the log has: its id, the entry it grows from on its branch, and when it was written (ISO 8601). */
interface EntryBase {
  id: string;
  /** The entry before it on its branch; none for the first. */
  parent?: string;
  time: string;
}

/**
 * A run of the agent's, as AG-UI's serialization keeps a thread: its events
 * as they came (compacted once it ended, see `compactEvents`), with what the
 * log needs to show it again as it was shown.
 */
export interface RunEntry extends EntryBase {
  kind: "run";
  /** The run's id as the agent named it (its RUN_STARTED's, else its input's: AG-UI's `runId`). */
  runId: string;
  /** The run its input grew from (AG-UI's `parentRunId`: a regenerate's, the run before the question). */
  parentRunId?: string;
  /** The Carbon response it shows as. */
  responseId: string;
  /** The person's message it answers. */
  requestId?: string;
  /** The interrupts its resume answers. */
  answers?: readonly RunAnswer[];
  events: readonly BaseEvent[];
  ended: RunEnd;
  /** Why it failed: its error's message, and the words the chat showed for it (none: the chat showed none). */
  failure?: { message: string; shown?: string };
  /** Whether the chat showed it (a final response went out); false for a run stopped before it showed anything. */
  responded?: boolean;
  /** A run the chat made of what a tool server told it (an approval that came late): not the agent's. */
  origin?: "chat";
}

/** What the person, or the chat for them, did between the agent's runs. */
export type ThreadAct =
  /** A message of the person's. */
  | { type: "message"; message: Extract<Message, { role: "user" }> }
  /** A decision taken on a card; the latest for an interrupt counts. */
  | { type: "decision"; interruptId: string; decision: InterruptDecision }
  /**
   * The chat's result for a call that is its own: a frontend tool it ran, the
   * person's answer to a call of a tool without a handler, a call it was
   * handed and cannot run, a tool server's answer. `answers`: the card it
   * settles, and how.
   */
  | { type: "toolResult"; message: Extract<Message, { role: "tool" }>; answers?: { interruptId: string; answer: CardAnswer } }
  /** An action on an A2UI surface, which the run after it carries. */
  | { type: "surfaceAction"; activityId: string; action: A2uiUserAction }
  /** Feedback given with Carbon's thumbs on a response. */
  | { type: "feedback"; responseId: string; feedbackId: string; feedback: TranscriptFeedback }
  /** The person switched to the branch this act ends (a version of an answer or a question). */
  | { type: "switch" }
  /** Where the agent's server keeps the branch that grows from entry `of` (a LangGraph checkpoint). */
  | { type: "serverBranch"; of: string; branch: string };

export interface ActEntry extends EntryBase {
  kind: "act";
  act: ThreadAct;
}

/**
 * What a thread saved in the earlier snapshot format holds, read into the
 * log whole: the history it adds, its state, activities, pending interrupts
 * and usage, and what its chat showed (`transcript`).
 */
export interface ImportedEntry extends EntryBase {
  kind: "imported";
  messages: readonly Message[];
  activities: readonly Activity[];
  transcript: readonly TranscriptEntry[];
  state?: unknown;
  pendingInterrupts?: readonly PendingInterrupt[];
  usage?: readonly TokenUsage[];
}

export type LogEntry = RunEntry | ActEntry | ImportedEntry;

/** A thread as its log: the entries in the order they were written, and the entry the current branch ends at. */
export interface ThreadLogData {
  threadId: string;
  entries: readonly LogEntry[];
  /** The current branch's last entry; none while the log is empty. */
  head?: string;
}

/** The entries of the current branch, from the first to `head` (or to `until`). */
export function branchOf(log: ThreadLogData, until: string | undefined = log.head): LogEntry[] {
  const byId = indexOf(log);
  const branch: LogEntry[] = [];
  for (let entry = until === undefined ? undefined : byId.get(until); entry; entry = entry.parent === undefined ? undefined : byId.get(entry.parent)) branch.push(entry);
  return branch.reverse();
}

/** The entries that grow from `id` (from the log's start for none), in the order they were written. */
export function childrenOf(log: ThreadLogData, id: string | undefined): LogEntry[] {
  return log.entries.filter((entry) => entry.parent === id);
}

/** The entry last written of those that grow, however far, from `id` (itself when none does): where its branch now ends. */
export function leafOf(log: ThreadLogData, id: string): string {
  const under = new Set([id]);
  let leaf = id;
  for (const entry of log.entries) {
    if (entry.parent === undefined || !under.has(entry.parent)) continue;
    under.add(entry.id);
    leaf = entry.id;
  }
  return leaf;
}

/** The runs of a branch. */
export const runsOf = (branch: readonly LogEntry[]): RunEntry[] => branch.filter((entry): entry is RunEntry => entry.kind === "run");

/** The acts of one type on a branch. */
export function actsOf<T extends ThreadAct["type"]>(branch: readonly LogEntry[], type: T): (ActEntry & { act: Extract<ThreadAct, { type: T }> })[] {
  return branch.filter((entry): entry is ActEntry & { act: Extract<ThreadAct, { type: T }> } => entry.kind === "act" && entry.act.type === type);
}

function indexOf(log: ThreadLogData): Map<string, LogEntry> {
  return new Map(log.entries.map((entry) => [entry.id, entry]));
}
