import type { ContentPart, Message, ResumeEntry, RunAgentInput } from "@ag-ui/core";
import type { Conversation } from "../conversation";
import { approvalIdOf, isClientToolInterrupt, toResumeEntry } from "../hitl";
import { randomId } from "../internal/ids";
import type { ResolvedOptions } from "./options";
import { addUserMessage, recordDecisionResults, takePending, withdrawDecisions } from "./turnEdges";

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

/** What a message sent instead of answering does to the interrupts still pending. */
export interface Cancellation {
  /** The cards it answers as cancelled for good: calls of tools the person answers, whose results go with the message. */
  answered: readonly string[];
  /** The run that tells the agent its own interrupts are cancelled, when it has any. */
  run?: {
    input: RunAgentInput;
    /** The interrupts it cancels. */
    interrupts: readonly string[];
    /** The interrupts pending again, as they were, and their calls without the cancelled results: the agent never took the run. */
    putBack(): void;
  };
}

/**
 * Cancels the interrupts still pending when the person sends a message
 * instead (the agent needs every open interrupt answered to go on with the
 * thread). The cancelled calls get their results in the history first:
 * CopilotKit's runtime would add them after the message, where the model
 * cannot take them. The agent's own interrupts are cancelled in a run of
 * their own, a resume with no messages, before the message's: LangGraph and
 * Mastra take a run that carries a resume as the resume only, and would drop
 * a message sent with it. Calls of tools the person answers need no run:
 * their results go with the message. A tool server's approval stays
 * pending, for its reviewer.
 */
export function cancellation(conversation: Conversation, fields: ResolvedOptions["runFields"]): Cancellation {
  const all = takePending(conversation);
  // A tool server's approval is no question to the agent: it stays for its reviewer, answerable after the message too.
  const waitingForReviewer = all.filter(({ interrupt }) => approvalIdOf(interrupt) !== undefined);
  if (waitingForReviewer.length > 0) withdrawDecisions(conversation, waitingForReviewer, []);
  const taken = all.filter(({ interrupt }) => approvalIdOf(interrupt) === undefined);
  const cancelled = taken.map(({ interrupt }) => ({ interrupt, decision: { type: "reject" as const } }));
  const [asked, agents] = [cancelled.filter(({ interrupt }) => isClientToolInterrupt(interrupt)), cancelled.filter(({ interrupt }) => !isClientToolInterrupt(interrupt))];
  // The person's tool calls are answered as cancelled for good: their results go with the message.
  recordDecisionResults(conversation, asked);
  const answered = asked.map(({ interrupt }) => interrupt.id);
  if (agents.length === 0) return { answered };
  const results = recordDecisionResults(conversation, agents);
  return {
    answered,
    run: {
      input: runInput(conversation, fields, [], agents.map(({ interrupt, decision }) => toResumeEntry(interrupt.id, decision))),
      interrupts: agents.map(({ interrupt }) => interrupt.id),
      // As they were: with the decisions they held.
      putBack: () => withdrawDecisions(conversation, taken.filter(({ interrupt }) => !isClientToolInterrupt(interrupt)), results),
    },
  };
}

/** The run a user message starts: the message joins the history, and the run carries the whole of it. */
export function userMessageInput(conversation: Conversation, message: { id: string; content: string | ContentPart[] }, fields: ResolvedOptions["runFields"]): RunAgentInput {
  addUserMessage(conversation, message);
  return runInput(conversation, fields, [...conversation.messages], []);
}
