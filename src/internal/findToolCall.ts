import type { Message, ToolCall } from "@ag-ui/core";

/** The latest tool call with this id in `messages`, with the id of the assistant message that made it. */
export function findToolCall(messages: readonly Message[], toolCallId: string): { call: ToolCall; messageId: string } | undefined {
  for (let position = messages.length - 1; position >= 0; position--) {
    const message = messages[position]!;
    const call = message.role === "assistant" ? message.toolCalls?.find((candidate) => candidate.id === toolCallId) : undefined;
    if (call) return { call, messageId: message.id };
  }
  return undefined;
}
