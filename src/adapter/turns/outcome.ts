import { lastValueFrom, materialize, reduce, type Observable, type ObservableNotification } from "rxjs";
import type { InterruptDecision } from "../../hitl";
import type { RunSignal } from "./deliverRun";

/** How a card's interrupt was answered once the answer is final: the decision the agent took, or `cancelled` by a message sent instead. */
export interface CardFate {
  interruptId: string;
  answer: InterruptDecision["type"] | "cancelled";
}

/**
 * What a turn came to, decided once, from its runs' signals: the error
 * policy (`onError`, the promise Carbon or the host waits on) reads it, the
 * transcript records the fates of the cards it answered, and the resume and
 * the cancellation read whether the agent took the decisions.
 *
 * - `began`: the first run's first event came (the agent has the turn's input).
 * - `finished`: every run ended; `stopped`: the turn was ended early (Carbon's
 *   stop button, a restart, `reset()`), with `notSent` when a resume's
 *   decisions never reached the agent; `failed`: a run failed with `error`.
 * - `fates`: the cards whose answers became final in this turn.
 */
export type TurnOutcome = (
  | { how: "finished"; began: boolean }
  | { how: "stopped"; began: boolean; notSent?: Error }
  | { how: "failed"; began: boolean; error: unknown }
) & { fates?: readonly CardFate[] };

/** Plays a turn's runs to their end and tells what the turn came to (it never rejects: a failure is part of the outcome); `ended` tells whether the turn was ended early. */
export function outcomeOf(runs: Observable<RunSignal>, ended: () => boolean): Promise<TurnOutcome> {
  return lastValueFrom(
    runs.pipe(
      materialize(),
      reduce<ObservableNotification<RunSignal>, { began: boolean; failure?: { error: unknown } }>(
        (seen, notification) =>
          notification.kind === "N" && notification.value?.kind === "run.began" ? { ...seen, began: true } : notification.kind === "E" ? { ...seen, failure: { error: notification.error } } : seen,
        { began: false },
      ),
    ),
  ).then(({ began, failure }): TurnOutcome => (failure ? { how: "failed", began, error: failure.error } : { how: ended() ? "stopped" : "finished", began }));
}
