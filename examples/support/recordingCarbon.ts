import type { CarbonChatInstance, CarbonItem, CarbonStreamChunk } from "carbon-agui-rx";

interface RecordedMessage {
  responseId: string;
  items: Map<string, CarbonItem>;
  final?: { generic: CarbonItem[]; errorState?: number };
}

type TranscriptLine = { from: "user"; text: string } | { from: "assistant"; message: RecordedMessage };

/**
 * A stand-in for Carbon AI Chat's `ChatInstance` that records every chunk and
 * applies them the way Carbon 1.9.1 does: text deltas join, a complete item
 * replaces its deltas, the final response replaces the whole message. It
 * throws where Carbon's reducer would (an item's first partial chunk without
 * `response_type`), and reports responses Carbon would still be waiting on.
 */
export class RecordingCarbon implements CarbonChatInstance {
  readonly chunks: CarbonStreamChunk[] = [];
  private readonly lines: TranscriptLine[] = [];
  private readonly byResponse = new Map<string, RecordedMessage>();

  readonly messaging = {
    addMessageChunk: async (chunk: CarbonStreamChunk): Promise<void> => {
      this.chunks.push(chunk);
      this.apply(chunk);
    },
  };

  /** Records what the user typed, for the transcript. */
  userSays(text: string): void {
    this.lines.push({ from: "user", text });
  }

  /** Responses that got a partial or complete item but no final response: Carbon's queue would be stuck on them. */
  get waitingForFinal(): string[] {
    return [...this.byResponse.values()].filter((message) => !message.final).map((message) => message.responseId);
  }

  /** The chat as a person would read it. */
  transcript(): string {
    return this.lines
      .map((line) => (line.from === "user" ? `You: ${line.text}` : renderAssistant(line.message)))
      .join("\n");
  }

  private message(responseId: string): RecordedMessage {
    let message = this.byResponse.get(responseId);
    if (!message) {
      message = { responseId, items: new Map() };
      this.byResponse.set(responseId, message);
      this.lines.push({ from: "assistant", message });
    }
    return message;
  }

  private apply(chunk: CarbonStreamChunk): void {
    if ("final_response" in chunk) {
      const { id, output, history } = chunk.final_response;
      this.message(id).final = { generic: output.generic, ...(history?.error_state !== undefined && { errorState: history.error_state }) };
      return;
    }
    const message = this.message(chunk.streaming_metadata.response_id);
    if ("complete_item" in chunk) {
      message.items.set(itemId(chunk.complete_item), chunk.complete_item);
      return;
    }
    const id = itemId(chunk.partial_item);
    const previous = message.items.get(id);
    if (!previous && !chunk.partial_item.response_type) throw new Error(`Carbon: the first chunk of item ${id} has no response_type`);
    const text = `${(previous?.text as string | undefined) ?? ""}${(chunk.partial_item.text as string | undefined) ?? ""}`;
    message.items.set(id, { ...previous, ...chunk.partial_item, text } as CarbonItem);
  }
}

function itemId(item: Partial<CarbonItem>): string {
  const id = item.streaming_metadata?.id;
  if (!id) throw new Error("Carbon: an item without streaming_metadata.id");
  return id;
}

function renderAssistant(message: RecordedMessage): string {
  const items = message.final?.generic ?? [...message.items.values()];
  const lines = items.map((item) => {
    const text = item.response_type === "text" ? String(item.text ?? "") : `[${item.response_type}]`;
    return `${text}${item.streaming_metadata?.stream_stopped ? "\n  (Response stopped)" : ""}`;
  });
  if (message.final?.errorState === 3) lines.push("  (This message was not completed. Please try again.)");
  if (!message.final) lines.push("  (still streaming)");
  return `Assistant: ${lines.join("\n") || "(no answer)"}`;
}
