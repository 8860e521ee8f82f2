import type { Interrupt, Message } from "@ag-ui/core";
import { actsOf, branchOf, type LogEntry, type RunEntry, type ThreadLogData } from "../thread/log";
import { turnsOf } from "./serverLog";

/** A thread's log as this browser kept it, with the history it comes to. */
export interface CachedLog {
  log: ThreadLogData;
  messages: readonly Message[];
}

/**
 * The thread as the chat goes on with it, from the agent's server's log
 * (`logOfServerThread`) and what this browser kept of it. The server holds
 * the truth of what was said; what only this browser knew is kept where it
 * still fits: a turn the server holds exactly as the browser last saw it
 * (the same messages, by id and content) and saw to its end is the
 * browser's own entries (its runs' events: Carbon items, stopped and failed
 * marks, feedback; the last turn with the other versions of its answer); a
 * turn changed elsewhere, never seen here, left mid-answer when the page
 * went away, or still going on the server, is the server's. The decisions
 * taken here on cards the server still has waiting are kept.
 */
export function withCachedLog(server: ThreadLogData, serverMessages: readonly Message[], waiting: readonly Interrupt[], cached: CachedLog | undefined, running: boolean): ThreadLogData {
  if (!cached) return server;
  const seenHere = new Map(turnsOf(cached.messages).map((turn) => [turn.request.id, fingerprint([turn.request, ...turn.answer])]));
  const serverTurns = turnsOf(serverMessages);
  const stillRunning = running ? serverTurns.at(-1)?.request.id : undefined;
  const cachedBranch = branchOf(cached.log);
  const kept = segmentsOf(cachedBranch);
  const unchanged = (requestId: string) => requestId !== stillRunning && seenHere.get(requestId) === fingerprint(turnOf(serverTurns, requestId)) && !(kept.get(requestId) ?? []).some(isOpenRun);
  const served = segmentsOf(branchOf(server));
  const entries: LogEntry[] = [...(served.get(undefined) ?? [])];
  const requests = [...served.keys()].filter((key): key is string => key !== undefined);
  let head = entries.at(-1)?.id;
  requests.forEach((requestId, at) => {
    const own = unchanged(requestId) ? kept.get(requestId) : undefined;
    const segment = own ?? served.get(requestId)!;
    const [first, ...rest] = segment;
    entries.push({ ...first!, ...(head !== undefined ? { parent: head } : { parent: undefined }) } as LogEntry, ...rest);
    head = segment.at(-1)!.id;
    // The latest answer's other versions, as this browser kept them.
    if (own && at === requests.length - 1) entries.push(...versionsOf(cached.log, first!.id, new Set(segment.map((entry) => entry.id))));
  });
  const lastFromServer = requests.length === 0 || !unchanged(requests.at(-1)!);
  if (!lastFromServer) head = cached.log.head ?? head;
  // The feedback given here on the responses still shown, and the decisions taken here on the cards the server still has waiting.
  const included = new Set(entries.map((entry) => entry.id));
  const shown = new Set(entries.flatMap((entry) => (entry.kind === "run" ? [entry.responseId] : [])));
  const pending = new Set(waiting.map((interrupt) => interrupt.id));
  const feedback = actsOf(cached.log.entries, "feedback").filter((entry) => shown.has(entry.act.responseId));
  const decisions = lastFromServer ? actsOf(cachedBranch, "decision").filter((entry) => pending.has(entry.act.interruptId)) : [];
  for (const act of [...feedback, ...decisions]) {
    if (included.has(act.id)) continue;
    entries.push({ ...act, ...(head !== undefined && { parent: head }) });
    head = act.id;
  }
  return { threadId: server.threadId, entries: entries.map(withoutUndefinedParent), ...(head !== undefined && { head }) };
}

/** The entries of a branch by the person's message they follow (the prefix before the first message under `undefined`). */
function segmentsOf(branch: readonly LogEntry[]): Map<string | undefined, LogEntry[]> {
  const segments = new Map<string | undefined, LogEntry[]>();
  let current: LogEntry[] = [];
  segments.set(undefined, current);
  for (const entry of branch) {
    if (entry.kind === "act" && entry.act.type === "message") segments.set(entry.act.message.id, (current = []));
    current.push(entry);
  }
  return segments;
}

/** The entries of `log` under `question` that are not on the branch kept (`kept`): the other answers to it. */
function versionsOf(log: ThreadLogData, question: string, kept: ReadonlySet<string>): LogEntry[] {
  const under = new Set([question]);
  const others: LogEntry[] = [];
  for (const entry of log.entries) {
    if (entry.parent === undefined || !under.has(entry.parent)) continue;
    under.add(entry.id);
    if (!kept.has(entry.id)) others.push(entry);
  }
  return others;
}

const isOpenRun = (entry: LogEntry) => entry.kind === "run" && (entry as RunEntry).ended === "open";

function turnOf(turns: ReturnType<typeof turnsOf>, requestId: string): Message[] {
  const turn = turns.find((candidate) => candidate.request.id === requestId);
  return turn ? [turn.request, ...turn.answer] : [];
}

function withoutUndefinedParent(entry: LogEntry): LogEntry {
  if (entry.parent !== undefined) return entry;
  const { parent: _parent, ...rest } = entry;
  return rest as LogEntry;
}

/** What identifies a turn's messages whichever side wrote them: ids, roles, words, calls and the calls answered. */
function fingerprint(messages: readonly Message[]): string {
  return JSON.stringify(
    messages.map((message) => [
      message.id,
      message.role,
      typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""),
      message.role === "assistant" ? (message.toolCalls ?? []).map((call) => [call.id, call.function.name, call.function.arguments]) : [],
      message.role === "tool" ? message.toolCallId : "",
    ]),
  );
}
