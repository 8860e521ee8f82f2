import type { Conversation } from "../conversation";
import { resumeResultContent, type PendingInterrupt } from "../hitl";
import type { RunEntry, ThreadAct } from "./log";

/**
 * Folds an act of the thread's log into its conversation: the one place
 * an act becomes history, a decision on a card, or a card answered. A live
 * act and a restored one go through here alike.
 */
export function applyAct(conversation: Conversation, act: ThreadAct): void {
  switch (act.type) {
    case "message":
      return conversation.upsertMessage(act.message);
    case "decision":
      return conversation.decideInterrupt(act.interruptId, act.decision);
    case "toolResult":
      conversation.upsertMessage(act.message);
      if (act.answers) conversation.settleInterrupts([act.answers]);
      return;
    default:
      // A surface action, feedback, a switch, a server's branch: nothing the conversation holds.
      return;
  }
}

/**
 * The run began (its first event came): the agent has its resume, and the
 * cards it answers wait no more, each answered as the resume says.
 * Returns them, as they waited, for `runEnded`. A run that never began
 * answers nothing: its cards wait still, with their decisions.
 */
export function runBegan(conversation: Conversation, run: Pick<RunEntry, "answers">): PendingInterrupt[] {
  return conversation.settleInterrupts((run.answers ?? []).map(({ interruptId, answer }) => ({ interruptId, answer })));
}

/**
 * The run is over: each call an interrupt it answered held that is still
 * without a result gets what the resume carried as its result, right after
 * the call, as CopilotKit's own client records it (its runtime feeds the
 * decision to the model and sends no result; a next run carrying a call
 * without one is refused). The person's answer is that call's result; one
 * the agent sent is kept.
 */
export function runEnded(conversation: Conversation, run: Pick<RunEntry, "answers">, taken: readonly PendingInterrupt[]): void {
  for (const { interrupt } of taken) {
    const { toolCallId } = interrupt;
    const answer = run.answers?.find((entry) => entry.interruptId === interrupt.id);
    if (toolCallId === undefined || !answer || !conversation.findToolCall(toolCallId)) continue;
    if (conversation.messages.some((message) => message.role === "tool" && message.toolCallId === toolCallId)) continue;
    conversation.upsertMessage({ id: `${toolCallId}-decision`, role: "tool", toolCallId, content: resumeResultContent(answer.entry) });
  }
}
