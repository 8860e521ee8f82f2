import { actsOf, childrenOf, type ActEntry, type LogEntry, type RunEntry, type ThreadLogData } from "./log";

/**
 * The versions of the latest answer, as the current branch of the log
 * holds them: the latest question (the branch's last message of the
 * person's), the answers that grow from it (each a branch: regenerate adds
 * one), which of them the branch takes, and the response the versions bar
 * goes under (the branch's last one that showed). One reading for the bar,
 * a regenerate and a switch.
 */
export interface LatestAnswer {
  question: ActEntry & { act: { type: "message" } };
  /** The first entry of each answer to the question, in the order they were made. */
  answers: readonly string[];
  /** Which of them the branch takes. */
  index: number;
  /** The responses Carbon shows for the branch after the question, in order. */
  responses: readonly string[];
  /** The response the bar goes under: the last of them. */
  responseId: string;
}

/** The latest answer of the branch `branch` of `log`, if its latest question has one that showed. */
export function latestAnswer(log: ThreadLogData, branch: readonly LogEntry[]): LatestAnswer | undefined {
  const question = actsOf(branch, "message").at(-1);
  if (!question) return undefined;
  const at = branch.indexOf(question);
  const responses = responsesOf(branch.slice(at + 1));
  const chosen = branch[at + 1];
  if (responses.length === 0 || !chosen) return undefined;
  // An answer is a branch that showed something: an attempt stopped before it showed anything is none.
  const answers = childrenOf(log, question.id)
    .filter((entry) => entry.id === chosen.id || showsSomething(log, entry.id))
    .map((entry) => entry.id);
  return { question: question as LatestAnswer["question"], answers, index: answers.indexOf(chosen.id), responses, responseId: responses.at(-1)! };
}

/** Whether an entry, or any that grows from it, showed a response. */
function showsSomething(log: ThreadLogData, id: string): boolean {
  const under = new Set([id]);
  for (const entry of log.entries) {
    if (entry.id !== id && (entry.parent === undefined || !under.has(entry.parent))) continue;
    under.add(entry.id);
    if (responsesOf([entry]).length > 0) return true;
  }
  return false;
}

/** The run before the question on the branch (a new answer's `parentRunId`: the run it grows from). */
export function runBefore(branch: readonly LogEntry[], question: ActEntry): RunEntry | undefined {
  const at = branch.indexOf(question);
  return branch.slice(0, at).filter((entry): entry is RunEntry => entry.kind === "run").at(-1);
}

/** The responses Carbon shows for `entries`: each run's that showed, each imported entry's as its transcript has them. */
export function responsesOf(entries: readonly LogEntry[]): string[] {
  return entries.flatMap((entry) => {
    if (entry.kind === "run") return entry.responded === false ? [] : [entry.responseId];
    if (entry.kind === "imported") return entry.transcript.flatMap((shown) => (shown.kind === "response" ? [shown.id] : []));
    return [];
  });
}

/** Where the agent's server keeps the answer that begins at `answer` (its latest word on it), if it said. */
export function serverBranchOf(log: ThreadLogData, answer: string): string | undefined {
  return actsOf(log.entries, "serverBranch").filter((entry) => entry.act.of === answer).at(-1)?.act.branch;
}
