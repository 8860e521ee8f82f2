import { MockLanguageModelV3 } from "ai/test";

// The provider types as `ai` itself sees them (the hoisted `@ai-sdk/provider` is an older major).
type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3["doStream"]>[0];
type LanguageModelV3StreamPart = Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never;

/** One tool call the scripted model makes: arguments as an object, sent as JSON. */
export interface ScriptedToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** What the model answers to one call, in order: reasoning, text (one part per delta), tool calls. */
export interface ModelStep {
  reasoning?: string[];
  text?: string[];
  toolCalls?: ScriptedToolCall[];
  /** Throw this before answering anything. */
  throwBefore?: string;
  /** Break the stream with this error after the text. */
  breakAfterText?: string;
  /** Keep the stream open this long after the text (for the stop button), then finish; aborting the call ends it at once. */
  holdAfterTextMs?: number;
  /** Keep the stream open after the text until this settles (a test drives the run's pace), then finish; aborting the call ends it at once. */
  holdUntil?: () => Promise<void>;
}

/** What the model answers to one call, from the call (the prompt it got). */
export type ModelReply = (call: LanguageModelV3CallOptions) => ModelStep;

/** A step per model call, in order; or one reply for every call. */
export type ModelScript = readonly (ModelStep | ModelReply)[] | ModelReply;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * An AI SDK mock language model that answers each call with the next step of
 * `script`, streamed part by part as a provider would (the text part is named
 * "0" in every step, as real providers do), `pauseMs` apart. Its
 * `doStreamCalls` keep every call, prompt included: what the framework
 * actually sent the model.
 */
export function scriptedModel(script: ModelScript, options: { pauseMs?: number } = {}): MockLanguageModelV3 {
  const { pauseMs = 0 } = options;
  let next = 0;
  return new MockLanguageModelV3({
    doStream: async (call) => {
      const entry = typeof script === "function" ? script : script[next++];
      if (entry === undefined) throw new Error(`The scripted model has no step ${next} (it has ${script.length})`);
      const step = typeof entry === "function" ? entry(call) : entry;
      if (step.throwBefore !== undefined) throw new Error(step.throwBefore);
      return { stream: stepStream(step, call.abortSignal, pauseMs) };
    },
  });
}

function stepStream(step: ModelStep, signal: AbortSignal | undefined, pauseMs: number): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (step.reasoning) {
    parts.push({ type: "reasoning-start", id: "r0" }, ...step.reasoning.map((delta) => ({ type: "reasoning-delta" as const, id: "r0", delta })), { type: "reasoning-end", id: "r0" });
  }
  if (step.text) {
    parts.push({ type: "text-start", id: "0" }, ...step.text.map((delta) => ({ type: "text-delta" as const, id: "0", delta })));
    parts.push({ type: "text-end", id: "0" });
  }
  if (step.breakAfterText === undefined) {
    for (const { id, name, args } of step.toolCalls ?? []) {
      const input = JSON.stringify(args);
      parts.push(
        { type: "tool-input-start", id, toolName: name },
        { type: "tool-input-delta", id, delta: input },
        { type: "tool-input-end", id },
        { type: "tool-call", toolCallId: id, toolName: name, input },
      );
    }
    const toolCalls = (step.toolCalls ?? []).length > 0;
    parts.push({ type: "finish", usage, finishReason: { unified: toolCalls ? "tool-calls" : "stop", raw: toolCalls ? "tool_calls" : "stop" } });
  }
  // A held step stops after its text until the hold is over or the call is aborted.
  const held = step.holdAfterTextMs !== undefined || step.holdUntil !== undefined;
  const heldAt = held ? parts.findIndex((part) => part.type === "text-end") : -1;
  let position = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      if (position === heldAt) await hold(step, signal);
      if (signal?.aborted) return controller.error(signal.reason);
      const part = parts[position++];
      if (part !== undefined) return controller.enqueue(part);
      if (step.breakAfterText !== undefined) return controller.error(new Error(step.breakAfterText));
      controller.close();
    },
  });
}

function hold({ holdAfterTextMs = 0, holdUntil }: ModelStep, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    signal?.addEventListener("abort", () => resolve(), { once: true });
    if (holdUntil) return void holdUntil().then(resolve, resolve);
    const timer = setTimeout(resolve, holdAfterTextMs);
    // A run the framework never stops (CopilotKit over HTTP, Mastra) must not keep the process alive.
    timer.unref();
    signal?.addEventListener("abort", () => clearTimeout(timer), { once: true });
  });
}
