import { EventType, type BaseEvent } from "@ag-ui/core";
import { catchError, concatMap, defer, EMPTY, filter, from, ignoreElements, mergeMap, of, tap, type Subscription } from "rxjs";
import type { CarbonChatInstance } from "../../carbon";
import type { Conversation } from "../../conversation";
import { CarbonAgUiError } from "../../errors";
import { approvalIdOf, pendingApprovalOf } from "../../hitl";
import type { ToolServerApprovals } from "./toolServer";
import { runInput } from "../runInput";
import type { TurnDelivery } from "../turns/message";
import { outcomeOf } from "../turns/outcome";
import { turnRuns } from "../turns/runs";
import type { Turn } from "../turns/turn";
import type { TurnPlan, Turns } from "../turns/turnPath";

/** An approval still pending on the tool server, as `getApproval` tells it. */
interface Requested {
  approvalId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** What following the tool server's runs works with. */
export interface LateApprovalsDeps {
  client: ToolServerApprovals;
  turns: Turns;
  /** What the card's turn is delivered with. */
  delivery: TurnDelivery;
  onWarning(warning: CarbonAgUiError): void;
  /** How many runs' events are followed at once; the oldest is let go of (reported) for a new one. */
  maxFollowed: number;
}

/**
 * Approvals the tool server was asked for in a run, which the run's AG-UI
 * stream does not show as a `{ "pending_approval": … }` result (the
 * agent's framework swallowed it, or the tool ran on the backend without a
 * visible call), become decision cards like the others, however late they
 * come.
 *
 * The protocol gives no end to wait for here, so nothing waits: the run
 * ends as it ends, and from its RUN_FINISHED (reading earlier could make
 * the chat the tool server's owner of the run) its events on the tool
 * server are followed (`events$`, which reconnects and skips replays) for
 * as long as they can bring something: up to the run's `end`, a reset or a
 * thread switch, or `dispose()`. Each `approval.requested` whose approval
 * the conversation does not know (no result of the run showed it, no card
 * waits for it) and that `getApproval` says is still pending becomes the
 * call it holds, with its card, in a message of its own (a turn of the
 * adapter's own, after what is queued), once. At most `maxFollowed` runs
 * are followed at once: browsers allow a page few connections to a host.
 */
export class LateApprovals {
  private readonly followed = new Map<string, Subscription>();
  /** The approvals a card was made for here. */
  private readonly carded = new Set<string>();

  private stopped = false;

  constructor(private readonly deps: LateApprovalsDeps) {}

  /** Follows the tool server's run `runId`, which `turn`'s run has just finished (none once `stop` was called). */
  follow(runId: string, turn: Turn): void {
    if (this.stopped || this.followed.has(runId)) return;
    const { client, maxFollowed, onWarning } = this.deps;
    if (this.followed.size >= maxFollowed) {
      const [oldest, subscription] = this.followed.entries().next().value as [string, Subscription];
      subscription.unsubscribe();
      this.followed.delete(oldest);
      onWarning(new CarbonAgUiError(`Approvals asked for later in run ${oldest} get no card: at most ${maxFollowed} runs are followed on the tool server at once (maxFollowedRuns)`));
    }
    let reported = false;
    const report = (why: string, error: unknown) => {
      if (reported) return;
      reported = true;
      onWarning(new CarbonAgUiError(`The tool server could not tell which approvals run ${runId} asked for (${why}); they get no card`, { cause: error }));
    };
    // A client that throws at once is a tool server that cannot tell, as one whose stream fails.
    const subscription = defer(() => client.events$(runId))
      .pipe(
        filter(({ event }) => event === "approval.requested"),
        mergeMap(({ data }) => {
          const approvalId = (data as { approval_id?: unknown } | null)?.approval_id;
          return typeof approvalId === "string" && approvalId !== "" && !this.known(turn.conversation, approvalId) ? of(approvalId) : EMPTY;
        }),
        concatMap((approvalId) =>
          from(client.getApproval(approvalId)).pipe(
            catchError((error: unknown) => (report(`approval ${approvalId}`, error), EMPTY)),
            filter((approval) => approval.status === "pending" && typeof approval.tool === "string"),
            tap((approval) => this.card(turn, { approvalId, tool: approval.tool!, arguments: approval.arguments ?? {} })),
          ),
        ),
        ignoreElements(),
        catchError((error: unknown) => (report("its events", error), EMPTY)),
      )
      .subscribe({ complete: () => this.followed.delete(runId) });
    if (!subscription.closed) this.followed.set(runId, subscription);
  }

  /** Lets go of every run followed and follows none again (`dispose()`: a turn ending as it goes starts no follow). */
  stop(): void {
    this.stopped = true;
    this.cutAll();
  }

  /** Lets go of every run followed (a reset, a thread switch, `dispose()`). */
  cutAll(): void {
    for (const subscription of this.followed.values()) subscription.unsubscribe();
    this.followed.clear();
  }

  /** Whether the conversation knows the approval already: a result of a run showed it, a card waits for it, or one was made here. */
  private known(conversation: Conversation, approvalId: string): boolean {
    if (this.carded.has(approvalId)) return true;
    if (conversation.pendingInterrupts.some(({ interrupt }) => approvalIdOf(interrupt) === approvalId)) return true;
    return conversation.messages.some((message) => message.role === "tool" && pendingApprovalOf(message.content) === approvalId);
  }

  private card(origin: Turn, requested: Requested): void {
    if (this.known(origin.conversation, requested.approvalId)) return;
    this.carded.add(requested.approvalId);
    void this.deps.turns.play(approvalCardTurn(requested, origin.instance, this.deps.delivery));
  }
}

/** The card of an approval that came late, in a message of its own: the call it holds (its step waiting for approval) and its card. */
function approvalCardTurn(requested: Requested, instance: CarbonChatInstance, delivery: TurnDelivery): TurnPlan {
  return {
    instance,
    settles: "never",
    play: (turn) => {
      // Shown meanwhile (a later run's stream showed it): once is enough.
      const { conversation } = turn;
      if (conversation.pendingInterrupts.some(({ interrupt }) => approvalIdOf(interrupt) === requested.approvalId) || conversation.findToolCall(requested.approvalId)) return Promise.resolve({ how: "finished", began: false });
      const input = runInput(turn.conversation, delivery.options.runFields, [...turn.conversation.messages], []);
      const events = [{ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent, ...heldCall(requested), { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId } as BaseEvent];
      return outcomeOf(turnRuns(turn, { input, events: from(events), origin: "chat" }, delivery), () => turn.ended);
    },
  };
}

/** The call an approval holds, as a run would have shown it: the call of its tool with its arguments, and the `{ pending_approval }` result. */
function heldCall({ approvalId, tool, arguments: args }: Requested): BaseEvent[] {
  const toolCallId = approvalId;
  return [
    { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: tool, parentMessageId: `${approvalId}-call` },
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(args) },
    { type: EventType.TOOL_CALL_END, toolCallId },
    { type: EventType.TOOL_CALL_RESULT, messageId: `${approvalId}-result`, toolCallId, content: JSON.stringify({ pending_approval: approvalId }) },
  ] as BaseEvent[];
}
