import type { ContentPart, Message } from "@ag-ui/core";
import type { Conversation } from "../conversation";
import { decisionResultContent, type InterruptDecision, type PendingInterrupt } from "../hitl";

/*
 * Every write the adapter makes to a conversation outside the pipeline, at
 * the edges of a turn: what the person sends, what the chat answers (a
 * handler's result, a decision), and the pending interrupts a turn takes
 * and may give back. While a run maps events, only `applyToConversation`
 * writes.
 */

/** The person's message joins the history. */
export function addUserMessage(conversation: Conversation, message: { id: string; content: string | ContentPart[] }): void {
  conversation.upsertMessage({ ...message, role: "user" });
}

/** A frontend tool's result (with `error` when its handler threw), right after its call and the results already there. */
export function addToolResult(conversation: Conversation, result: { id: string; toolCallId: string; content: string; error?: string }): void {
  conversation.upsertMessage({ role: "tool", ...result });
}

/** The result of a call whose result so far said it waits (a tool server's approval): the same message, with the answer. */
export function settleToolResult(conversation: Conversation, toolCallId: string, content: string): string {
  const waiting = conversation.messages.find((message) => message.role === "tool" && message.toolCallId === toolCallId);
  const id = waiting?.id ?? `${toolCallId}-approval`;
  conversation.upsertMessage({ id, role: "tool", toolCallId, content });
  return id;
}

/** A decision for a pending interrupt, replacing an earlier one. */
export function decide(conversation: Conversation, interruptId: string, decision: InterruptDecision): void {
  conversation.decideInterrupt(interruptId, decision);
}

/** The pending interrupts, with their decisions, which the turn now answers: none are pending after it. */
export function takePending(conversation: Conversation): readonly PendingInterrupt[] {
  return conversation.takePendingInterrupts();
}

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
