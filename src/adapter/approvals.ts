import { catchError, defer, distinct, EMPTY, filter, from, ignoreElements, merge, mergeMap, ReplaySubject, switchMap, takeWhile, tap, type Observable, type Subscription } from "rxjs";
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
  /** An approval: its status, its run, and the tool and arguments it would run with. */
  getApproval(approvalId: string, options?: { signal?: AbortSignal }): Promise<{ status: string; run_id?: string | null | undefined; tool?: string; arguments?: Record<string, unknown> }>;
  listTools(options?: { signal?: AbortSignal }): Promise<readonly { name: string; input_schema: Record<string, unknown> }[]>;
  /** The run's events: reconnects with `Last-Event-ID` and skips what the server replays; with `retry: false`, one connection only. */
  events$(runId: string, options?: { retry?: false }): Observable<{ event: string; data: unknown }>;
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

/** What a tool server's approval's tool run did, as its run's events (and the call's result) tell it: for its decision card. */
export type ApprovalRunStep =
  | { readonly step: "started" }
  | { readonly step: "finished" }
  | { readonly step: "failed"; readonly kind?: string }
  /** The tool's result, from the tool server's answer to a `decide` sent from here. */
  | { readonly step: "result"; readonly result: unknown };

/** What the adapter does with what `ApprovalRuns` learns. */
export interface ApprovalRunsHooks {
  /** Hears why a run's events could not be followed. */
  report(error: unknown): void;
  /** Whether an approval decided elsewhere may be taken off the pending list from its event (not while an answer sent from here is on its way: its `decide` finds it decided, 409). */
  mayTake(conversation: Conversation, entry: PendingInterrupt): boolean;
  /** An approval decided elsewhere is off the pending list, answered as `answered` (its card says so). */
  settled(conversation: Conversation, answered: PendingInterrupt): void;
  /** The outcome of approvals decided elsewhere is in these results of the history: the agent may go on with it. */
  learned(conversation: Conversation, resultIds: readonly string[]): void;
}

const TOOL_ENDS = new Set(["tool.finished", "tool.failed"]);

/**
 * Follows, for each approval pending in the current conversation, its run's
 * events on the tool server (`events$`: one stream per approval, which
 * reconnects with `Last-Event-ID` and skips what the server replays), until
 * its tool has finished or failed, or it was denied:
 *
 * - its `tool.started`, `tool.finished` and `tool.failed` are its steps
 *   (`steps$`), with the tool's result once the call has it;
 * - an `approval.decided` for one still pending here was decided elsewhere
 *   (another reviewer, another tab): it is taken off the pending list with
 *   that decision (`settleElsewhere`), and once the outcome is known (denied
 *   at once; approved, when its tool has finished or failed, or its events
 *   end) its call's result says it, and `hooks.learned` hears of it, once.
 *
 * A decision sent from here is taken off the pending list first, so its own
 * event is passed by. An approval whose run the server cannot tell, or whose
 * events fail, stays pending (`hooks.report` hears why).
 */
export class ApprovalRuns {
  private readonly steps = new Map<string, ReplaySubject<ApprovalRunStep>>();
  private readonly subscription: Subscription;

  constructor(
    private readonly client: ToolServerApprovals,
    conversations$: Observable<Conversation>,
    private readonly hooks: ApprovalRunsHooks,
  ) {
    this.subscription = conversations$.pipe(switchMap((conversation) => this.followAll(conversation))).subscribe();
  }

  /** The steps of the tool run an approval's interrupt holds, from the first (replayed to a late subscriber), each once. */
  steps$(interruptId: string): Observable<ApprovalRunStep> {
    return this.stepsOf(interruptId).asObservable();
  }

  dispose(): void {
    this.subscription.unsubscribe();
  }

  private stepsOf(interruptId: string): ReplaySubject<ApprovalRunStep> {
    let steps = this.steps.get(interruptId);
    if (!steps) this.steps.set(interruptId, (steps = new ReplaySubject<ApprovalRunStep>()));
    return steps;
  }

  private followAll(conversation: Conversation): Observable<never> {
    /** The approvals followed in this conversation, by their calls' ids. */
    const calls = new Map<string, string>();
    const followed = conversation.pendingInterrupts$.pipe(
      mergeMap((pending) => from(pending.filter(({ interrupt }) => approvalIdOf(interrupt) !== undefined && interrupt.toolCallId !== undefined))),
      distinct(({ interrupt }) => interrupt.id),
      tap(({ interrupt }) => calls.set(interrupt.toolCallId!, interrupt.id)),
      mergeMap((entry) => this.follow(conversation, entry)),
    );
    // The tool's result comes with the tool server's answer to a decide sent from here, which settles the call's result.
    const resulted = new Set<string>();
    const results = conversation.messages$.pipe(
      tap((messages) => {
        for (const message of messages) {
          const interruptId = message.role === "tool" ? calls.get(message.toolCallId) : undefined;
          if (interruptId === undefined || resulted.has(interruptId)) continue;
          const result = toolResultOf(message.content);
          if (result === undefined) continue;
          resulted.add(interruptId);
          this.stepsOf(interruptId).next({ step: "result", result: result.result });
        }
      }),
      ignoreElements(),
    );
    return merge(followed, results);
  }

  private follow(conversation: Conversation, first: PendingInterrupt): Observable<never> {
    const { interrupt } = first;
    const approvalId = approvalIdOf(interrupt)!;
    const toolCallId = interrupt.toolCallId!;
    const steps = this.stepsOf(interrupt.id);
    /** Decided elsewhere: the result that says how, until the agent may learn it. */
    let elsewhere: { content: Record<string, unknown>; learned: boolean } | undefined;
    const learn = (tool?: Record<string, unknown>) => {
      if (!elsewhere || elsewhere.learned) return;
      elsewhere.learned = true;
      const resultId = settleToolResult(conversation, toolCallId, JSON.stringify({ ...elsewhere.content, ...tool }));
      this.hooks.learned(conversation, [resultId]);
    };
    const decided = (data: { approved?: unknown; decided_by?: unknown }) => {
      const entry = conversation.pendingInterrupts.find((still) => still.interrupt.id === interrupt.id);
      if (!entry || !this.hooks.mayTake(conversation, entry)) return;
      const approved = data.approved === true;
      const decidedBy = typeof data.decided_by === "string" ? data.decided_by : undefined;
      this.hooks.settled(conversation, settleElsewhere({ conversation, entry, approved, decidedBy }));
      elsewhere = { content: elsewhereContent(approved, decidedBy), learned: false };
      if (!approved) learn();
    };
    return defer(() => this.client.getApproval(approvalId)).pipe(
      mergeMap(({ run_id: runId }) => (runId ? this.client.events$(runId) : EMPTY)),
      filter(({ data }) => (data as { approval_id?: unknown } | null)?.approval_id === approvalId),
      takeWhile(({ event, data }) => !TOOL_ENDS.has(event) && !(event === "approval.decided" && (data as { approved?: unknown }).approved !== true), true),
      tap({
        next: ({ event, data }) => {
          const about = (data ?? {}) as { approved?: unknown; decided_by?: unknown; kind?: unknown };
          if (event === "approval.decided") decided(about);
          else if (event === "tool.started") steps.next({ step: "started" });
          else if (event === "tool.finished") {
            steps.next({ step: "finished" });
            learn({ tool_status: "finished" });
          } else if (event === "tool.failed") {
            const kind = typeof about.kind === "string" ? about.kind : undefined;
            steps.next(kind === undefined ? { step: "failed" } : { step: "failed", kind });
            learn({ tool_status: "failed", ...(kind !== undefined && { kind }) });
          }
        },
        // Its events ended before its tool did: the agent learns what is known.
        complete: () => learn(),
        error: () => learn(),
      }),
      ignoreElements(),
      catchError((error: unknown) => (this.hooks.report(error), EMPTY)),
    );
  }
}

/** The tool's result in a call's result, when it is the tool server's answer to an approved decide (`{ status: "ok", result }`). */
function toolResultOf(content: unknown): { result: unknown } | undefined {
  if (typeof content !== "string" || !content.includes('"ok"')) return undefined;
  try {
    const parsed = JSON.parse(content) as { status?: unknown; result?: unknown } | null;
    return parsed?.status === "ok" && "result" in parsed ? { result: parsed.result } : undefined;
  } catch {
    return undefined;
  }
}

const elsewhereContent = (approved: boolean, decidedBy: string | undefined): Record<string, unknown> => ({
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
