import { EventType, type BaseEvent, type Message, type RunFinishedEvent } from "@ag-ui/core";
import { catchError, concatMap, defer, EMPTY, finalize, from, map, mergeMap, of, takeUntil, takeWhile, tap, timeout, timer, toArray, type MonoTypeOperatorFunction, type Observable, type SchedulerLike } from "rxjs";
import type { Conversation } from "../conversation";
import { CarbonAgUiError } from "../errors";
import { approvalIdOf, pendingApprovalOf } from "../hitl";
import type { ToolServerApprovals } from "./approvals";

/** How long the run's events are read for the first one, at most. */
export const APPROVALS_FIRST_EVENT_MS = 300;
/** Once events come, reading stops when this long passes without another (the server sends what it has in one burst). */
export const APPROVALS_QUIET_MS = 50;
/** The longest the run's events are read, however often they come. */
export const APPROVALS_READ_MS = 1_000;
/** The longest the approvals found are asked after (`getApproval`). */
export const APPROVALS_LOOKUP_MS = 5_000;

/** What `approvalsRequested` works with. */
export interface ApprovalsRequestedOptions {
  client: ToolServerApprovals;
  /** The conversation the run writes into: an approval whose card already waits there gets no second one. */
  conversation: Conversation;
  /** The run's id as the agent was given it (`RunAgentInput.runId`), which it passes on as the tool server's `runId`. */
  runId: string;
  /** The adapter's scheduler: every wait is timed on it. */
  scheduler: SchedulerLike;
  /** Hears why the tool server could not tell (typed), once per run. */
  report: (warning: CarbonAgUiError) => void;
}

/**
 * Approvals requested on the tool server in the run, which the run's
 * AG-UI stream does not show as a `{ "pending_approval": … }` result (the
 * agent's framework swallowed it, or the tool ran on the backend without a
 * visible call), become decision cards like the others.
 *
 * The timing rule: at the run's RUN_FINISHED (not a cancelled one), which is
 * held meanwhile, the run's events are read once (`events$(runId)` without
 * reconnecting; the tool server replays what the run has logged so far): up
 * to the run's `end`, until `APPROVALS_QUIET_MS` pass without an event
 * (`APPROVALS_FIRST_EVENT_MS` for the first), `APPROVALS_READ_MS` at most.
 * Each `approval.requested` there whose approval the stream did not show (a
 * TOOL_CALL_RESULT or a MESSAGES_SNAPSHOT of the run) and whose card does
 * not already wait is asked after (`getApproval`, `APPROVALS_LOOKUP_MS` at
 * most); one still pending comes into the run as the call it holds: a
 * TOOL_CALL_START/ARGS/END of its tool and arguments (its tool call id is
 * the approval id) and the TOOL_CALL_RESULT `{ "pending_approval": id }`,
 * just before the RUN_FINISHED. So its step waits for approval, its card is
 * in the run's own response before the final response, and it is answered
 * as any other (`decide`, then a run that carries the result).
 * Reading only at the run's end keeps the chat from taking the run: the
 * tool server gives a run to the first principal that uses it.
 *
 * The tool server down, refusing (a chat whose token is not the run
 * owner's gets 403), or slower than these bounds: the RUN_FINISHED goes on
 * with what is known, and `report` hears why, once.
 */
export function approvalsRequested({ client, conversation, runId, scheduler, report }: ApprovalsRequestedOptions): MonoTypeOperatorFunction<BaseEvent> {
  return (events) =>
    defer(() => {
      /** The approvals the run's stream showed. */
      const shown = new Set<string>();
      return events.pipe(
        concatMap((event) => {
          if (event.type === EventType.TOOL_CALL_RESULT) noteShown(shown, (event as { content?: unknown }).content);
          else if (event.type === EventType.MESSAGES_SNAPSHOT) for (const message of (event as { messages?: Message[] }).messages ?? []) if (message.role === "tool") noteShown(shown, message.content);
          if (event.type !== EventType.RUN_FINISHED || (event as RunFinishedEvent).outcome?.type === "cancelled") return [event];
          const known = new Set([...shown, ...conversation.pendingInterrupts.flatMap(({ interrupt }) => approvalIdOf(interrupt) ?? [])]);
          return lookUp(client, runId, known, scheduler, report).pipe(
            mergeMap((found) => {
              // A later run of the same stream (the same run id) shows these already.
              for (const { approvalId } of found) shown.add(approvalId);
              return [...found.flatMap(heldCall), event];
            }),
          );
        }),
      );
    });
}

function noteShown(shown: Set<string>, content: unknown): void {
  const approvalId = pendingApprovalOf(content);
  if (approvalId !== undefined) shown.add(approvalId);
}

/** An approval still pending on the tool server, as `getApproval` tells it. */
interface Requested {
  approvalId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** The approvals requested in the run, not `known`, still pending: what the run's events and `getApproval` tell within the bounds; a failure is reported once and ends the look-up with what it has. */
function lookUp(client: ToolServerApprovals, runId: string, known: ReadonlySet<string>, scheduler: SchedulerLike, report: (warning: CarbonAgUiError) => void): Observable<Requested[]> {
  let reported = false;
  const warn = (why: string, error: unknown) => {
    if (reported) return;
    reported = true;
    report(new CarbonAgUiError(`The tool server could not tell which approvals run ${runId} asked for (${why}); the run ends without their cards`, { cause: error }));
  };
  return defer(() => {
    const requested: string[] = [];
    return client.events$(runId, { retry: false }).pipe(
      takeWhile(({ event }) => event !== "end"),
      timeout({ first: APPROVALS_FIRST_EVENT_MS, each: APPROVALS_QUIET_MS, with: () => EMPTY, scheduler }),
      takeUntil(timer(APPROVALS_READ_MS, scheduler)),
      tap(({ event, data }) => {
        const approvalId = event === "approval.requested" ? (data as { approval_id?: unknown } | null)?.approval_id : undefined;
        if (typeof approvalId === "string" && approvalId !== "" && !known.has(approvalId) && !requested.includes(approvalId)) requested.push(approvalId);
      }),
      catchError((error: unknown) => (warn("its events", error), EMPTY)),
      toArray(),
      mergeMap(() => (requested.length === 0 ? of([]) : askAfter(client, requested, scheduler, warn))),
    );
  });
}

/** `getApproval` for each, at once, `APPROVALS_LOOKUP_MS` at most: those still pending, with their tool and arguments. */
function askAfter(client: ToolServerApprovals, approvalIds: readonly string[], scheduler: SchedulerLike, warn: (why: string, error: unknown) => void): Observable<Requested[]> {
  return defer(() => {
    const controller = new AbortController();
    const asked = approvalIds.map((approvalId) =>
      client.getApproval(approvalId, { signal: controller.signal }).then(
        (approval): Requested | undefined =>
          approval.status === "pending" && typeof approval.tool === "string" ? { approvalId, tool: approval.tool, arguments: approval.arguments ?? {} } : undefined,
        (error: unknown) => void warn(`approval ${approvalId}`, error),
      ),
    );
    return from(Promise.all(asked)).pipe(
      map((found) => found.filter((requested) => requested !== undefined)),
      timeout({ first: APPROVALS_LOOKUP_MS, scheduler, with: () => (warn("its approvals", new CarbonAgUiError(`getApproval took longer than ${APPROVALS_LOOKUP_MS} ms`)), of([])) }),
      finalize(() => controller.abort()),
    );
  });
}

/** The call an approval holds, as the run would have shown it: the call of its tool with its arguments, and the `{ pending_approval }` result. */
function heldCall({ approvalId, tool, arguments: args }: Requested): BaseEvent[] {
  const toolCallId = approvalId;
  return [
    { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: tool, parentMessageId: `${approvalId}-call` },
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(args) },
    { type: EventType.TOOL_CALL_END, toolCallId },
    { type: EventType.TOOL_CALL_RESULT, messageId: `${approvalId}-result`, toolCallId, content: JSON.stringify({ pending_approval: approvalId }) },
  ] as BaseEvent[];
}
