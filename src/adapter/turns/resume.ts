import { CancellationReason, type CarbonChatInstance } from "../../carbon";
import { AgUiEmptyRunError, AgUiInterruptError } from "../../errors";
import { approvalIdOf, isAnsweredByChat, isClientToolInterrupt, toResumeEntry, type PendingInterrupt } from "../../hitl";
import { decideApprovals } from "../approvals/decide";
import { recordDecisionResults, settleToolResult, takePending, withdrawDecisions } from "../turnEdges";
import { runInput } from "../runInput";
import type { TurnDelivery } from "./message";
import { outcomeOf, type CardFate, type TurnOutcome } from "./outcome";
import { callWithResult, turnRuns } from "./runs";
import type { Turn } from "./turn";
import type { TurnPlan } from "./turnPath";

/**
 * The interrupt a decision is for: the one named; else the oldest without a
 * decision; when every one has a decision (a failed resume put them back),
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
 * Plays a resume turn: the decided interrupts, taken as the turn begins, go
 * to the agent in one run (same thread, new run id, no messages, one `resume`
 * entry each, in arrival order). The answers to calls of tools the person
 * answers (`isClientToolInterrupt`) are those calls' results in the history;
 * when only such answers go, the run carries the history instead, with no
 * `resume` (the agent asked for none), and shows the answered calls first.
 * A tool server's approvals are decided there first (`decideApprovals`): its
 * answers settle the calls' results, and cannot be taken back; an approval
 * it did not take fails the turn before any run, pending again.
 * `settledBefore`: results of approvals decided elsewhere, already in the
 * history, whose calls the run shows first too (`continueAfterElsewhere`).
 *
 * A resume that fails before its first event (it threw, it was stopped
 * first, it completed empty) puts the interrupts and their decisions back,
 * so the card can be answered again. Once any event came (RUN_ERROR
 * included) the agent has consumed them: nothing is put back, and each
 * resumed call gets its decision as its result. A resume ended by a restart
 * or reset is over: its thread is gone, there is nothing to retry.
 */
export function resumeTurn(instance: CarbonChatInstance, signal: AbortSignal | undefined, delivery: TurnDelivery): TurnPlan {
  return { instance, signals: [signal], settles: "always", play: (turn) => resume(turn, delivery) };
}

export async function resume(turn: Turn, delivery: TurnDelivery, settledBefore: readonly string[] = []): Promise<TurnOutcome> {
  const { conversation } = turn;
  const { options } = delivery;
  const threadGone = () => turn.ended && turn.signal.reason === CancellationReason.CONVERSATION_RESTARTED;
  const answered = takePending(conversation);
  if (settledBefore.length === 0 && !answered.some((entry) => entry.decision)) {
    if (threadGone()) return { how: "stopped", began: false };
    return { how: "failed", began: false, error: new AgUiInterruptError("The decision came too late: a message sent before it had answered the interrupt as cancelled") };
  }
  const agents = answered.filter(({ interrupt }) => !isAnsweredByChat(interrupt));
  const approvals = answered.filter(({ interrupt }) => approvalIdOf(interrupt) !== undefined);
  const decided = approvals.length > 0 && options.toolClient ? await decideApprovals(options.toolClient, approvals, turn.signal) : { results: [], notTaken: approvals };
  const settled = decided.results.map(({ toolCallId, content }) => settleToolResult(conversation, toolCallId, content));
  const withdrawable = answered.filter(({ interrupt }) => approvalIdOf(interrupt) === undefined);
  const results = recordDecisionResults(conversation, answered.filter(({ interrupt }) => isClientToolInterrupt(interrupt)));
  if (decided.notTaken.length > 0) {
    withdrawDecisions(conversation, [...withdrawable, ...decided.notTaken], results);
    // The tool server's answers stay: they happened.
    return { how: "failed", began: false, error: decided.error ?? new AgUiInterruptError("No tool server to decide the approval: give the adapter a toolClient"), fates: answeredBy(conversation, answered) };
  }
  const request =
    agents.length > 0
      ? { input: runInput(conversation, options.runFields, [], agents.map((entry) => toResumeEntry(entry.interrupt.id, entry.decision ?? { type: "reject" }))) }
      : { input: runInput(conversation, options.runFields, [...conversation.messages], []), prelude: [...settledBefore, ...settled, ...results].flatMap((id) => shownWithResult(turn, id)) };
  const outcome = await outcomeOf(turnRuns(turn, request, delivery), () => turn.ended);
  if (outcome.began) recordDecisionResults(conversation, agents);
  // Into the turn's own conversation: after a reset, nobody reads it. The tool server's answers stay: they happened.
  if (!outcome.began && (outcome.how === "failed" || !threadGone())) withdrawDecisions(conversation, withdrawable, results);
  const fates = answeredBy(conversation, answered);
  // A resume that ended before any event is the decision not taken, as the card should say.
  if (outcome.how === "failed") return { ...(outcome.error instanceof AgUiEmptyRunError ? { ...outcome, error: new AgUiInterruptError(outcome.error.message) } : outcome), fates };
  if (outcome.began || threadGone()) return { ...outcome, fates };
  return turn.ended
    ? { how: "stopped", began: false, notSent: new AgUiInterruptError("Stopped before the agent took the decision; it can be sent again"), fates }
    : { how: "failed", began: false, error: new AgUiInterruptError(new AgUiEmptyRunError().message), fates };
}

/**
 * The continuation after approvals decided elsewhere (`ApprovalRuns`), a
 * turn of the adapter's own (`onError` alone hears of its failure): their
 * calls' results (`settled`) are in the history, and the agent goes on in a
 * run that carries it, showing those calls first, as after a card answered
 * here. The decisions the other pending interrupts hold go with it; while one
 * still waits for its answer, nothing runs (its answer starts the run).
 */
export function continuationTurn(instance: CarbonChatInstance, settled: readonly string[], delivery: TurnDelivery): TurnPlan {
  return {
    instance,
    settles: "never",
    play: (turn) => (turn.ended || turn.conversation.pendingInterrupts.some((entry) => !entry.decision) ? Promise.resolve({ how: "finished", began: false }) : resume(turn, delivery, settled)),
  };
}

/** The fates of `answered` that the turn made final: those no longer pending (the agent took them, or the tool server decided them). */
function answeredBy(conversation: Turn["conversation"], answered: readonly PendingInterrupt[]): CardFate[] {
  const still = new Set(conversation.pendingInterrupts.map((entry) => entry.interrupt.id));
  return answered.filter((entry) => !still.has(entry.interrupt.id)).map(({ interrupt, decision }) => ({ interruptId: interrupt.id, answer: decision?.type ?? "reject" }));
}

/** The events that show the call a result answers, with the result (for the continuation of a person's answers). */
function shownWithResult({ conversation }: Turn, resultId: string) {
  const result = conversation.messages.find((message) => message.id === resultId);
  const found = result?.role === "tool" ? conversation.findToolCall(result.toolCallId) : undefined;
  return result?.role === "tool" && typeof result.content === "string" && found ? callWithResult(found.call, found.messageId, { id: result.id, content: result.content }) : [];
}
