import { filter, tap } from "rxjs";
import { CancellationReason, type CarbonChatInstance } from "../../carbon";
import { threadServerError } from "../../threads/threadServerError";
import type { RunningRun } from "../loadThread";
import { runInput } from "../runInput";
import type { TurnDelivery } from "./message";
import { outcomeOf, type TurnOutcome } from "./outcome";
import { turnRuns } from "./runs";
import type { Turn } from "./turn";
import type { TurnPlan } from "./turnPath";

/**
 * A run found still going on a restored thread, played as a turn of the
 * adapter's own (`onError` alone hears of its failure), once `shown` (Carbon
 * shows what came before it): the answer of its last request
 * (`requestId`), from the run's start, so the answer shows once and whole,
 * then live, with the frontend-tool rounds after it as for any turn.
 * Carbon's stop button stops it where it runs (`run.stop`); a restart, a
 * switch or a reload only let go of it, and it goes on there.
 */
export function rejoinTurn(run: RunningRun, requestId: string | undefined, instance: CarbonChatInstance, shown: Promise<void>, delivery: TurnDelivery): TurnPlan {
  return { instance, settles: "never", play: (turn) => shown.then(() => playRejoined(turn, run, requestId, delivery)) };
}

async function playRejoined(turn: Turn, run: RunningRun, requestId: string | undefined, delivery: TurnDelivery): Promise<TurnOutcome> {
  const { options } = delivery;
  let over = false;
  const stopped = turn.ended$.pipe(filter((reason) => reason === CancellationReason.STOP_STREAMING)).subscribe(() => {
    if (!over) run.stop?.().catch((error: unknown) => options.onWarning(threadServerError("rejoin", turn.thread.threadId, error)));
  });
  const input = runInput(turn.conversation, options.runFields, [...turn.conversation.messages], []);
  const events = run.events.pipe(tap((event) => (over ||= event.type === "RUN_FINISHED" || event.type === "RUN_ERROR")));
  try {
    return await outcomeOf(turnRuns(turn, { input, events, ...(requestId !== undefined && { requestId }) }, delivery), () => turn.ended);
  } finally {
    stopped.unsubscribe();
  }
}
