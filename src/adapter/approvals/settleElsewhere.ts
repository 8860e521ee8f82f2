import { approvalIdOf, type PendingInterrupt } from "../../hitl";
import type { Thread } from "../../thread/thread";
import type { ToolServerApprovals } from "./toolServer";

/**
 * The tool server is the truth about its approvals: a restored thread's
 * pending approvals are asked after (`getApproval`), and one decided
 * meanwhile (another reviewer, another tab) waits no more: its call's
 * result says how it was decided, for the agent's next run, as when a
 * `decide` finds it decided (`settleElsewhere`). Returns those; one the
 * server cannot tell about stays pending (its card answerable; `report`
 * hears why).
 */
export async function settleDecidedElsewhere(client: ToolServerApprovals, thread: Thread, report: (error: unknown) => void): Promise<PendingInterrupt[]> {
  const waiting = thread.conversation.pendingInterrupts.filter(({ interrupt }) => approvalIdOf(interrupt) !== undefined);
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
    if (status === undefined || status === "pending") return [];
    settleElsewhere({ thread, entry, approved: status === "approved", decidedBy: undefined });
    return [entry];
  });
}

/** An approval a reviewer decided elsewhere (another tab, another reviewer), as the tool server's `approval.decided` told it. */
export interface DecidedElsewhere {
  thread: Thread;
  entry: PendingInterrupt;
  approved: boolean;
  decidedBy: string | undefined;
}

export const elsewhereContent = (approved: boolean, decidedBy: string | undefined): Record<string, unknown> => ({
  status: approved ? "approved" : "denied",
  decided_elsewhere: true,
  ...(decidedBy !== undefined && { decided_by: decidedBy }),
});

/** An approval decided elsewhere waits no more, answered with that decision (its card says so); its call's result says how, in place of the one that said it waits. */
export function settleElsewhere({ thread, entry, approved, decidedBy }: DecidedElsewhere, tool?: Record<string, unknown>): string {
  const toolCallId = entry.interrupt.toolCallId!;
  const waiting = thread.conversation.messages.find((message) => message.role === "tool" && message.toolCallId === toolCallId);
  const id = waiting?.id ?? `${toolCallId}-approval`;
  const answers = thread.conversation.pendingInterrupts.some((still) => still.interrupt.id === entry.interrupt.id) ? { answers: { interruptId: entry.interrupt.id, answer: approved ? ("approve" as const) : ("reject" as const) } } : {};
  thread.act({ type: "toolResult", message: { id, role: "tool", toolCallId, content: JSON.stringify({ ...elsewhereContent(approved, decidedBy), ...tool }) }, ...answers });
  return id;
}
