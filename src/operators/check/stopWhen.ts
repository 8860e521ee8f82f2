import { concat, defer, EMPTY, from, of, takeUntil, tap, type ObservableInput, type OperatorFunction } from "rxjs";
import type { TurnEndInstruction } from "../../instructions";

const STOPPED: TurnEndInstruction = { kind: "turn.end", how: "stopped" };

/**
 * Stops the turn when `notifier` emits (Carbon's stop button): unsubscribes
 * the source, which aborts its HTTP request, then emits a `turn.end`
 * `stopped` for the operators below to close what is open. A notifier that
 * has already emitted (an aborted signal) stops the turn before the source
 * is subscribed at all.
 *
 * ```
 * source:   --a--b--c--|
 * notifier: -------x
 * result:   --a--b-(s|)    s: { kind: "turn.end", how: "stopped" }
 * ```
 */
export function stopWhen<T>(notifier: ObservableInput<unknown>): OperatorFunction<T, T | TurnEndInstruction> {
  return (source) =>
    defer(() => {
      let stopped = false;
      return concat(
        source.pipe(takeUntil(from(notifier).pipe(tap(() => (stopped = true))))),
        defer(() => (stopped ? of(STOPPED) : EMPTY)),
      );
    });
}
