import type { CarbonStreamChunk } from "../carbon";
import { ResponseDraft, type AnswerVersions, type TranscriptDecision, type TranscriptEntry, type TranscriptFeedback } from "./transcript";

/**
 * What the chat of one conversation showed, as it grows: the requests, and
 * each response built from its chunks (see `ResponseDraft`), kept in the
 * order they began, and how each interrupt was answered. Reading it joins
 * what still streams.
 */
export class TranscriptLog {
  private readonly entries: (TranscriptEntry | ResponseDraft)[];
  /** Responses whose final response has not come, by response id. */
  private readonly drafts = new Map<string, ResponseDraft>();
  /** Responses the page went away from while they streamed (`leave`): they take no more chunks. */
  private readonly left = new Set<string>();
  /** The answer of each interrupt answered, by id. */
  private readonly answers = new Map<string, TranscriptDecision["answer"]>();

  /** The versions of the latest question's answer, once it was asked again (see `AnswerVersions`). */
  versions: AnswerVersions | undefined;

  /** A log of `entries`, with `versions` when they are of its latest question. */
  constructor(entries: readonly TranscriptEntry[] = [], versions?: AnswerVersions) {
    this.entries = [...entries];
    for (const entry of entries) if (entry.kind === "decision") this.answers.set(entry.interruptId, entry.answer);
    this.versions = versions && versions.requestId === this.lastRequestId() ? versions : undefined;
  }

  addDecision(interruptId: string, answer: TranscriptDecision["answer"], time: string): void {
    this.entries.push({ kind: "decision", interruptId, answer, time });
    this.answers.set(interruptId, answer);
  }

  answerOf(interruptId: string): TranscriptDecision["answer"] | undefined {
    return this.answers.get(interruptId);
  }

  /** A question of the person's; a new one leaves the versions of the one before behind. */
  addRequest(id: string, text: string, time: string): void {
    this.entries.push({ kind: "request", id, text, time });
    if (this.versions?.requestId !== id) this.versions = undefined;
  }

  /** The id of the latest question, if any. */
  lastRequestId(): string | undefined {
    for (let at = this.entries.length - 1; at >= 0; at--) {
      const entry = this.entries[at]!;
      if (!(entry instanceof ResponseDraft) && entry.kind === "request") return entry.id;
    }
    return undefined;
  }

  /** Takes what came after the question `requestId` (its answer's responses and decisions) out, and returns it; nothing when it is not here. */
  takeAfter(requestId: string): TranscriptEntry[] {
    const at = this.entries.findIndex((entry) => !(entry instanceof ResponseDraft) && entry.kind === "request" && entry.id === requestId);
    if (at === -1) return [];
    const taken = this.entries.splice(at + 1);
    for (const entry of taken) if (entry instanceof ResponseDraft) this.drafts.delete(entry.id);
    return taken.map((entry) => (entry instanceof ResponseDraft ? entry.toEntry() : entry));
  }

  /** Puts `entries` last (an answer set aside, back). */
  appendAll(entries: readonly TranscriptEntry[]): void {
    this.entries.push(...entries);
    for (const entry of entries) if (entry.kind === "decision") this.answers.set(entry.interruptId, entry.answer);
  }

  /** A chunk, into its response's draft (begun by its first chunk, at `time`, by run `runId`); a final response makes the entry. */
  addChunk(chunk: CarbonStreamChunk, time: string, requestId?: string, runId?: string): void {
    const id = "final_response" in chunk ? chunk.final_response.id : chunk.streaming_metadata.response_id;
    if (this.left.has(id)) return;
    let draft = this.drafts.get(id);
    if (!draft) {
      draft = new ResponseDraft(id, time, requestId, runId);
      this.drafts.set(id, draft);
      this.entries.push(draft);
    }
    draft.add(chunk);
    if (!draft.finished) return;
    this.drafts.delete(id);
    this.entries[this.entries.lastIndexOf(draft)] = draft.toEntry();
  }

  /**
   * The page goes away while responses stream, and their runs go on where the
   * agent keeps threads: each keeps what it showed, unfinished, and takes no
   * more chunks. The unload breaks their connections, and that failure is no
   * answer's: the page that comes back takes the answer from the server.
   */
  leave(): void {
    for (const id of this.drafts.keys()) this.left.add(id);
  }

  /** Feedback given on an item of a response (replacing earlier feedback with the same id); false when the response is not here. */
  setFeedback(responseId: string, feedbackId: string, feedback: TranscriptFeedback): boolean {
    for (let at = this.entries.length - 1; at >= 0; at--) {
      const entry = this.entries[at]!;
      if (entry instanceof ResponseDraft || entry.kind !== "response" || entry.id !== responseId) continue;
      this.entries[at] = { ...entry, feedback: { ...entry.feedback, [feedbackId]: feedback } };
      return true;
    }
    return false;
  }

  toEntries(): TranscriptEntry[] {
    return this.entries.map((entry) => (entry instanceof ResponseDraft ? entry.toEntry() : entry));
  }
}
