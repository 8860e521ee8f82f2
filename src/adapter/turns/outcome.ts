import { lastValueFrom, materialize, reduce, type Observable, type ObservableNotification } from "rxjs";
import type { RunSignal } from "./deliverRun";

/**
 * What a turn came to, decided once, from its runs' signals: the error
 * policy (`onError`, the promise Carbon or the host waits on) reads it, as
 * do the resume and the regenerate.
 *
 * - `began`: a run's first event came (the agent has the turn's input).
 * - `failed`: a run failed, with `error`; `stopped`: its last run ended so
 *   (an outcome of `cancelled` too), or the turn was ended early (the stop
 *   button, a restart, `reset()`); `finished` otherwise. `notSent`: a
 *   resume's decisions never reached the agent (the host may send them again).
 * - `refused`: the turn was not played, for `error`'s reason (a regenerate
 *   asked while a card waits): the one who asked hears why, and nobody else.
 */
export type TurnOutcome =
  | { how: "finished"; began: boolean }
  | { how: "stopped"; began: boolean; notSent?: Error }
  | { how: "failed"; began: boolean; error: unknown }
  | { how: "refused"; began: false; error: Error };

/** Plays a turn's runs to their end and tells what the turn came to (it never rejects: a failure is part of the outcome); `ended` tells whether the turn was ended early. */
export function outcomeOf(runs: Observable<RunSignal>, ended: () => boolean): Promise<TurnOutcome> {
  return lastValueFrom(
    runs.pipe(
      materialize(),
      reduce<ObservableNotification<RunSignal>, { began: boolean; last?: RunSignal; failure?: { error: unknown } }>((seen, notification) => {
        if (notification.kind === "E") return { ...seen, failure: { error: notification.error } };
        if (notification.kind !== "N") return seen;
        return notification.value.kind === "run.began" ? { ...seen, began: true } : { ...seen, last: notification.value };
      }, { began: false }),
    ),
  ).then(({ began, last, failure }): TurnOutcome => {
    if (failure) return { how: "failed", began, error: failure.error };
    const stopped = (last?.kind === "run.ended" && last.ended === "stopped") || ended();
    return { how: stopped ? "stopped" : "finished", began };
  });
}
