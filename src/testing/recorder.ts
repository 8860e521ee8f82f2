import type { CarbonChatInstance, CarbonHistoryItem, CarbonItem, CarbonMessageOptions, CarbonMessageRequest, CarbonStreamChunk, CustomSendMessage } from "carbon-agui-rx";

interface BusHandler {
  type: string;
  handler: (event: { type: string; data?: unknown }, instance: unknown) => unknown;
}

interface RecordedMessage {
  responseId: string;
  items: Map<string, CarbonItem>;
  /** The message options so far; Carbon merges them, here the latest whole set wins (we always send the whole set). */
  options?: CarbonMessageOptions;
  final?: { generic: CarbonItem[]; errorState?: number };
}

type TranscriptLine = { from: "user"; text: string; id?: string } | { from: "assistant"; message: RecordedMessage };

/**
 * A stand-in for Carbon AI Chat's `ChatInstance` for tests: it records every
 * chunk and applies them the way Carbon 1.9.1 does: text deltas join, a complete item
 * replaces its deltas, the final response replaces the whole message. It
 * throws where Carbon's reducer would (an item's first partial chunk without
 * `response_type`), and reports responses Carbon would still be waiting on.
 *
 * It removes and adds whole messages as Carbon's `removeMessages`,
 * `addMessage` and `insertHistory` do (versions switched, a question
 * edited). It has Carbon's input (`input.updateRawValue`, read back as
 * `inputValue`), and `send` as Carbon's: the person's message shown, then
 * handed to the `customSendMessage` it was made with.
 *
 * It has Carbon's event bus (`on` / `off`), so `pressStop()` and `restart()`
 * reach what follows it as Carbon's stop button and restart do: a restart
 * clears the chat, and chunks of a response begun before it are dropped.
 * `hydrate()` loads a history as Carbon does as it starts, laying the
 * history over what came meanwhile, with `getState().isHydratingCounter`
 * and `state:change` as Carbon has them.
 */
export class CarbonRecorder implements CarbonChatInstance {
  readonly chunks: CarbonStreamChunk[] = [];
  private lines: TranscriptLine[] = [];
  private readonly byResponse = new Map<string, RecordedMessage>();
  /** Responses begun before a restart: Carbon drops their chunks. */
  private readonly beforeRestart = new Set<string>();
  private handlers: BusHandler[] = [];
  private typed = "";
  /** The requests `send` handed on and not yet settled: Carbon's stop button aborts them. */
  private readonly inFlight = new Set<AbortController>();
  private hydrating = 0;

  constructor(private readonly customSendMessage?: CustomSendMessage) {}

  /** The handlers registered on the event bus. */
  get listeners(): readonly BusHandler[] {
    return this.handlers;
  }

  readonly messaging = {
    addMessageChunk: async (chunk: CarbonStreamChunk): Promise<void> => {
      this.chunks.push(chunk);
      this.apply(chunk);
    },
    /** Removes these messages from the chat, as Carbon's `removeMessages` does. */
    removeMessages: async (messageIds: string[]): Promise<void> => {
      const removed = new Set(messageIds);
      this.lines = this.lines.filter((line) => !removed.has(line.from === "user" ? (line.id ?? "") : line.message.responseId));
      for (const id of messageIds) this.byResponse.delete(id);
    },
    /** Adds restored messages at the end of the chat, as Carbon's `insertHistory` does. */
    insertHistory: async (items: CarbonHistoryItem[]): Promise<void> => {
      for (const { message } of items) {
        if ("input" in message) this.userSays(message.input.text, message.id);
        else this.apply({ final_response: message } as CarbonStreamChunk);
      }
    },
    /** Adds a whole response at the end of the chat, as Carbon's `addMessage` does. */
    addMessage: async (message: { id: string; output: { generic: CarbonItem[] }; message_options?: CarbonMessageOptions }): Promise<void> => {
      this.apply({ final_response: message } as CarbonStreamChunk);
    },
  };

  readonly input = {
    /** Sets what Carbon's input holds, as Carbon's `input.updateRawValue` does. */
    updateRawValue: (updater: (previous: string) => string): void => {
      this.typed = updater(this.typed);
    },
  };

  /** What Carbon's input holds. */
  get inputValue(): string {
    return this.typed;
  }

  /** Sends `message` as Carbon's `send` does: shown as the person's, then handed to `customSendMessage` (this recorder's stop button aborts it). */
  async send(message: CarbonMessageRequest): Promise<void> {
    if (!this.customSendMessage) throw new Error("CarbonRecorder: made without a customSendMessage, it sends nothing");
    this.userSays(message.input.text ?? "", message.id);
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      await this.customSendMessage(message, { signal: controller.signal }, this);
    } finally {
      this.inFlight.delete(controller);
    }
  }

  on(handlers: BusHandler | BusHandler[]): this {
    this.handlers.push(...[handlers].flat());
    return this;
  }

  off(handlers: BusHandler | BusHandler[]): this {
    const removed = [handlers].flat();
    this.handlers = this.handlers.filter((handler) => !removed.includes(handler));
    return this;
  }

  /** Carbon's public state, as far as the adapter reads it. */
  getState(): { isHydratingCounter: number } {
    return { isHydratingCounter: this.hydrating };
  }

  /**
   * Loads the chat's history as Carbon does as it starts: hydrating (its
   * `isHydratingCounter` up), it calls `customLoadHistory`, and once `laidIn`
   * settles (Carbon goes on for some tasks) it lays the history in: what the
   * chat showed meanwhile is replaced, and the chunks that came meanwhile with
   * it. Then it has hydrated, and says so with `state:change`. Resolves with
   * the history.
   */
  async hydrate(customLoadHistory: (instance: this) => Promise<CarbonHistoryItem[]>, laidIn: Promise<unknown> = Promise.resolve()): Promise<CarbonHistoryItem[]> {
    const previousState = this.getState();
    this.hydrating++;
    const history = await customLoadHistory(this);
    await laidIn;
    this.lines = [];
    this.byResponse.clear();
    await this.messaging.insertHistory(history);
    this.hydrating--;
    await this.fire("state:change", undefined, { previousState, newState: this.getState() });
    return history;
  }

  /** Clicks Carbon's stop button: fires `stopStreaming`, then aborts what `send` handed on (a request you handed on yourself: abort its signal yourself). */
  async pressStop(): Promise<void> {
    await this.fire("stopStreaming");
    for (const controller of this.inFlight) controller.abort("Stop streaming");
  }

  /**
   * Restarts the conversation as Carbon's `restartConversation()` does: fires
   * `pre:restartConversation`, clears the chat (later chunks of the responses
   * it held are dropped), then fires `restartConversation`. Abort the signal
   * of a request in flight yourself, with "Conversation restarted", in between.
   */
  async restart(abortRequests: () => void = () => undefined): Promise<void> {
    await this.fire("pre:restartConversation");
    abortRequests();
    for (const responseId of this.byResponse.keys()) this.beforeRestart.add(responseId);
    this.byResponse.clear();
    this.lines = [];
    await this.fire("restartConversation");
  }

  /** Records what the user typed, for the transcript; with Carbon's id of the message, `removeMessages` can take it out. */
  userSays(text: string, id?: string): void {
    this.lines.push({ from: "user", text, ...(id !== undefined && { id }) });
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

  /** Fires a Carbon bus event to its handlers, one after another, as Carbon does (`fields`: the event's own, as `state:change` has `newState`). */
  async fire(type: string, data?: unknown, fields: Record<string, unknown> = {}): Promise<void> {
    for (const { handler } of this.handlers.filter((candidate) => candidate.type === type)) await handler({ type, ...fields, ...(data !== undefined && { data }) }, this);
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
    if (this.beforeRestart.has("final_response" in chunk ? chunk.final_response.id : chunk.streaming_metadata.response_id)) return;
    if ("final_response" in chunk) {
      const { id, output, history, message_options } = chunk.final_response;
      const message = this.message(id);
      message.final = { generic: output.generic, ...(history?.error_state !== undefined && { errorState: history.error_state }) };
      if (message_options) message.options = message_options;
      return;
    }
    const message = this.message(chunk.streaming_metadata.response_id);
    if ("partial_response" in chunk && chunk.partial_response) message.options = chunk.partial_response.message_options;
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

function renderItem(item: CarbonItem): string {
  if (item.response_type === "text") return String(item.text ?? "");
  // Carbon shows a system item's title (small and muted), not its text.
  if (item.response_type === "system") return item.title === undefined ? "" : `(${String(item.title)})`;
  if (item.response_type === "inline_error") return `[error: ${String(item.text ?? "There was an error.")}]`;
  const card = item.user_defined as { kind?: string; message?: string; reason?: string; question?: string; subagent?: string } | undefined;
  if (card?.kind === "interrupt") return `[decision card${card.subagent === undefined ? "" : ` from ${card.subagent}`}: ${card.message ?? card.reason}]`;
  if (card?.kind === "clarification") return `[clarification: ${card.question ?? "more details needed"}]`;
  // The versions bar and the question's control have no words of their own: they are the chat's, not the answer's.
  if (card?.kind === "versions" || card?.kind === "question") return "";
  const body = Array.isArray(item.body) ? (item.body as CarbonItem[]).map(renderItem).join(" ") : "";
  const buttons = Array.isArray(item.footer) ? (item.footer as CarbonItem[]).map((button) => `[${String(button.label)}]`).join(" ") : "";
  return `[${item.response_type}${body ? `: ${body}` : ""}${buttons ? ` ${buttons}` : ""}]`;
}

function renderAssistant(message: RecordedMessage): string {
  const items = (message.final?.generic ?? [...message.items.values()]).filter((item) => renderItem(item) !== "");
  const lines = items.map((item) => `${renderItem(item)}${item.streaming_metadata?.stream_stopped ? "\n  (Response stopped)" : ""}`);
  const reasoning = message.options?.reasoning?.steps ?? [];
  if (reasoning.length > 0) lines.unshift(...reasoning.map((step) => `(${step.title}: ${step.content ?? ""})`));
  const steps = message.options?.chain_of_thought ?? [];
  // Carbon labels a step with its title, else its tool's name.
  if (steps.length > 0) lines.push(`  How did I get this answer? ${steps.map((step) => `${step.title ?? step.tool_name} (${step.status ?? "success"})`).join(", ")}`);
  if (message.final?.errorState === 3) lines.push("  (This message was not completed. Please try again.)");
  if (!message.final) lines.push("  (still streaming)");
  return `Assistant: ${lines.join("\n") || "(no answer)"}`;
}
