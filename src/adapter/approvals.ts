import { catchError, defer, distinct, EMPTY, filter, from, map, mergeMap, switchMap, take, type Observable } from "rxjs";
import type { Conversation } from "../conversation";
import { approvalIdOf, type InterruptDecision, type PendingInterrupt } from "../hitl";
import { decide, settleToolResult, takePending, withdrawDecisions } from "./turnEdges";
import { AgUiInterruptError } from "../errors";

/**
 * What the adapter asks of a tool server about its approvals: the part of the
 * tool client (`carbon-agui-rx/tool-client`) it uses, so the main entry
 * needs nothing of the tool client's code.
 */
export interface ToolServerApprovals {
  decide(approvalId: string, decision: { approved: boolean; editedArguments?: Record<string, unknown>; reason?: string }, options?: { signal?: AbortSignal }): Promise<unknown>;
  getApproval(approvalId: string, options?: { signal?: AbortSignal }): Promise<{ status: string; run_id?: string | null | undefined }>;
  listTools(options?: { signal?: AbortSignal }): Promise<readonly { name: string; input_schema: Record<string, unknown> }[]>;
  /** The run's events: reconnects with `Last-Event-ID` and skips what the server replays. */
  events$(runId: string): Observable<{ event: string; data: unknown }>;
}

/** A decided approval's answer, as the result of the call it held. */
export interface ApprovalResult {
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

async function decideOne(client: ToolServerApprovals, { interrupt, decision }: PendingInterrupt, signal: AbortSignal): Promise<ApprovalResult> {
  const approvalId = approvalIdOf(interrupt)!;
  const toolCallId = interrupt.toolCallId!;
  try {
    return { toolCallId, content: resultContent(await client.decide(approvalId, serverDecision(decision ?? { type: "reject" }), { signal })) };
  } catch (error) {
    if (!isAlreadyDecided(error)) throw error;
    const { status } = await client.getApproval(approvalId, { signal });
    return { toolCallId, content: JSON.stringify({ status, decided_elsewhere: true }) };
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

/** The tools' input schemas by name, as the tool server lists them: fetched once, when first asked for; a failure is reported and tried again next time. */
export class ToolSchemas {
  readonly byName = new Map<string, object>();
  private loading: Promise<void> | undefined;

  constructor(
    private readonly client: ToolServerApprovals,
    private readonly report: (error: unknown) => void,
  ) {}

  load(): void {
    this.loading ??= this.client.listTools().then(
      (tools) => {
        for (const tool of tools) this.byName.set(tool.name, tool.input_schema);
      },
      (error: unknown) => {
        this.loading = undefined;
        this.report(error);
      },
    );
  }
}

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

/**
 * Follows, for each approval pending in the current conversation, its run's
 * events on the tool server (`events$`: one stream per approval, until it is
 * decided), and hands over an `approval.decided` for one still pending here:
 * decided elsewhere, it is no longer this chat's to answer. A decision sent
 * from here is taken off the pending list first, so its own event is passed
 * by. An approval whose run the server cannot tell, or whose events fail,
 * stays pending (`report` hears why).
 */
export function followDecisionsElsewhere(client: ToolServerApprovals, conversations$: Observable<Conversation>, report: (error: unknown) => void): Observable<DecidedElsewhere> {
  return conversations$.pipe(
    switchMap((conversation) =>
      conversation.pendingInterrupts$.pipe(
        mergeMap((pending) => from(pending.filter(({ interrupt }) => approvalIdOf(interrupt) !== undefined))),
        distinct(({ interrupt }) => interrupt.id),
        mergeMap((entry) => {
          const approvalId = approvalIdOf(entry.interrupt)!;
          return defer(() => client.getApproval(approvalId)).pipe(
            mergeMap(({ run_id: runId }) => (runId ? client.events$(runId) : EMPTY)),
            filter(({ event, data }) => event === "approval.decided" && (data as { approval_id?: unknown } | null)?.approval_id === approvalId),
            take(1),
            map(({ data }) => data as { approved?: unknown; decided_by?: unknown }),
            filter(() => conversation.pendingInterrupts.some((still) => still.interrupt.id === entry.interrupt.id)),
            map((data) => ({ conversation, entry, approved: data.approved === true, decidedBy: typeof data.decided_by === "string" ? data.decided_by : undefined })),
            catchError((error: unknown) => (report(error), EMPTY)),
          );
        }),
      ),
    ),
  );
}

/** Takes an approval decided elsewhere off the pending list, with that decision (its card says so), and gives its call the result that says how. */
export function settleElsewhere({ conversation, entry, approved, decidedBy }: DecidedElsewhere): PendingInterrupt {
  const decided = { interrupt: entry.interrupt, decision: approved ? { type: "approve" as const } : { type: "reject" as const } };
  decide(conversation, entry.interrupt.id, decided.decision);
  const taken = takePending(conversation);
  withdrawDecisions(conversation, taken.filter(({ interrupt }) => interrupt.id !== entry.interrupt.id), []);
  settleToolResult(conversation, entry.interrupt.toolCallId!, JSON.stringify({ status: approved ? "approved" : "denied", decided_elsewhere: true, ...(decidedBy !== undefined && { decided_by: decidedBy }) }));
  return decided;
}
