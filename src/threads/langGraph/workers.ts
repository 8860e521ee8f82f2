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
 * says each invocation's worker, handoff and handoff back. The interrupts the
 * thread waits on are the invocation's its last turn left open (the worker
 * asked, as `langGraphSubagents` attributes them live). `hidden` (the
 * `subagentVisibility`): none of a worker's messages shows, its step does, as
 * live. A turn without a
 * supervisor's handoff (a swarm's) is left as it is.
 */
export function withWorkers(thread: ServerThreadOfMessages, lcMessages: unknown, supervisor: string, hidden = false): ServerThreadOfMessages {
  const supervisorsHandoffs = new Set(
    (Array.isArray(lcMessages) ? lcMessages : [])
      .filter((message): message is Record<string, unknown> => isRecord(message) && message.name === supervisor && Array.isArray(message.tool_calls) && message.tool_calls.some((call: unknown) => isRecord(call) && String(call.name).startsWith(HANDOFF)))
      .map((message) => String(message.id)),
  );
  if (supervisorsHandoffs.size === 0) return thread;
  const owners = new Map<string, string>();
  const subagents: ThreadSubagent[] = [];
  /** The invocation the last turn left open: the worker the thread's interrupts are. */
  let asking: string | undefined;
  for (const { answer } of turnsOf(thread.messages)) {
    asking = undefined;
    if (!answer.some((message) => supervisorsHandoffs.has(message.id))) continue;
    const turn = handoffOwners(answer);
    answer.forEach((message, index) => turn.owners[index] !== undefined && owners.set(message.id, turn.owners[index]!));
    for (const handoff of turn.handoffs.values()) subagents.push(hidden ? { ...handoff, unshown: answer.filter((_, index) => turn.owners[index] === handoff.subagentRunId).map((message) => message.id) } : handoff);
    asking = turn.open?.subagentRunId;
  }
  const interrupts = asking === undefined ? thread.interrupts : thread.interrupts.map((interrupt) => ({ subagentRunId: asking, ...interrupt }));
  return { ...thread, messages: thread.messages.map((message) => (owners.has(message.id) ? { ...message, subagentRunId: owners.get(message.id)! } : message)), interrupts, subagents };
}
