import { CancellationReason } from "../carbon";
import { AgUiEmptyRunError, AgUiInterruptError } from "../errors";
import { toResumeEntry, type PendingInterrupt } from "../hitl";
import type { Turn } from "../internal/turn";
import { recordDecisionResults } from "./decisionResults";
import type { ResolvedOptions } from "./options";
import { converse } from "./frontendTools";
import { runInput } from "./runInput";
import { playTurn, type TurnOutcome } from "./turnOutcome";

/**
 * The interrupt a decision is for: the one named; else the oldest without a
 * decision; when every one has a decision (a failed resume put them back),
 * the only one. Throws rather than guess between several.
 */
export function interruptToAnswer(pending: readonly PendingInterrupt[], interruptId: string | undefined): PendingInterrupt {
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
 * entry each, in arrival order).
 *
 * A resume that fails before its first event (it threw, it was stopped
 * first, it completed empty) puts the interrupts and their decisions back,
 * so the card can be answered again. Once any event came (RUN_ERROR
 * included) the agent has consumed them: nothing is put back, and each
 * resumed call gets its decision as its result. A resume ended by a restart
 * or reset is over: its thread is gone, there is nothing to retry.
 */
export async function resume(turn: Turn, options: ResolvedOptions, describeError: (error: unknown) => string | undefined): Promise<TurnOutcome> {
  const { conversation } = turn;
  const threadGone = () => turn.ended && turn.signal.reason === CancellationReason.CONVERSATION_RESTARTED;
  const answered = conversation.takePendingInterrupts();
  if (!answered.some((entry) => entry.decision)) {
    if (threadGone()) return { how: "stopped", began: false };
    return { how: "failed", began: false, error: new AgUiInterruptError("The decision came too late: a message sent before it had answered the interrupt as cancelled") };
  }
  const input = runInput(conversation, options.runFields, [], answered.map((entry) => toResumeEntry(entry.interrupt.id, entry.decision ?? { type: "reject" })));
  const outcome = await playTurn(converse(turn, { input }, options, describeError), () => turn.ended);
  if (outcome.began) recordDecisionResults(conversation, answered);
  // Into the turn's own conversation: after a reset, nobody reads it.
  if (!outcome.began && (outcome.how === "failed" || !threadGone())) conversation.restorePendingInterrupts(answered);
  // A resume that ended before any event is the decision not taken, as the card should say.
  if (outcome.how === "failed") return outcome.error instanceof AgUiEmptyRunError ? { ...outcome, error: new AgUiInterruptError(outcome.error.message) } : outcome;
  if (outcome.began || threadGone()) return outcome;
  return turn.ended
    ? { how: "stopped", began: false, notSent: new AgUiInterruptError("Stopped before the agent took the decision; it can be sent again") }
    : { how: "failed", began: false, error: new AgUiInterruptError(new AgUiEmptyRunError().message) };
}
