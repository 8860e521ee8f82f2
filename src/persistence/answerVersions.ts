import type { Conversation } from "../conversation";
import type { AnswerVersions, KeptAnswer, TranscriptEntry } from "./transcript";

export type { AnswerVersions, KeptAnswer } from "./transcript";
import type { TranscriptLog } from "./transcriptLog";

/** Sets aside the answer to `requestId`: the conversation ends with the question, and so does what the chat shows. */
export function setAside(conversation: Conversation, log: TranscriptLog, requestId: string): KeptAnswer {
  return { ...conversation.takeAnswer(requestId), transcript: log.takeAfter(requestId) };
}

/** Puts an answer set aside back after its question. */
export function putBack(conversation: Conversation, log: TranscriptLog, answer: KeptAnswer): void {
  conversation.putAnswer(answer);
  log.appendAll(answer.transcript);
}

/** The versions once the answer shown (`replaced`) makes way for a new one, asked again: the new one is last, and chosen. */
export function withNewVersion(versions: AnswerVersions | undefined, requestId: string, replaced: KeptAnswer): AnswerVersions {
  const answers = versions?.requestId === requestId ? [...versions.answers] : [null];
  const chosen = versions?.requestId === requestId ? versions.chosen : 0;
  answers[chosen] = replaced;
  return { requestId, chosen: answers.length, answers: [...answers, null] };
}

/** The versions once version `index` is shown in place of the one shown now (`replaced`), and what is to be put back. */
export function withChosen(versions: AnswerVersions, index: number, replaced: KeptAnswer): { versions: AnswerVersions; shown: KeptAnswer } {
  const answers = [...versions.answers];
  const shown = answers[index]!;
  answers[versions.chosen] = replaced;
  answers[index] = null;
  return { versions: { ...versions, chosen: index, answers }, shown };
}

/** The responses of a transcript: the messages Carbon shows for them. */
export const responseIdsOf = (transcript: readonly TranscriptEntry[]): string[] => transcript.flatMap((entry) => (entry.kind === "response" ? [entry.id] : []));
