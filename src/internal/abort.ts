import { Observable } from "rxjs";

/** Emits the signal's abort reason once, at once if it is already aborted. */
export function abortReason(signal: AbortSignal): Observable<unknown> {
  return new Observable((subscriber) => {
    const emit = () => {
      subscriber.next(signal.reason);
      subscriber.complete();
    };
    if (signal.aborted) return emit();
    signal.addEventListener("abort", emit, { once: true });
    return () => signal.removeEventListener("abort", emit);
  });
}
