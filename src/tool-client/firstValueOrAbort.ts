import { finalize, first, type Observable } from "rxjs";

/**
 * The Observable's first value as a promise that `signal` can abort, like
 * rxjs's `firstValueFrom`: the first value resolves it and unsubscribes, a
 * source error rejects with it, and completing with no value rejects with
 * `EmptyError`. Aborting `signal` unsubscribes (for a request, closing its
 * connection) and rejects with the signal's reason. The abort listener is
 * removed once the source is done, so a long-lived signal gathers none.
 *
 * ```ts
 * const answer = await firstValueOrAbort(attempts$, options.signal);
 * ```
 */
export function firstValueOrAbort<T>(source: Observable<T>, signal: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      subscription.unsubscribe();
      reject(signal?.reason);
    };
    const subscription = source.pipe(first(), finalize(() => signal?.removeEventListener("abort", onAbort))).subscribe({ next: resolve, error: reject });
    if (subscription.closed || !signal) return;
    // Aborted by the source itself while it was being subscribed.
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
