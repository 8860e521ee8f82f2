import { Observable, type Subscribable } from "rxjs";

/**
 * Wraps any Subscribable (an Observable from another copy of rxjs, such as
 * the one `@ag-ui/client` pins) in an Observable of your own rxjs, so its
 * types line up with ours without npm `overrides`.
 */
export function fromObservable<T>(source: Subscribable<T>): Observable<T> {
  return new Observable<T>((subscriber) => source.subscribe(subscriber));
}
