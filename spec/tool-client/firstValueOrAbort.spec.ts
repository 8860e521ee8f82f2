import { EMPTY, EmptyError, NEVER, Observable, of, Subject, throwError } from "rxjs";
import { firstValueOrAbort } from "../../src/tool-client/firstValueOrAbort";
import { flush, watched } from "../support/watched";

describe("firstValueOrAbort", () => {
  it("resolves with the first value and unsubscribes from a source that goes on", async () => {
    const subject = new Subject<number>();
    const { source, counts } = watched(subject);
    const promise = firstValueOrAbort(source, undefined);
    subject.next(1);
    subject.next(2);
    await expect(promise).resolves.toBe(1);
    expect(counts).toEqual({ subscribed: 1, unsubscribed: 1 });
    expect(subject.observed).toBe(false);
  });

  it("stops a synchronous source that checks whether it is still wanted", async () => {
    let emitted = 0;
    const source = new Observable<number>((subscriber) => {
      for (let index = 0; index < 1_000 && !subscriber.closed; index++) {
        emitted++;
        subscriber.next(index);
      }
      subscriber.complete();
    });
    await expect(firstValueOrAbort(source, undefined)).resolves.toBe(0);
    expect(emitted).toBe(1);
  });

  it("rejects with the source's error", async () => {
    const failure = new Error("502");
    await expect(firstValueOrAbort(throwError(() => failure), new AbortController().signal)).rejects.toBe(failure);
  });

  it("rejects with EmptyError when the source completes without a value", async () => {
    await expect(firstValueOrAbort(EMPTY, undefined)).rejects.toBeInstanceOf(EmptyError);
  });

  it("a source that never emits waits until the signal aborts: it rejects with the reason and unsubscribes", async () => {
    const { source, counts } = watched(NEVER);
    const controller = new AbortController();
    const promise = firstValueOrAbort(source, controller.signal);
    let settled = false;
    void promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await flush();
    expect(settled).toBe(false);
    controller.abort("stopped");
    await expect(promise).rejects.toBe("stopped");
    expect(counts.unsubscribed).toBe(1);
  });

  it("an already aborted signal rejects without subscribing", async () => {
    const { source, counts } = watched(of(1));
    await expect(firstValueOrAbort(source, AbortSignal.abort("too late"))).rejects.toBe("too late");
    expect(counts.subscribed).toBe(0);
  });

  it("aborting after the value changes nothing", async () => {
    const controller = new AbortController();
    const { source, counts } = watched(of(1));
    await expect(firstValueOrAbort(source, controller.signal)).resolves.toBe(1);
    controller.abort("late");
    await flush();
    expect(counts).toEqual({ subscribed: 1, unsubscribed: 1 });
  });

  it("a source that aborts the signal while being subscribed is unsubscribed, and the promise rejects with the reason", async () => {
    const controller = new AbortController();
    const { source, counts } = watched(new Observable<number>(() => controller.abort("aborted inside")));
    await expect(firstValueOrAbort(source, controller.signal)).rejects.toBe("aborted inside");
    expect(counts.unsubscribed).toBe(1);
  });

  it("removes its abort listener once the source is done", async () => {
    const controller = new AbortController();
    const removed = jest.spyOn(controller.signal, "removeEventListener");
    await firstValueOrAbort(new Observable<number>((subscriber) => void setImmediate(() => subscriber.next(1))), controller.signal);
    expect(removed).toHaveBeenCalledWith("abort", expect.any(Function));
  });
});
