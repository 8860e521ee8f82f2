import type { Conversation } from "../../conversation";
import { approvalIdOf, type PendingInterrupt } from "../../hitl";
import { decide, settleToolResult, takePending, withdrawDecisions } from "../turnEdges";
import type { ToolServerApprovals } from "./toolServer";

/**
 * The tool server is the truth about its approvals: a restored thread's
 * pending approvals are asked after (`getApproval`), and one decided
 * meanwhile (another reviewer, another tab) is no longer pending: its call's
 * result says how it was decided, for the agent's next run, as when a
 * `decide` finds it decided (`settleElsewhere`). Returns those, each with how it was decided; one
 * the server cannot tell about stays pending (its card answerable; `report`
 * hears why).
 */
export async function settleDecidedElsewhere(client: ToolServerApprovals, conversation: Conversation, report: (error: unknown) => void): Promise<PendingInterrupt[]> {
  const waiting = conversation.pendingInterrupts.filter(({ interrupt }) => approvalIdOf(interrupt) !== undefined);
  if (waiting.length === 0) return [];
  const statuses = await Promise.all(
    waiting.map(({ interrupt }) =>
      client.getApproval(approvalIdOf(interrupt)!).then(
        ({ status }) => status,
        (error: unknown) => void report(error),
      ),
    ),
  );
  return waiting.flatMap((entry, at) => {
    const status = statuses[at];
    return status === undefined || status === "pending" ? [] : [settleElsewhere({ conversation, entry, approved: status === "approved", decidedBy: undefined })];
  });
}

/** An approval a reviewer decided elsewhere (another tab, another reviewer), as the tool server's `approval.decided` told it. */
export interface DecidedElsewhere {
  conversation: Conversation;
  entry: PendingInterrupt;
  approved: boolean;
  decidedBy: string | undefined;
}

export const elsewhereContent = (approved: boolean, decidedBy: string | undefined): Record<string, unknown> => ({
  status: approved ? "approved" : "denied",
  decided_elsewhere: true,
  ...(decidedBy !== undefined && { decided_by: decidedBy }),
});

/** Takes an approval decided elsewhere off the pending list, with that decision (its card says so), and gives its call the result that says how. */
export function settleElsewhere({ conversation, entry, approved, decidedBy }: DecidedElsewhere): PendingInterrupt {
  const decided = { interrupt: entry.interrupt, decision: approved ? { type: "approve" as const } : { type: "reject" as const } };
  decide(conversation, entry.interrupt.id, decided.decision);
  const taken = takePending(conversation);
  withdrawDecisions(conversation, taken.filter(({ interrupt }) => interrupt.id !== entry.interrupt.id), []);
  settleToolResult(conversation, entry.interrupt.toolCallId!, JSON.stringify(elsewhereContent(approved, decidedBy)));
  return decided;
}
