import type { Message } from "@ag-ui/core";

/** A LangGraph supervisor's node name, as `createSupervisor` names it by default (its `supervisorName`). */
export const SUPERVISOR = "supervisor";
/** The name of a LangGraph supervisor's handoff tool begins so: `transfer_to_<worker>`. */
export const HANDOFF = "transfer_to_";
/** The name of a worker's handoff back to the supervisor begins so. */
export const HANDOFF_BACK = "transfer_back_to_";

/** A worker's invocation, as a supervisor's handoff started it: `<worker>:<handoff call id>`, as `langGraphSubagents` names it live; `unshown`, its handoff back (its message and the result), which a live run never streams. */
export interface Handoff {
  subagentRunId: string;
  name: string;
  parentToolCallId: string;
  unshown: string[];
}

/**
 * Whose each of a turn's messages is (the messages after the person's), read
 * from their order: from a handoff's result (`transfer_to_<worker>`) up to
 * the worker's handoff back and its result, the invocation the handoff
 * started; the supervisor's own (its handoff calls and their results among
 * them) nobody's. Also the invocations, by `subagentRunId`, and the one
 * still going at the turn's end (`open`: a worker that has not handed back).
 */
export function handoffOwners(turn: readonly Message[]): { owners: (string | undefined)[]; handoffs: Map<string, Handoff>; open: Handoff | undefined } {
  /** The turn's handoffs, by their call ids; and its handoffs back. */
  const byCall = new Map<string, Handoff>();
  const backCalls = new Set<string>();
  let current: Handoff | undefined;
  const owners = turn.map((message) => {
    if (message.role === "system" || message.role === "developer" || message.role === "user") return undefined;
    if (message.role === "tool" && byCall.has(message.toolCallId)) {
      // The handoff's result is the supervisor's; the worker's messages follow it.
      current = byCall.get(message.toolCallId);
      return undefined;
    }
    const calls = message.role === "assistant" ? (message.toolCalls ?? []) : [];
    for (const call of calls) {
      const name = call.function.name;
      if (name.startsWith(HANDOFF)) byCall.set(call.id, { subagentRunId: `${name.slice(HANDOFF.length)}:${call.id}`, name: name.slice(HANDOFF.length), parentToolCallId: call.id, unshown: [] });
      if (name.startsWith(HANDOFF_BACK)) backCalls.add(call.id);
    }
    const owner = calls.some((call) => byCall.has(call.id)) ? undefined : current;
    if (owner && (calls.some((call) => backCalls.has(call.id)) || (message.role === "tool" && backCalls.has(message.toolCallId)))) owner.unshown.push(message.id);
    if (message.role === "tool" && backCalls.has(message.toolCallId)) current = undefined;
    return owner?.subagentRunId;
  });
  return { owners, handoffs: new Map([...byCall.values()].map((handoff) => [handoff.subagentRunId, handoff])), open: current };
}
