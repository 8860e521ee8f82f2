import { Observable, type Observer, type Subscribable, type Unsubscribable } from "rxjs";

/**
 * An Observable of any rxjs copy, as TypeScript sees it for inference: from an
 * overloaded method it infers only off the last signature, which for rxjs's
 * `subscribe` is the one taking a `next` callback, so `Subscribable<T>` alone
 * would leave `T` unknown.
 */
interface RxjsObservableLike<T> {
  subscribe(observer: Partial<Observer<T>>): Unsubscribable;
  subscribe(next: (value: T) => void): Unsubscribable;
}

/**
 * Wraps any Subscribable (an Observable from another copy of rxjs, such as
 * the one `@ag-ui/client` pins) in an Observable of your own rxjs, so its
 * types line up with ours without npm `overrides`.
 */
export function fromObservable<T>(source: RxjsObservableLike<T> | Subscribable<T>): Observable<T> {
  return new Observable<T>((subscriber) => (source as Subscribable<T>).subscribe(subscriber));
}
