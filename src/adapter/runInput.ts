import type { Message, ResumeEntry, RunAgentInput } from "@ag-ui/core";
import type { CarbonMessageRequest } from "../carbon";
import type { Conversation } from "../conversation";
import { toResumeEntry } from "../hitl";
import { randomId } from "../internal/ids";
import type { ResolvedOptions } from "./options";
import { recordDecisionResults } from "./decisionResults";

/** A run of the conversation's thread: its history `messages`, its state, and the adapter's tools, context and forwarded props. */
export function runInput(conversation: Conversation, fields: ResolvedOptions["runFields"], messages: Message[], resume: ResumeEntry[]): RunAgentInput {
  return {
    threadId: conversation.threadId,
    runId: randomId(),
    messages,
    tools: fields.tools,
    context: fields.context,
    state: conversation.state,
    forwardedProps: fields.forwardedProps,
    ...(resume.length > 0 && { resume }),
  };
}

/**
 * The run a user message starts: the message joins the history, and the
 * interrupts still pending are answered as cancelled (the agent needs every
 * open interrupt answered to go on with the thread), their calls' results
 * placed before the message: CopilotKit's runtime would add them after it,
 * where the model cannot take them.
 */
export function userMessageInput(conversation: Conversation, request: CarbonMessageRequest, fields: ResolvedOptions["runFields"]): RunAgentInput {
  const cancelled = conversation.takePendingInterrupts().map(({ interrupt }) => ({ interrupt, decision: { type: "reject" as const } }));
  recordDecisionResults(conversation, cancelled);
  conversation.upsertMessage({ id: request.id ?? randomId(), role: "user", content: request.input.text ?? "" });
  return runInput(conversation, fields, [...conversation.messages], cancelled.map(({ interrupt, decision }) => toResumeEntry(interrupt.id, decision)));
}
