import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** What the model answers to one call: text (one chunk per delta), then tool calls. */
export interface ScriptedReply {
  text?: string[];
  toolCalls?: ScriptedCall[];
  /** Milliseconds between chunks. */
  pauseMs?: number;
  /** Waits before each chunk after the first, once the pause is over: a test that drives the answer's pace releases them. */
  gate?: (chunk: number) => Promise<void>;
}

/**
 * A LangChain chat model that answers from a script instead of a provider:
 * `reply` picks the answer from the prompt, and the model streams it as a
 * provider would, one `AIMessageChunk` per text delta (each reported through
 * `handleLLMNewToken`), then each tool call as `tool_call_chunks` (name and
 * id first, the JSON arguments after). A call whose signal aborts ends at once.
 */
export class ScriptedChatModel extends BaseChatModel {
  constructor(private readonly reply: (messages: BaseMessage[]) => ScriptedReply) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  /** The script picks the calls: the tools an agent binds change nothing (a provider would be told them). */
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let whole: AIMessageChunk | undefined;
    for await (const { message: part } of this._streamResponseChunks(messages, options, runManager)) whole = whole ? whole.concat(part as AIMessageChunk) : (part as AIMessageChunk);
    const message = new AIMessage({ content: whole?.content ?? "", tool_calls: whole?.tool_calls ?? [] });
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }

  override async *_streamResponseChunks(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    const { text = [], toolCalls = [], pauseMs = 10, gate } = this.reply(messages);
    // No ids: LangChain names the chunks of a call after its run, as it does for providers that send none.
    const chunks: AIMessageChunk[] = text.map((delta) => new AIMessageChunk({ content: delta }));
    // An empty chunk closes the text, as providers end a content block: @ag-ui/langgraph takes the chunk after the
    // text as the text's end, and a tool call's first chunk there would not be streamed.
    if (text.length > 0 && toolCalls.length > 0) chunks.push(new AIMessageChunk({ content: "" }));
    toolCalls.forEach(({ id: callId, name, args }, index) => {
      chunks.push(new AIMessageChunk({ content: "", tool_call_chunks: [{ id: callId, name, args: "", index, type: "tool_call_chunk" }] }));
      chunks.push(new AIMessageChunk({ content: "", tool_call_chunks: [{ args: JSON.stringify(args), index, type: "tool_call_chunk" }] }));
    });
    for (const [index, message] of chunks.entries()) {
      await pause(pauseMs, options.signal);
      if (gate && index > 0) await gate(index);
      options.signal?.throwIfAborted();
      const delta = typeof message.content === "string" ? message.content : "";
      const chunk = new ChatGenerationChunk({ text: delta, message });
      yield chunk;
      // The chunk itself, not only its text: LangGraph's stream events take the tool call chunks from it.
      await runManager?.handleLLMNewToken(delta, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
