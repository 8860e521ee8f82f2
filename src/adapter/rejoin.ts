import { filter, tap } from "rxjs";
import { threadServerError } from "../threads/threadServerError";
import { CancellationReason } from "../carbon";
import type { Turn } from "../internal/turn";
import type { RunningRun } from "./chatPersistence";
import type { ResolvedOptions } from "./options";
import { runInput } from "./runInput";
import { turnRuns } from "./turnRuns";
import { outcomeOf, type TurnOutcome } from "./turnOutcome";

/**
 * Plays a run found still going on a restored thread as the answer of its
 * last request (`requestId`): its events from the run's start, so the answer
 * shows once and whole, then live, with the frontend-tool rounds after it as
 * for any turn. Carbon's stop button stops it where it runs (`run.stop`); a
 * restart, a switch or a reload only let go of it, and it goes on there.
 */
export async function playRejoined(turn: Turn, run: RunningRun, requestId: string | undefined, options: ResolvedOptions, describeError: (error: unknown) => string | undefined): Promise<TurnOutcome> {
  let over = false;
  const stopped = turn.ended$.pipe(filter((reason) => reason === CancellationReason.STOP_STREAMING)).subscribe(() => {
    if (!over) run.stop?.().catch((error: unknown) => options.onWarning(threadServerError("rejoin", turn.conversation.threadId, error)));
  });
  const input = runInput(turn.conversation, options.runFields, [...turn.conversation.messages], []);
  const events = run.events.pipe(tap((event) => (over ||= event.type === "RUN_FINISHED" || event.type === "RUN_ERROR")));
  try {
    return await outcomeOf(turnRuns(turn, { input, events, ...(requestId !== undefined && { requestId }) }, options, describeError), () => turn.ended);
  } finally {
    stopped.unsubscribe();
  }
}
