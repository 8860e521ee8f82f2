import { EventType } from "@ag-ui/core";
import { concat, EMPTY, from, NEVER, Subject, throwError, type Observable, type SchedulerLike } from "rxjs";
import type { CarbonMessageResponse, CarbonStreamChunk } from "../carbon";
import { Conversation } from "../conversation";
import { describeContent } from "../contentParts";
import { agUiToCarbonStages, type AgUiToCarbonOptions } from "../operators/agUiToCarbon";
import { pipeFused } from "../operators/fusion";
import { historyItemsOf, type CarbonHistoryItem, type RestoreOptions } from "../persistence/restore";
import { applyAct, runBegan, runEnded } from "./fold";
import { actsOf, branchOf, type ActEntry, type ImportedEntry, type LogEntry, type RunEntry, type ThreadAct, type ThreadLogData } from "./log";
import { answeredBefore, openingOf, withPrelude, type RunOpening } from "./prelude";

export interface ReplayOptions {
  /** The stages' options, as a live run has them (item policy, `html`, tools, what each answer ends with, your operators); what times or reports is the replay's own. */
  pipeline: AgUiToCarbonOptions;
  /** Paces the conversation's `state$`. */
  scheduler: SchedulerLike;
  /** The state a thread starts from. */
  initialState?: unknown;
  /** How the chat of an imported entry (an earlier format's transcript) is checked and escaped. */
  restore: RestoreOptions;
}

type MessageAct = ActEntry & { act: Extract<ThreadAct, { type: "message" }> };

/** An item of the chat, with the entry of the log it shows. */
export interface ChatItem {
  entryId: string;
  item: CarbonHistoryItem;
}

/** A branch of a log, replayed: the conversation it comes to, and its chat as it was shown. */
export interface Replayed {
  conversation: Conversation;
  chat: ChatItem[];
}

/**
 * Replays the current branch of a log (or the branch to `until`) into a new
 * conversation: every act through the fold (`applyAct`), every run's events
 * through the same stages that showed it live, each to its one end as the
 * log says (a stop after its last event, a failure with the words the chat
 * showed), so the chat is what was shown, item for item, and the
 * conversation is what the live runs left. Synchronous; quiet (what it
 * would report was reported when it happened).
 */
export function replayBranch(log: ThreadLogData, options: ReplayOptions, until: string | undefined = log.head): Replayed {
  const conversation = new Conversation({ threadId: log.threadId, scheduler: options.scheduler, ...(options.initialState !== undefined && { state: options.initialState }) });
  const chat: ChatItem[] = [];
  const branch = branchOf(log, until);
  // A message's turn may cancel the cards waiting in a run before the message joins the thread: the chat shows it first.
  const messages = new Map(actsOf(branch, "message").map((entry) => [entry.act.message.id, entry]));
  const asked = new Set<string>();
  const ask = (entry: MessageAct | undefined) => {
    if (!entry || asked.has(entry.id)) return;
    asked.add(entry.id);
    const { message } = entry.act;
    chat.push({ entryId: entry.id, item: { message: { id: message.id, input: { text: describeContent(message.content), message_type: "text" }, history: { timestamp: Date.parse(entry.time) } }, time: entry.time } });
  };
  branch.forEach((entry, at) => {
    if (entry.kind === "imported") return void chat.push(...importEntry(conversation, entry, options.restore));
    if (entry.kind === "run") {
      if (entry.requestId !== undefined) ask(messages.get(entry.requestId));
      const response = replayRun(conversation, entry, openingOf(branch.slice(0, at), entry, conversation), options.pipeline);
      // A response with no item shows nothing in Carbon, live or restored.
      if (response && response.output.generic.length > 0) chat.push({ entryId: entry.id, item: { message: { ...response, history: { ...response.history, timestamp: Date.parse(entry.time) } }, time: entry.time } });
      return;
    }
    applyAct(conversation, entry.act);
    if (entry.act.type === "message") {
      ask(entry as MessageAct);
    } else if (entry.act.type === "feedback") {
      const { responseId, feedbackId, feedback } = entry.act;
      const shown = chat.find(({ item }) => item.message.id === responseId && "output" in item.message);
      if (shown && "output" in shown.item.message) shown.item.message.history.feedback = { ...shown.item.message.history.feedback, [feedbackId]: feedback };
    }
  });
  return { conversation, chat };
}

/**
 * One run's events through the stages, into `conversation`: the response
 * it showed, if it showed one. The run ends as the log says it did: a run
 * stopped (or left open) is stopped after its last event; one that failed
 * outside its events fails there; the words for a failure are those shown.
 */
export function replayRun(conversation: Conversation, run: RunEntry, { prelude, saidBeforeResume }: RunOpening, pipeline: AgUiToCarbonOptions): CarbonMessageResponse | undefined {
  const taken = run.events.length > 0 ? runBegan(conversation, run) : [];
  const stop = new Subject<void>();
  let response: CarbonMessageResponse | undefined;
  const stages = agUiToCarbonStages(
    {
      ...pipeline,
      ...quiet,
      coalesce: false,
      responseId: run.responseId,
      ...(run.requestId !== undefined && { requestId: run.requestId }),
      stop,
      answeredCalls: answeredBefore(conversation, prelude),
      saidBeforeResume,
      // The words the chat showed; a run read from the agent's server says none: they are found as live ones are.
      ...(run.failure && { describeError: () => run.failure?.shown }),
    },
    conversation,
  );
  (pipeFused(from(withPrelude(run.events, prelude)).pipe((events) => concat(events, endOf(run))), stages) as Observable<CarbonStreamChunk>).subscribe({
    next: (chunk) => {
      if ("final_response" in chunk) response = chunk.final_response;
    },
    error: () => undefined,
  });
  stop.next();
  runEnded(conversation, run, taken);
  return response;
}

/** What follows a run's last event when it is replayed: nothing, a stop (it was stopped, or left while it went), or its failure. */
function endOf(run: RunEntry): Observable<never> {
  if (run.ended === "stopped" || run.ended === "open") return NEVER;
  if (run.ended === "failed" && run.events.at(-1)?.type !== EventType.RUN_ERROR) return throwError(() => new Error(run.failure?.message ?? "The run failed"));
  return EMPTY;
}

/** What a replay does not tell again: it was told when it happened. */
const quiet = { onWarning: () => undefined, onInvalidEvent: () => undefined, onInvalidItem: () => undefined } satisfies AgUiToCarbonOptions;

/** An imported entry into the conversation, and its chat as its transcript has it. */
function importEntry(conversation: Conversation, entry: ImportedEntry, restore: RestoreOptions): ChatItem[] {
  conversation.importMessages(entry.messages);
  for (const activity of entry.activities) conversation.restoreActivity(activity);
  if (entry.state !== undefined) conversation.replaceState(entry.state);
  conversation.addPendingInterrupts((entry.pendingInterrupts ?? []).map(({ interrupt }) => interrupt));
  for (const { interrupt, decision } of entry.pendingInterrupts ?? []) if (decision) conversation.decideInterrupt(interrupt.id, decision);
  conversation.addUsage(entry.usage ?? []);
  conversation.settleInterrupts(entry.transcript.flatMap((shown) => (shown.kind === "decision" ? [{ interruptId: shown.interruptId, answer: shown.answer }] : [])));
  return historyItemsOf(entry.transcript, restore).map((item) => ({ entryId: entry.id, item }));
}

/** The chat items of `chat` that entries after `entryId` show (none for an entry not in it: all of them). */
export function chatAfter(chat: readonly ChatItem[], branch: readonly LogEntry[], entryId: string): ChatItem[] {
  const at = branch.findIndex((entry) => entry.id === entryId);
  const after = new Set(branch.slice(at + 1).map((entry) => entry.id));
  return chat.filter((item) => after.has(item.entryId));
}
