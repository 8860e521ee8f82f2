import { JOINED_TEXT_TYPES, type CarbonItem, type CarbonMessageOptions, type CarbonMessageResponse, type CarbonStreamChunk } from "../carbon";
import { TextBuffer } from "../internal/textBuffer";

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
  answer: "approve" | "edit" | "reject" | "cancelled";
  /** ISO 8601. */
  time: string;
}

export type TranscriptEntry = TranscriptRequest | TranscriptResponse | TranscriptDecision;

interface DraftItem {
  item: CarbonItem;
  /** The text of an item still streaming whose text Carbon joins, delta by delta. */
  text?: TextBuffer;
}

/**
 * One response as Carbon builds it from the chunks it is given: a `text` (or
 * `conversational_search`) item's partial text is a delta, a complete item
 * replaces what streamed for its id, message options merge by key, and the
 * final response replaces everything. Adding a chunk costs what the chunk
 * holds, and the text is kept as a `TextBuffer`: memory follows the text, not the deltas.
 */
export class ResponseDraft {
  private readonly items = new Map<string, DraftItem>();
  private messageOptions: CarbonMessageOptions | undefined;
  private final: CarbonMessageResponse | undefined;

  constructor(
    readonly id: string,
    /** ISO 8601: when the response began. */
    readonly time: string,
    readonly requestId?: string,
  ) {}

  /** Whether the final response has come. */
  get finished(): boolean {
    return this.final !== undefined;
  }

  add(chunk: CarbonStreamChunk): void {
    if ("final_response" in chunk) {
      this.final = chunk.final_response;
      return;
    }
    if ("complete_item" in chunk) {
      const { complete_item: item } = chunk;
      this.items.set(item.streaming_metadata?.id ?? `item-${this.items.size}`, { item });
      return;
    }
    const { partial_item: delta, partial_response } = chunk;
    if (partial_response?.message_options) this.messageOptions = { ...this.messageOptions, ...partial_response.message_options };
    const id = delta.streaming_metadata?.id ?? `item-${this.items.size}`;
    let entry = this.items.get(id);
    if (!entry?.text) {
      // A new item, or a complete one streaming again, which goes on from its text.
      const before = entry?.item;
      entry = { item: { ...before, ...delta } as CarbonItem, ...(JOINED_TEXT_TYPES.has(delta.response_type) && { text: TextBuffer.of(typeof before?.text === "string" ? before.text : "") }) };
      this.items.set(id, entry);
    } else {
      const { text: _text, ...fields } = delta;
      Object.assign(entry.item, fields);
    }
    if (entry.text && typeof delta.text === "string" && delta.text !== "") entry.text.append(delta.text);
  }

  /** The response so far: the final one once it came, else what streamed, marked unfinished. */
  toEntry(): TranscriptResponse {
    const base = { kind: "response" as const, id: this.id, ...(this.requestId !== undefined && { requestId: this.requestId }), time: this.time };
    if (this.final) {
      const { output, message_options, history } = this.final;
      return {
        ...base,
        items: output.generic,
        ...(message_options && { messageOptions: message_options }),
        ...(history?.error_state !== undefined && { errorState: history.error_state }),
      };
    }
    const items = Array.from(this.items.values(), ({ item, text }) => (text ? { ...item, text: text.toString() } : item));
    return { ...base, items, ...(this.messageOptions && { messageOptions: this.messageOptions }), unfinished: true };
  }
}
