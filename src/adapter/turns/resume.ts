import { CancellationReason, type CarbonChatInstance } from "../../carbon";
import { AgUiEmptyRunError, AgUiInterruptError } from "../../errors";
import { approvalIdOf, decisionResultContent, isClientToolInterrupt, isExpired, toResumeEntry, type InterruptDecision, type PendingInterrupt } from "../../hitl";
import type { Thread } from "../../thread/thread";
import type { RunAnswer } from "../../thread/log";
import { decideApprovals } from "../approvals/decide";
import { runInput } from "../runInput";
import type { TurnDelivery } from "./message";
import { outcomeOf, type TurnOutcome } from "./outcome";
import { turnRuns } from "./runs";
import type { Turn } from "./turn";
import type { TurnPlan } from "./turnPath";

/**
 * The interrupt a decision is for: the one named; else the oldest without a
 * decision; when every one has a decision (a failed resume left them so),
 * the only one. Throws rather than guess between several.
 */
export function decisionTarget(pending: readonly PendingInterrupt[], interruptId: string | undefined): PendingInterrupt {
  if (interruptId !== undefined) {
    const named = pending.find((entry) => entry.interrupt.id === interruptId);
    if (!named) throw new AgUiInterruptError(`There is no pending interrupt '${interruptId}'`, interruptId);
    return named;
  }
  const undecided = pending.find((entry) => !entry.decision);
  if (undecided) return undecided;
  if (pending.length === 1) return pending[0]!;
  throw new AgUiInterruptError(
    pending.length === 0 ? "There is no pending interrupt to answer" : `All ${pending.length} pending interrupts already have a decision; name the one to change`,
  );
}

/**
 * Records the person's decision on a card, the one `interruptId` names (by
 * default as `decisionTarget` says); one that expired at `now` can only be
 * rejected. Returns whether every card waiting now has its answer: the
 * resume may go.
 */
export function decideCard(thread: Thread, decision: InterruptDecision, interruptId: string | undefined, now: number): { ready: boolean; interruptId: string } {
  const pending = thread.conversation.pendingInterrupts;
  const { interrupt } = decisionTarget(pending, interruptId);
  if (decision.type !== "reject" && isExpired(interrupt, now)) throw new AgUiInterruptError(`Interrupt '${interrupt.id}' expired at ${interrupt.expiresAt}; it can only be rejected`, interrupt.id);
  const ready = !pending.some((entry) => !entry.decision && entry.interrupt.id !== interrupt.id);
  return { ready, interruptId: interrupt.id };
}

/** The turn of the person's decisions (`respondToInterrupt`): its promise is the host's, and rejects on a failure. */
export function resumeTurn(instance: CarbonChatInstance, signal: AbortSignal | undefined, delivery: TurnDelivery): TurnPlan {
  return { instance, signals: [signal], settles: "always", play: (turn) => resume(turn, delivery, "asked") };
}

/**
 * The continuation after approvals decided elsewhere (`ApprovalRuns`), a
 * turn of the adapter's own (`onError` alone hears of its failure): their
 * results are in the thread, and the agent goes on in a run that shows
 * them first, with the decisions the other cards hold.
 */
export function continuationTurn(instance: CarbonChatInstance, delivery: TurnDelivery): TurnPlan {
  return { instance, settles: "never", play: (turn) => resume(turn, delivery, "elsewhere") };
}

/**
 * Plays the cards' answers, once every card waiting has one: the agent
 * takes them all at once (AG-UI 1.0), so while one still waits (one came
 * while the answer to another was queued) nothing runs, and its answer
 * starts the run. The chat's own cards are answered at once: the answer to
 * a call of a tool the person answers is its result, a tool server's
 * approval is decided there (`decideApprovals`; one it did not take fails
 * the turn before any run, still waiting). The agent's interrupts go in one
 * resume run (same thread, new run id, no messages, one entry each in
 * arrival order), and wait no more once the agent has taken it (its first
 * event, RUN_ERROR included); with none, a run that carries the history
 * shows the chat's answers first (`preludeOf`).
 *
 * A resume the agent never took (it threw, it was stopped first, it came
 * back empty) leaves its cards waiting, with their decisions, to be sent
 * again: the turn fails, or is stopped with `notSent`. One ended by a
 * restart or a reset is over: its thread is gone.
 */
async function resume(turn: Turn, delivery: TurnDelivery, why: "asked" | "elsewhere"): Promise<TurnOutcome> {
  const { options } = delivery;
  const threadGone = () => turn.ended && turn.signal.reason === CancellationReason.CONVERSATION_RESTARTED;
  const notTaken = (): TurnOutcome => (threadGone() || why === "elsewhere" ? { how: "stopped", began: false } : { how: "stopped", began: false, notSent: new AgUiInterruptError("Stopped before the agent took the decision; it can be sent again") });
  if (turn.ended) return notTaken();
  const pending = turn.conversation.pendingInterrupts;
  if (pending.some((entry) => !entry.decision)) return { how: "finished", began: false };
  if (pending.length === 0 && why === "asked") return { how: "failed", began: false, error: new AgUiInterruptError("The decision came too late: a message sent before it had answered the interrupt as cancelled") };
  for (const { interrupt, decision } of pending.filter(({ interrupt }) => isClientToolInterrupt(interrupt))) {
    turn.thread.act({ type: "toolResult", message: { id: `${interrupt.toolCallId}-decision`, role: "tool", toolCallId: interrupt.toolCallId!, content: decisionResultContent(decision!) }, answers: { interruptId: interrupt.id, answer: decision!.type } });
  }
  const approvals = pending.filter(({ interrupt }) => approvalIdOf(interrupt) !== undefined);
  if (approvals.length > 0) {
    const decided = options.toolClient ? await decideApprovals(options.toolClient, approvals, turn.signal) : { results: [], notTaken: approvals };
    for (const { entry, toolCallId, content } of decided.results) {
      const waiting = turn.conversation.messages.find((message) => message.role === "tool" && message.toolCallId === toolCallId);
      turn.thread.act({ type: "toolResult", message: { id: waiting?.id ?? `${toolCallId}-approval`, role: "tool", toolCallId, content }, answers: { interruptId: entry.interrupt.id, answer: entry.decision?.type ?? "reject" } });
    }
    if (decided.notTaken.length > 0) return { how: "failed", began: false, error: decided.error ?? new AgUiInterruptError("No tool server to decide the approval: give the adapter a toolClient") };
  }
  const agents = pending.filter(({ interrupt }) => approvalIdOf(interrupt) === undefined && !isClientToolInterrupt(interrupt));
  const answers = agents.map(({ interrupt, decision }): RunAnswer => ({ interruptId: interrupt.id, answer: decision!.type, entry: toResumeEntry(interrupt.id, decision!) }));
  const { conversation } = turn;
  const request = answers.length > 0 ? { input: runInput(conversation, options.runFields, [], answers.map((answer) => answer.entry)), answers } : { input: runInput(conversation, options.runFields, [...conversation.messages], []) };
  const outcome = await outcomeOf(turnRuns(turn, request, delivery), () => turn.ended);
  // A resume that ended before any event is the decision not taken, as the card should say.
  if (outcome.how === "failed") return outcome.error instanceof AgUiEmptyRunError ? { ...outcome, error: new AgUiInterruptError(outcome.error.message) } : outcome;
  if (outcome.began || answers.length === 0 || threadGone()) return outcome;
  return turn.ended ? notTaken() : { how: "failed", began: false, error: new AgUiInterruptError(new AgUiEmptyRunError().message) };
}
