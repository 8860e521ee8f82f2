import type { Message } from "@ag-ui/core";
import type { Conversation } from "../conversation";
import { decisionResultContent, type PendingInterrupt } from "../hitl";

/**
 * Gives each resumed (or cancelled) interrupt's tool call that is still
 * without a result in the history the decision as its result (what the
 * resume carried, `{"status":"cancelled"}` for a rejection), right after the
 * call, as CopilotKit's own client does. Some frameworks feed the decision to
 * the model inside the run and emit no result (CopilotKit's interrupt tools),
 * and the next run would then carry a call without a result, which providers
 * reject. A framework that emits the result itself (Mastra) has it kept.
 * Returns the ids of the results it added.
 */
export function recordDecisionResults(conversation: Conversation, decided: readonly PendingInterrupt[]): string[] {
  const added: string[] = [];
  for (const { interrupt, decision } of decided) {
    const { toolCallId } = interrupt;
    const { messages } = conversation;
    if (toolCallId === undefined || messages.some((message) => message.role === "tool" && message.toolCallId === toolCallId)) continue;
    if (!conversation.findToolCall(toolCallId)) continue;
    const content = decisionResultContent(decision ?? { type: "reject" });
    // A new tool result goes right after its call and the results already there.
    conversation.upsertMessage({ id: `${toolCallId}-decision`, role: "tool", toolCallId, content } satisfies Message);
    added.push(`${toolCallId}-decision`);
  }
  return added;
}

/** Takes back decisions that never reached the agent: their results leave the history, and the interrupts are pending again, as they were. */
export function withdrawDecisions(conversation: Conversation, taken: readonly PendingInterrupt[], results: readonly string[]): void {
  if (results.length > 0) {
    const withdrawn = new Set(results);
    conversation.replaceMessages(conversation.messages.filter((message) => !withdrawn.has(message.id)));
  }
  conversation.restorePendingInterrupts(taken);
}
