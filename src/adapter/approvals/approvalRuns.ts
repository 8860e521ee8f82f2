import { catchError, defer, distinct, EMPTY, filter, from, ignoreElements, merge, mergeMap, ReplaySubject, switchMap, takeWhile, tap, type Observable, type Subscription } from "rxjs";
import { approvalIdOf, type PendingInterrupt } from "../../hitl";
import type { Thread } from "../../thread/thread";
import { settleElsewhere } from "./settleElsewhere";
import type { ToolServerApprovals } from "./toolServer";

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
  mayTake(thread: Thread, entry: PendingInterrupt): boolean;
  /** The outcome of an approval decided elsewhere is in the thread: the agent may go on with it. */
  learned(thread: Thread): void;
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
    threads$: Observable<Thread>,
    private readonly hooks: ApprovalRunsHooks,
  ) {
    this.subscription = threads$.pipe(switchMap((thread) => this.followAll(thread))).subscribe();
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

  private followAll(thread: Thread): Observable<never> {
    /** The approvals followed in this thread, by their calls' ids. */
    const calls = new Map<string, string>();
    const conversation$ = thread.conversation$;
    const followed = conversation$.pipe(
      switchMap((conversation) => conversation.pendingInterrupts$),
      mergeMap((pending) => from(pending.filter(({ interrupt }) => approvalIdOf(interrupt) !== undefined && interrupt.toolCallId !== undefined))),
      distinct(({ interrupt }) => interrupt.id),
      tap(({ interrupt }) => calls.set(interrupt.toolCallId!, interrupt.id)),
      mergeMap((entry) => this.follow(thread, entry)),
    );
    // The tool's result comes with the tool server's answer to a decide sent from here, which settles the call's result.
    const resulted = new Set<string>();
    const results = conversation$.pipe(
      switchMap((conversation) => conversation.messages$),
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

  private follow(thread: Thread, first: PendingInterrupt): Observable<never> {
    const { interrupt } = first;
    const approvalId = approvalIdOf(interrupt)!;
    const steps = this.stepsOf(interrupt.id);
    /** Decided elsewhere: how, until the agent may learn it. */
    let elsewhere: { approved: boolean; decidedBy: string | undefined; learned: boolean } | undefined;
    const learn = (tool?: Record<string, unknown>) => {
      if (!elsewhere || elsewhere.learned) return;
      elsewhere.learned = true;
      if (tool) settleElsewhere({ thread, entry: first, approved: elsewhere.approved, decidedBy: elsewhere.decidedBy }, tool);
      this.hooks.learned(thread);
    };
    const decided = (data: { approved?: unknown; decided_by?: unknown }) => {
      const entry = thread.conversation.pendingInterrupts.find((still) => still.interrupt.id === interrupt.id);
      if (!entry || !this.hooks.mayTake(thread, entry)) return;
      elsewhere = { approved: data.approved === true, decidedBy: typeof data.decided_by === "string" ? data.decided_by : undefined, learned: false };
      settleElsewhere({ thread, entry, approved: elsewhere.approved, decidedBy: elsewhere.decidedBy });
      if (!elsewhere.approved) learn();
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

