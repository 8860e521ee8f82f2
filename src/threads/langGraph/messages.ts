import type { Interrupt, Message } from "@ag-ui/core";
import { AgUiThreadServerError } from "../../errors";
import { isRecord } from "../../internal/isRecord";
import type { ServerThreadOfMessages } from "../agentThreads";
import { UnreadableThreadError } from "../threadServerError";

/** A thread's state (`threads.getState`) as the chat reads it: the history, the state (its values, as the agent's STATE_SNAPSHOT gives it), the interrupts waiting. */
export function readThreadState(threadId: string, raw: unknown): ServerThreadOfMessages {
  if (!isRecord(raw)) throw new AgUiThreadServerError("load", threadId, "unreadable");
  const values = raw.values ?? {};
  if (!isRecord(values)) throw unreadable(threadId, "its values are not an object");
  // The state as the agent's STATE_SNAPSHOT gives it after each run (its values, messages among them), so the chat's state reads the same restored as live.
  const { messages: lcMessages = [] } = values;
  const state = values;
  let messages: Message[];
  let interrupts: Interrupt[];
  try {
    messages = langChainMessagesToAgUi(lcMessages);
    interrupts = langGraphInterruptsToAgUi(raw.tasks ?? []);
  } catch (error) {
    throw unreadable(threadId, error);
  }
  return { threadId, messages, state, interrupts };
}

function unreadable(threadId: string, cause: unknown): AgUiThreadServerError {
  return new AgUiThreadServerError("load", threadId, "unreadable", undefined, { cause: cause instanceof Error ? cause : new Error(String(cause)) });
}


/**
 * LangChain messages (the thread state's JSON) as AG-UI messages, as
 * `@ag-ui/langgraph` 0.0.43's `langchainMessagesToAgui` converts them for
 * its MESSAGES_SNAPSHOT: the same ids, roles, contents (a part list: its
 * first text part; a person's parts: text and images), tool calls and
 * reasoning messages, so a history restored from here is the one a run gives.
 */
export function langChainMessagesToAgUi(messages: unknown): Message[] {
  if (!Array.isArray(messages)) throw new UnreadableThreadError("values.messages is not an array");
  const out: Message[] = [];
  messages.forEach((message: unknown, index) => {
    if (!isRecord(message) || typeof message.type !== "string") throw new UnreadableThreadError(`message ${index} is not a LangChain message`);
    if (typeof message.id !== "string") throw new UnreadableThreadError(`message ${index} has no id`);
    const { id, content } = message;
    if (content !== undefined && content !== null && typeof content !== "string" && !Array.isArray(content)) throw new UnreadableThreadError(`message ${index}'s content is neither text nor parts`);
    switch (message.type) {
      case "human":
        out.push({ id, role: "user", content: Array.isArray(content) ? (multimodalToAgUi(content) as Extract<Message, { role: "user" }>["content"]) : stringifyIfNeeded(textOfContent(content)) });
        break;
      case "ai":
      case "generic": {
        if (Array.isArray(content)) {
          content.forEach((block: unknown, blockIndex) => {
            const reasoning = reasoningMessageOf(block, id, blockIndex);
            if (reasoning) out.push(reasoning);
          });
        }
        const text = textOfContent(content);
        const toolCalls = message.tool_calls;
        if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls)) throw new UnreadableThreadError(`message ${index}'s tool_calls is not an array`);
        out.push({
          id,
          role: "assistant",
          content: text ? stringifyIfNeeded(text) : "",
          ...(Array.isArray(toolCalls) && {
            toolCalls: toolCalls.map((call: unknown) => {
              if (!isRecord(call) || typeof call.name !== "string") throw new UnreadableThreadError(`message ${index} has a tool call without a name`);
              return { id: String(call.id), type: "function" as const, function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } };
            }),
          }),
        });
        break;
      }
      case "system":
        out.push({ id, role: "system", content: stringifyIfNeeded(textOfContent(content)) });
        break;
      case "tool":
        out.push({
          id,
          role: "tool",
          content: stringifyIfNeeded(textOfContent(content)),
          toolCallId: String(message.tool_call_id),
          ...(message.status === "error" && { error: "error" }),
        });
        break;
      default:
        throw new UnreadableThreadError(`message ${index} is of a type AG-UI has no role for: ${message.type.slice(0, 40)}`);
    }
  });
  return out;
}

/** `resolveMessageContent`: the text, or a part list's first text part's, or null. */
function textOfContent(content: unknown): string | null {
  if (!content) return null;
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.length > 0) {
    const part: unknown = content.find((candidate: unknown) => isRecord(candidate) && candidate.type === "text");
    const text = isRecord(part) ? part.text : undefined;
    return text === undefined || text === null ? null : (text as string);
  }
  return null;
}

function stringifyIfNeeded(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

/** `convertLangchainMultimodalToAgui`: text parts, and `image_url` parts as images (by data or URL). */
function multimodalToAgUi(content: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const item of content) {
    if (!isRecord(item)) continue;
    if (item.type === "text" && item.text) {
      out.push({ type: "text", text: item.text });
    } else if (item.type === "image_url") {
      const imageUrl: unknown = typeof item.image_url === "string" ? item.image_url : isRecord(item.image_url) ? item.image_url.url : undefined;
      if (typeof imageUrl !== "string" || !imageUrl) continue;
      if (imageUrl.startsWith("data:")) {
        const [header = "", data] = imageUrl.split(",", 2);
        const mimeType = header.includes(":") ? (header.split(":")[1] ?? "").split(";")[0] : "image/png";
        out.push({ type: "image", source: { type: "data", value: data || "", mimeType } });
      } else {
        out.push({ type: "image", source: { type: "url", value: imageUrl } });
      }
    }
  }
  return out;
}

/** `reasoningBlockToAguiMessage`: a `reasoning` content block as a reasoning message (null when wholly empty). */
function reasoningMessageOf(block: unknown, assistantId: string, index: number): Message | null {
  if (!isRecord(block) || block.type !== "reasoning") return null;
  let text = "";
  const summary = Array.isArray(block.summary) ? block.summary.map((entry: unknown) => (isRecord(entry) ? entry.text : undefined)).filter((part): part is string => Boolean(part)) : [];
  if (summary.length > 0) text = summary.join("\n");
  else text = ((block.reasoning ?? block.text ?? "") as string) || "";
  const encrypted = block.encrypted_content;
  if (!block.id && !text && !encrypted) return null;
  return { id: String(block.id ?? `${assistantId}-reasoning-${index}`), role: "reasoning", content: text, ...(typeof encrypted === "string" && encrypted && { encryptedValue: encrypted }) } as Message;
}

/**
 * The pending interrupts of the thread's tasks, as `@ag-ui/langgraph` 0.0.43
 * gives them in its RUN_FINISHED interrupt outcome (`langGraphInterruptToAGUI`):
 * a resume with their ids reaches the waiting nodes.
 */
export function langGraphInterruptsToAgUi(tasks: unknown): Interrupt[] {
  if (!Array.isArray(tasks)) throw new UnreadableThreadError("tasks is not an array");
  const list = tasks.flatMap((task: unknown) => {
    const interrupts = isRecord(task) ? (task.interrupts ?? []) : [];
    if (!Array.isArray(interrupts)) throw new UnreadableThreadError("a task's interrupts is not an array");
    return interrupts as unknown[];
  });
  return list.map((lg) => {
    if (!isRecord(lg) || !lg.id) throw new UnreadableThreadError("a LangGraph interrupt has no id");
    const raw = lg.value;
    const dict = isRecord(raw) ? raw : null;
    const message = typeof raw === "string" ? raw : dict?.message;
    const toolCallId = dict?.toolCallId ?? dict?.tool_call_id;
    const responseSchema = dict?.responseSchema ?? dict?.response_schema;
    const expiresAt = dict?.expiresAt ?? dict?.expires_at;
    return {
      id: lg.id as string,
      reason: (dict?.reason ?? "langgraph:interrupt") as string,
      ...(message !== undefined && { message: message as string }),
      ...(toolCallId !== undefined && { toolCallId: toolCallId as string }),
      ...(responseSchema !== undefined && { responseSchema: responseSchema as Record<string, unknown> }),
      ...(expiresAt !== undefined && { expiresAt: expiresAt as string }),
      metadata: { langgraph: { raw, ns: lg.ns, resumable: lg.resumable, when: lg.when } },
    } as Interrupt;
  });
}

