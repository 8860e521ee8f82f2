import type { AnswerMessages } from "../conversation";
import type { InterruptDecision } from "../hitl";
import type { CarbonItem, CarbonMessageOptions, CarbonStreamChunk } from "../carbon";
import { StreamedMessage } from "../internal/carbonMerge";

/** Feedback given on an item, as Carbon keeps it in a response's `history.feedback`, by the item's feedback id. */
export interface TranscriptFeedback {
  is_positive: boolean;
  text?: string;
  categories?: string[];
}

/** What the person sent, as the chat showed it. */
export interface TranscriptRequest {
  kind: "request";
  /** Carbon's request id, which is also the AG-UI user message's id. */
  id: string;
  text: string;
  /** ISO 8601. */
  time: string;
}

/**
 * One answer as the chat showed it, where AG-UI messages do not say: the
 * Carbon items (custom items, cards, inline errors; text before HTML
 * escaping, which restoring applies as live text gets it), "Response
 * stopped" marks (`streaming_metadata.stream_stopped`), the chain of thought
 * with each step's status, the reasoning steps, and feedback.
 */
export interface TranscriptResponse {
  kind: "response";
  /** Carbon's response id. */
  id: string;
  requestId?: string;
  /** The run that made it (its RUN_STARTED's `runId`): a regenerated answer's run names the run before it as its `parentRunId`, and feedback names it. */
  runId?: string;
  /** ISO 8601. */
  time: string;
  items: CarbonItem[];
  messageOptions?: CarbonMessageOptions;
  /** Carbon's `MessageErrorState` of an answer that failed without words of its own. */
  errorState?: number;
  /** Saved while it still streamed (the page went away): restored as stopped. */
  unfinished?: boolean;
  feedback?: Record<string, TranscriptFeedback>;
}

/** How an interrupt was answered, once its answer went to the agent: a card restored later shows it. */
export interface TranscriptDecision {
  kind: "decision";
  interruptId: string;
  /** The decision's type; `cancelled`: a message sent instead answered it. */
  answer: InterruptDecision["type"] | "cancelled";
  /** ISO 8601. */
  time: string;
}

export type TranscriptEntry = TranscriptRequest | TranscriptResponse | TranscriptDecision;

/**
 * One response as Carbon builds it from the chunks it is given, by Carbon's
 * rules in `internal/carbonMerge` (a `text` or `conversational_search`
 * item's partial text is a delta, a complete item replaces what streamed
 * for its id, message options merge as Carbon merges them, the final
 * response replaces everything). Adding a chunk costs what the chunk holds,
 * and the text is kept as a `TextBuffer`: memory follows the text, not the deltas.
 */
export class ResponseDraft {
  private readonly message = new StreamedMessage();

  constructor(
    readonly id: string,
    /** ISO 8601: when the response began. */
    readonly time: string,
    readonly requestId?: string,
    readonly runId?: string,
  ) {}

  /** Whether the final response has come. */
  get finished(): boolean {
    return this.message.final !== undefined;
  }

  add(chunk: CarbonStreamChunk): void {
    this.message.add(chunk);
  }

  /** The response so far: the final one once it came, else what streamed, marked unfinished. */
  toEntry(): TranscriptResponse {
    const base = { kind: "response" as const, id: this.id, ...(this.requestId !== undefined && { requestId: this.requestId }), ...(this.runId !== undefined && { runId: this.runId }), time: this.time };
    const { final, messageOptions } = this.message;
    if (final) {
      const { output, message_options, history } = final;
      return {
        ...base,
        items: output.generic,
        ...(message_options && { messageOptions: message_options }),
        ...(history?.error_state !== undefined && { errorState: history.error_state }),
      };
    }
    return { ...base, items: this.message.streamedItems(), ...(messageOptions && { messageOptions }), unfinished: true };
  }
}

/** An answer set aside for another version of it: its messages and activities, and what the chat showed of it. */
export interface KeptAnswer extends AnswerMessages {
  transcript: TranscriptEntry[];
  /** Where the agent's server keeps it (`ThreadBranches`: a LangGraph checkpoint), when it keeps branches. */
  branch?: string;
}

/**
 * The versions of the answer to the latest question (`requestId`): the one
 * shown (`chosen`) lives in the conversation and its transcript, and its
 * place in `answers` is `null`; the others are kept there. Only the latest
 * question has versions: a new question drops them.
 */
export interface AnswerVersions {
  requestId: string;
  chosen: number;
  answers: readonly (KeptAnswer | null)[];
}
