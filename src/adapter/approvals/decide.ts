import { approvalIdOf, type InterruptDecision, type PendingInterrupt } from "../../hitl";
import { AgUiInterruptError } from "../../errors";
import type { ToolServerApprovals } from "./toolServer";

/** A decided approval's answer, as the result of the call it held. */
export interface ApprovalResult {
  entry: PendingInterrupt;
  toolCallId: string;
  content: string;
}

/** What deciding a turn's approvals came to: each answer the tool server gave, and the entries it did not take, with the first error. */
export interface DecidedApprovals {
  results: ApprovalResult[];
  notTaken: PendingInterrupt[];
  error?: unknown;
}

/**
 * Sends each decided approval to the tool server (`decide`, all at once):
 * approve (with the edited arguments), or deny with the reason. Its answer
 * (the tool's result, or `{ status: "denied", reason }`) is the call's
 * result. An approval someone else decided first (409
 * `approval-already-decided`) is an outcome, not a failure: its result says
 * how it was decided, as `getApproval` tells it. Any other error leaves the
 * entry pending, to be answered again.
 */
export async function decideApprovals(client: ToolServerApprovals, entries: readonly PendingInterrupt[], signal: AbortSignal): Promise<DecidedApprovals> {
  const settled = await Promise.allSettled(entries.map((entry) => decideOne(client, entry, signal)));
  const decided: DecidedApprovals = { results: [], notTaken: [] };
  settled.forEach((outcome, at) => {
    if (outcome.status === "fulfilled") return void decided.results.push(outcome.value);
    decided.notTaken.push(entries[at]!);
    decided.error ??= outcome.reason;
  });
  return decided;
}

async function decideOne(client: ToolServerApprovals, entry: PendingInterrupt, signal: AbortSignal): Promise<ApprovalResult> {
  const { interrupt, decision } = entry;
  const approvalId = approvalIdOf(interrupt)!;
  const toolCallId = interrupt.toolCallId!;
  try {
    return { entry, toolCallId, content: resultContent(await client.decide(approvalId, serverDecision(decision ?? { type: "reject" }), { signal })) };
  } catch (error) {
    if (!isAlreadyDecided(error)) throw error;
    const { status } = await client.getApproval(approvalId, { signal });
    return { entry, toolCallId, content: JSON.stringify({ status, decided_elsewhere: true }) };
  }
}

/** A decision as the tool server takes it. */
function serverDecision(decision: InterruptDecision): { approved: boolean; editedArguments?: Record<string, unknown>; reason?: string } {
  switch (decision.type) {
    case "approve":
      return { approved: true };
    case "edit":
    case "answer": {
      const edited = decision.type === "edit" ? decision.args : decision.result;
      if (typeof edited !== "object" || edited === null || Array.isArray(edited)) throw new AgUiInterruptError("A tool server's approval takes edited arguments as a JSON object");
      return { approved: true, editedArguments: edited as Record<string, unknown> };
    }
    case "reject":
      return { approved: false, ...(decision.reason !== undefined && { reason: decision.reason }) };
  }
}

const resultContent = (result: unknown) => (typeof result === "string" ? result : JSON.stringify(result ?? null));

/** The tool client's `ApprovalAlreadyDecidedError`, known by its problem (the main entry does not import the tool client's classes). */
function isAlreadyDecided(error: unknown): boolean {
  const { status, kind } = (typeof error === "object" && error !== null ? error : {}) as { status?: unknown; kind?: unknown };
  return status === 409 && kind === "approval-already-decided";
}

