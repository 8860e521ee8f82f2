import { Observable } from "rxjs";

/** `inner`, counting the subscriptions to it and their teardowns. */
export function watched<T>(inner: Observable<T>) {
  const counts = { subscribed: 0, unsubscribed: 0 };
  const source = new Observable<T>((subscriber) => {
    counts.subscribed++;
    const subscription = inner.subscribe(subscriber);
    return () => {
      counts.unsubscribed++;
      subscription.unsubscribe();
    };
  });
  return { source, counts };
}

/** Lets pending promise callbacks, and what they await, run. */
export const flush = () => new Promise((resolve) => setImmediate(resolve));
