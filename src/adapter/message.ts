import type { RunAgentInput } from "@ag-ui/core";
import type { Turn } from "../internal/turn";
import type { ResolvedOptions } from "./options";
import { cancellation, userMessageInput } from "./runInput";
import { turnRuns } from "./turnRuns";
import { outcomeOf, type TurnOutcome } from "./turnOutcome";

/**
 * Plays the turn of a message the person sent: the interrupts still pending
 * are cancelled first (see `cancellation`; when the agent never took that
 * run, the cards can still be answered), then the message joins the history
 * (after the cancellation's run, whose MESSAGES_SNAPSHOT would leave it out)
 * and its run plays. A turn ended before it began sends nothing.
 */
export async function playMessage(turn: Turn, message: { id: string; content: string }, requestId: string | undefined, options: ResolvedOptions, describeError: (error: unknown) => string | undefined): Promise<TurnOutcome> {
  if (turn.ended) return { how: "stopped", began: false };
  const play = (input: RunAgentInput) => outcomeOf(turnRuns(turn, { input, ...(requestId !== undefined && { requestId }) }, options, describeError), () => turn.ended);
  const cancelling = cancellation(turn.conversation, options.runFields);
  const cancelled = cancelling && (await play(cancelling.input));
  if (cancelled && !cancelled.began) cancelling.putBack();
  const input = userMessageInput(turn.conversation, message, options.runFields);
  if (cancelled?.how === "failed") return cancelled;
  return play(input);
}
