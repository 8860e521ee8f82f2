import { actsOf, type ActEntry, type LogEntry, type ThreadLogData } from "./log";
import { responsesOf } from "./versions";

/** A question of the person's, as the log holds it: the message act. */
export type QuestionEntry = ActEntry & { act: { type: "message" } };

/**
 * A question on the current branch and its versions: each edit of it is a
 * question of its own, growing from where the first was asked (a sibling
 * in the log), so each is a branch. One reading for the control under the
 * question, an edit and a switch.
 */
export interface QuestionVersions {
  /** The question the branch takes. */
  question: QuestionEntry;
  /** The questions asked at its place, in the order they were asked (each an entry id). */
  versions: readonly string[];
  /** Which of them the branch takes. */
  index: number;
  /** The first response Carbon shows after it on the branch, which the control goes with; none while nothing showed. */
  responseId?: string;
}

/** The questions of `branch` of `log`, each with its versions. */
export function questionsOf(log: ThreadLogData, branch: readonly LogEntry[]): QuestionVersions[] {
  const questions = actsOf(branch, "message") as QuestionEntry[];
  const bySite = new Map<string | undefined, string[]>();
  for (const entry of actsOf(log.entries, "message")) {
    const site = bySite.get(entry.parent) ?? [];
    bySite.set(entry.parent, [...site, entry.id]);
  }
  return questions.map((question) => {
    const versions = bySite.get(question.parent) ?? [question.id];
    const after = branch.slice(branch.indexOf(question) + 1);
    const next = after.findIndex((entry) => entry.kind === "act" && entry.act.type === "message");
    const responseId = responsesOf(next === -1 ? after : after.slice(0, next))[0];
    return { question, versions, index: versions.indexOf(question.id), ...(responseId !== undefined && { responseId }) };
  });
}

/** The question of `branch` whose message is `requestId` (Carbon's id of the person's message), if the branch holds it. */
export function questionOf(branch: readonly LogEntry[], requestId: string): QuestionEntry | undefined {
  return (actsOf(branch, "message") as QuestionEntry[]).find((entry) => entry.act.message.id === requestId);
}
