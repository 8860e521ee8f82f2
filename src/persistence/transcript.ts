import type { InterruptDecision } from "../hitl";
import type { CarbonItem, CarbonMessageOptions } from "../carbon";

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
