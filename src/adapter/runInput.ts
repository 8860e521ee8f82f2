import type { Message, ResumeEntry, RunAgentInput } from "@ag-ui/core";
import type { Conversation } from "../conversation";
import { approvalIdOf, decisionResultContent, isClientToolInterrupt, toResumeEntry } from "../hitl";
import { randomId } from "../internal/ids";
import type { RunAnswer } from "../thread/log";
import type { ResolvedOptions } from "./options";
import type { Turn } from "./turns/turn";

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
 * What a message sent instead of answering does to the cards still
 * waiting: the agent needs every open interrupt answered to go on with the
 * thread. The calls of tools the person answers are the chat's: each is
 * answered as cancelled at once (its result, `{"status":"cancelled"}`, goes
 * with the message; CopilotKit's runtime would add it after the message,
 * where the model cannot take it). The agent's own interrupts are
 * cancelled in a run of their own, a resume with no messages, before the
 * message's (LangGraph and Mastra take a run that carries a resume as the
 * resume only, and would drop a message sent with it): returned, with how
 * it answers each, when there are any. A tool server's approval stays, for
 * its reviewer.
 */
export function cancellation(turn: Turn, fields: ResolvedOptions["runFields"]): { input: RunAgentInput; answers: RunAnswer[] } | undefined {
  const waiting = turn.conversation.pendingInterrupts.filter(({ interrupt }) => approvalIdOf(interrupt) === undefined);
  for (const { interrupt } of waiting.filter(({ interrupt }) => isClientToolInterrupt(interrupt))) {
    const content = decisionResultContent({ type: "reject" });
    turn.thread.act({ type: "toolResult", message: { id: `${interrupt.toolCallId}-decision`, role: "tool", toolCallId: interrupt.toolCallId!, content }, answers: { interruptId: interrupt.id, answer: "cancelled" } });
  }
  const agents = waiting.filter(({ interrupt }) => !isClientToolInterrupt(interrupt));
  if (agents.length === 0) return undefined;
  const answers = agents.map(({ interrupt }): RunAnswer => ({ interruptId: interrupt.id, answer: "cancelled", entry: toResumeEntry(interrupt.id, { type: "reject" }) }));
  return { input: runInput(turn.conversation, fields, [], answers.map((answer) => answer.entry)), answers };
}
