import { lastValueFrom, materialize, reduce, type Observable, type ObservableNotification } from "rxjs";
import type { RunSignal } from "./deliverRun";

/** How a turn's runs went: whether the first one began (its first event came), and the error that failed the turn, if one did. */
export interface TurnOutcome {
  began: boolean;
  failure?: { error: unknown };
}

/** Plays a turn's runs to their end and tells how they went (it never rejects: a failure is part of the outcome). */
export function playTurn(runs: Observable<RunSignal>): Promise<TurnOutcome> {
  return lastValueFrom(
    runs.pipe(
      materialize(),
      reduce<ObservableNotification<RunSignal>, TurnOutcome>(
        (outcome, notification) =>
          notification.kind === "N" && notification.value?.kind === "run.began" ? { ...outcome, began: true } : notification.kind === "E" ? { ...outcome, failure: { error: notification.error } } : outcome,
        { began: false },
      ),
    ),
  );
}
