import { handoffOwners, HANDOFF } from "../../internal/handoffOwners";
import { isRecord } from "../../internal/isRecord";
import type { ServerThreadOfMessages, ThreadSubagent } from "../agentThreads";
import { turnsOf } from "../serverLog";

/**
 * A LangGraph supervisor's thread with its workers' messages attributed, as
 * `langGraphSubagents` attributes a live run's: in each turn where the
 * supervisor handed off (its LangChain message, named `supervisor`, calls
 * `transfer_to_<worker>`), what follows a handoff's result up to the
 * worker's handoff back is the worker's (`handoffOwners`), and `subagents`
 * says each invocation's worker, handoff and handoff back. A turn without a
 * supervisor's handoff (a swarm's) is left as it is.
 */
export function withWorkers(thread: ServerThreadOfMessages, lcMessages: unknown, supervisor: string): ServerThreadOfMessages {
  const supervisorsHandoffs = new Set(
    (Array.isArray(lcMessages) ? lcMessages : [])
      .filter((message): message is Record<string, unknown> => isRecord(message) && message.name === supervisor && Array.isArray(message.tool_calls) && message.tool_calls.some((call: unknown) => isRecord(call) && String(call.name).startsWith(HANDOFF)))
      .map((message) => String(message.id)),
  );
  if (supervisorsHandoffs.size === 0) return thread;
  const owners = new Map<string, string>();
  const subagents: ThreadSubagent[] = [];
  for (const { answer } of turnsOf(thread.messages)) {
    if (!answer.some((message) => supervisorsHandoffs.has(message.id))) continue;
    const turn = handoffOwners(answer);
    answer.forEach((message, index) => turn.owners[index] !== undefined && owners.set(message.id, turn.owners[index]!));
    subagents.push(...turn.handoffs.values());
  }
  return { ...thread, messages: thread.messages.map((message) => (owners.has(message.id) ? { ...message, subagentRunId: owners.get(message.id)! } : message)), subagents };
}
