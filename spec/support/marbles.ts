import { Observable, take, type OperatorFunction } from "rxjs";
import { TestScheduler } from "rxjs/testing";

/** A TestScheduler that compares frames with jest's deep equality. */
export function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/**
 * Pipes a synchronous source that checks `closed` before each value through
 * `operator` and `take(count)`, and returns the indexes the source produced:
 * an operator that keeps the subscription chain linked stops it at `count`.
 */
export function producedBeforeUnsubscribe<T, R>(value: (index: number) => T, operator: OperatorFunction<T, R>, count: number): number[] {
  const produced: number[] = [];
  const source = new Observable<T>((subscriber) => {
    for (let index = 0; !subscriber.closed && index < 100; index++) {
      produced.push(index);
      subscriber.next(value(index));
    }
  });
  source.pipe(operator, take(count)).subscribe();
  return produced;
}
