/**
 * The Carbon AI Chat (1.9.1) shapes this library emits and accepts, written
 * out structurally so that neither our published types nor our runtime need
 * `@carbon/ai-chat`: the host app owns its Carbon version.
 * `spec/carbon.spec.ts` checks them against the real `@carbon/ai-chat` types.
 */

/** `streaming_metadata` of one item; Carbon keys items by `${response_id}-${id}`. */
export interface CarbonItemStreamingMetadata {
  id: string;
  /** Shows Carbon's stop button while the item streams. */
  cancellable?: boolean;
  /** Shows "Response stopped" under the item. */
  stream_stopped?: boolean;
}

/** A Carbon `text` item (markdown). */
export interface CarbonTextItem {
  response_type: "text";
  text: string;
  streaming_metadata?: CarbonItemStreamingMetadata;
}

/** The `response_type`s of Carbon 1.9.1's `MessageResponseTypes` enum, as the strings they are at runtime. */
export type CarbonResponseType =
  | "text"
  | "option"
  | "connect_to_agent"
  | "image"
  | "pause"
  | "user_defined"
  | "iframe"
  | "video"
  | "audio"
  | "date"
  | "inline_error"
  | "card"
  | "carousel"
  | "button"
  | "grid"
  | "conversational_search"
  | "preview_card"
  | "system";

/**
 * Any Carbon generic item. `response_type` is Carbon's `MessageResponseTypes`
 * string enum; we emit its runtime values as plain strings.
 */
export interface CarbonItem {
  response_type: string;
  streaming_metadata?: CarbonItemStreamingMetadata;
  [field: string]: unknown;
}

/** The item types whose partial `text` Carbon joins, each partial chunk a delta; other fields come from an item's first chunk. */
export const JOINED_TEXT_TYPES: ReadonlySet<string> = new Set(["text", "conversational_search"]);

/** The piece of an item that a `partial_item` chunk carries; `text` is a delta. */
export type CarbonItemDelta = Partial<CarbonItem> & { response_type: string };

/** One step of Carbon's "How did I get this answer?" panel: here, one tool call. */
export interface CarbonChainOfThoughtStep {
  title?: string;
  description?: string;
  tool_name?: string;
  request?: { args?: unknown };
  response?: { content: unknown };
  /** Carbon's `ChainOfThoughtStepStatus` values. */
  status?: "processing" | "failure" | "success";
}

/** One step of Carbon's reasoning panel; `content` is markdown. */
export interface CarbonReasoningStep {
  title: string;
  open_state?: "open" | "close" | "default";
  content?: string;
}

export interface CarbonReasoningSteps {
  open_state?: "open" | "close" | "default";
  steps?: CarbonReasoningStep[];
  content?: string;
}

/** The parts of Carbon's `message_options` we fill. Carbon merges them by key, and arrays by index. */
export interface CarbonMessageOptions {
  chain_of_thought?: CarbonChainOfThoughtStep[];
  reasoning?: CarbonReasoningSteps;
}

/** Carbon's `MessageErrorState` numeric enum, the values we use. */
export const MessageErrorState = {
  /** "This message was not completed. Please try again." */
  FAILED_WHILE_STREAMING: 3,
} as const;

/** The whole message, sent once at the end of a streamed turn. */
export interface CarbonMessageResponse {
  /** Equals `streaming_metadata.response_id` of the turn's chunks. */
  id: string;
  request_id?: string;
  output: { generic: CarbonItem[] };
  history?: { error_state?: number };
  message_options?: CarbonMessageOptions;
}

interface ChunkStreamingMetadata {
  streaming_metadata: { response_id: string };
}

export interface CarbonPartialItemChunk extends ChunkStreamingMetadata {
  partial_item: CarbonItemDelta;
  /** Message options so far, merged into the message while it streams. */
  partial_response?: { message_options: CarbonMessageOptions };
}

export interface CarbonCompleteItemChunk extends ChunkStreamingMetadata {
  complete_item: CarbonItem;
}

export interface CarbonFinalResponseChunk {
  final_response: CarbonMessageResponse;
}

/** What `instance.messaging.addMessageChunk` takes. */
export type CarbonStreamChunk = CarbonPartialItemChunk | CarbonCompleteItemChunk | CarbonFinalResponseChunk;

/** The reasons Carbon gives when it aborts a `customSendMessage` signal. */
export const CancellationReason = {
  STOP_STREAMING: "Stop streaming",
  CONVERSATION_RESTARTED: "Conversation restarted",
  TIMEOUT: "Request timeout",
} as const;

/** The part of Carbon's `MessageRequest` the adapter reads. */
export interface CarbonMessageRequest {
  id?: string;
  input: { text?: string };
  history?: { is_welcome_request?: boolean };
}

/** The part of Carbon's `CustomSendMessageOptions` the adapter reads. */
export interface CarbonSendMessageOptions {
  signal: AbortSignal;
}

/**
 * Any chunk `addMessageChunk` takes, typed loosely enough that both Carbon's
 * own `StreamChunk` (whose `response_type` is an enum) and our
 * `CarbonStreamChunk` fit: so Carbon's real `ChatInstance` is a
 * `CarbonChatInstance`, and so is a test double typed with our chunks.
 */
export type CarbonChunkLike =
  | { partial_item: object; streaming_metadata?: { response_id: string } }
  | { complete_item: object; streaming_metadata?: { response_id: string } }
  | { final_response: object };

/** Carbon's event bus (`instance.on` / `off`); handlers are `{ type, handler }` (Carbon's `BusEventType` values). */
export interface CarbonEventBus {
  on(handlers: any): unknown;
  off?(handlers: any): unknown;
}

/**
 * The part of Carbon's `ChatInstance` the adapter uses: it writes chunks, and
 * when the instance has Carbon's event bus it follows the stop button (which
 * then stops any turn, a resume too) and the restart (which resets the
 * conversation).
 */
export interface CarbonChatInstance extends Partial<CarbonEventBus> {
  messaging: {
    addMessageChunk(chunk: CarbonChunkLike): Promise<void> | void;
  };
  /** Carbon's public state: while it hydrates (`isHydratingCounter` above 0) it has not laid the history it loads in yet. */
  getState?(): { isHydratingCounter?: number };
}

/** A Carbon instance the host sends a message through (Carbon's `ChatInstance` is one): Carbon shows it as the person's, and hands it to `customSendMessage`. */
export interface CarbonSendInstance extends CarbonChatInstance {
  send(message: CarbonMessageRequest): Promise<void>;
}

/** Carbon's `messaging.customSendMessage`. */
export type CustomSendMessage = (
  request: CarbonMessageRequest,
  options: CarbonSendMessageOptions,
  instance: CarbonChatInstance,
) => Promise<void>;

/** A Carbon instance whose chat the adapter replaces when it switches threads (Carbon's `ChatInstance` is one). */
export interface CarbonThreadInstance extends CarbonChatInstance {
  messaging: CarbonChatInstance["messaging"] & {
    clearConversation(): Promise<void>;
    insertHistory(items: any[]): Promise<void>;
  };
}

/** A Carbon instance an answer's versions are switched in: its old messages removed, another version's added (Carbon's `ChatInstance` is one). */
export interface CarbonVersionsInstance extends CarbonChatInstance {
  messaging: CarbonChatInstance["messaging"] & {
    removeMessages(messageIds: string[]): Promise<void>;
    addMessage(message: any): Promise<void>;
  };
}

/** What editing a question uses of Carbon's instance: its chat's messages, its input (the question's text put there to change), and `send` (for `editQuestion`). */
export interface CarbonEditInstance extends CarbonVersionsInstance, CarbonSendInstance {
  messaging: CarbonVersionsInstance["messaging"] & {
    insertHistory(items: any[]): Promise<void>;
  };
  input: {
    updateRawValue(updater: (previous: string) => string): void;
  };
}

/**
 * Carbon's `messaging.customLoadHistory`. The items are `CarbonHistoryItem`s
 * (see `historyItemsOf`), typed loosely so that the function fits Carbon's
 * own type, whose enums our plain strings cannot be assigned to;
 * spec/persistence/restore.spec.ts checks them against Carbon's `HistoryItem`.
 */
export type CustomLoadHistory = (instance?: CarbonChatInstance) => Promise<any[]>;
