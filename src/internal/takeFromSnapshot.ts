import type { Message } from "@ag-ui/core";
import type { ChainSteps } from "./chainSteps";
import { TextBuffer } from "./textBuffer";
import { toolStepKey } from "./chainSteps";
import { parseToolArguments } from "./toolArguments";
import { describeContent } from "../contentParts";
import type { AgUiToolCall, ToolCallsInProgress } from "./toolCallsInProgress";

/**
 * Takes the tool calls of the run's assistant messages (those with a call the
 * run streamed) as a MESSAGES_SNAPSHOT has them, where the events got them
 * wrong: `@ag-ui/langgraph` streams a message's second call into its first
 * (its arguments too), so the snapshot is the only place the second call and
 * the first's own arguments are found. A call still streaming keeps its
 * arguments; a call with other arguments gets the snapshot's, in its step; a
 * call the run did not stream gets a step, with its result when the snapshot
 * has one. A call of the run still waiting for its result is answered by
 * the snapshot's (`answer`): LangGraph streams none for a supervisor's
 * `transfer_to_*`, its snapshot holds it. The chain is sent once, if it
 * changed. Returns the calls the run did not stream, for `onToolCall`.
 */
export function takeFromSnapshot(messages: readonly Message[], calls: ToolCallsInProgress, chain: ChainSteps, answer: (toolCallId: string, content: string, error: string | undefined) => void): AgUiToolCall[] {
  const found: AgUiToolCall[] = [];
  const resultOf = firstResults(messages);
  chain.batch(() => {
    for (const [toolCallId] of calls.unanswered()) {
      const result = calls.isOpen(toolCallId) ? undefined : resultOf(toolCallId);
      if (result) answer(toolCallId, result.content, result.error);
    }
    for (const message of messages) {
      if (message.role !== "assistant" || !message.toolCalls?.some((toolCall) => calls.has(toolCall.id))) continue;
      for (const { id, function: { name, arguments: raw } } of message.toolCalls) {
        const call = calls.get(id);
        if (call && (calls.isOpen(id) || sameArguments(call.arguments.toString(), raw))) continue;
        const args = parseToolArguments(raw);
        if (call) {
          call.arguments = TextBuffer.of(raw);
          chain.set(call.step, { ...chain.at(call.step)!, request: { args } });
          continue;
        }
        const result = resultOf(id);
        const status = result ? (result.error ? "failure" : "success") : "processing";
        const step = toolStepKey(id);
        chain.add(step, { tool_name: name, request: { args }, ...(result && { response: { content: result.content } }), status });
        calls.add(id, { name, messageId: message.id, arguments: TextBuffer.of(raw), step, status: result ? "answered" : "open" });
        found.push({ toolCallId: id, name, args, parentMessageId: message.id });
      }
    }
  });
  return found;
}

/** A call's first result in `messages` (a result the run sent before the call was known); `messages` read once, at the first question. */
function firstResults(messages: readonly Message[]): (toolCallId: string) => { content: string; error?: string } | undefined {
  let results: Map<string, { content: string; error?: string }> | undefined;
  return (toolCallId) => {
    if (!results) {
      results = new Map();
      for (const message of messages) {
        if (message.role !== "tool" || results.has(message.toolCallId)) continue;
        // A result in parts shows as a person reads it (its text, a line per image or file).
        results.set(message.toolCallId, { content: describeContent(message.content), ...(message.error !== undefined && { error: message.error }) });
      }
    }
    return results.get(toolCallId);
  };
}

/** Whether two argument strings say the same, however their JSON is spaced. */
export function sameArguments(streamed: string, snapshot: string): boolean {
  return streamed === snapshot || JSON.stringify(parseToolArguments(streamed)) === JSON.stringify(parseToolArguments(snapshot));
}
