import { ignoreElements, Observable, tap, type OperatorFunction, type Subscriber } from "rxjs";

/** What a stateful operator does with each notification of its source. */
export interface OperatorHandler<T> {
  next(value: T): void;
  /** Runs before the completion reaches downstream, so it may still emit. */
  complete?(): void;
  /** Runs before the error reaches downstream, so it may still emit. */
  error?(error: unknown): void;
}

/**
 * Builds an operator that may emit any number of values per input, with state
 * created per subscription by `setup`.
 *
 * The source is subscribed through rxjs's own operators straight into the
 * downstream subscriber, so the subscription chain stays linked: when the
 * consumer unsubscribes, a synchronous source sees `closed` at once, as with
 * any rxjs operator. It costs a `tap`, unlike a `mergeMap` over arrays.
 */
export function createOperator<T, R>(setup: (out: Subscriber<R>) => OperatorHandler<T>): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((out) => {
      const handler = setup(out);
      return source
        .pipe(
          tap({
            next: (value) => handler.next(value),
            complete: () => handler.complete?.(),
            error: (error: unknown) => handler.error?.(error),
          }),
          ignoreElements(),
        )
        .subscribe(out);
    });
}
