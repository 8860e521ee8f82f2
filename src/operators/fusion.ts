import { ignoreElements, Observable, tap, type OperatorFunction } from "rxjs";

/** What a stateful operator does with each notification of its source. */
export interface OperatorHandler<T> {
  next(value: T): void;
  /** Runs before the completion goes downstream, so it may still emit. */
  complete?(): void;
  /** Runs before the error goes downstream, so it may still emit. */
  error?(error: unknown): void;
}

/** Where a handler sends its output: the downstream subscriber, or the next handler of a fused run. */
export interface Emitter<R> {
  next(value: R): void;
  error(error: unknown): void;
  complete(): void;
  readonly closed: boolean;
}

export type HandlerSetup<T, R> = (out: Emitter<R>) => OperatorHandler<T>;

const SETUP = Symbol("carbon-agui-rx.handlerSetup");
const REACTS_TO = Symbol("carbon-agui-rx.reactsTo");

/** An operator built by `createOperator`, which knows its handler so `pipeFused` can run several as one. */
export type HandlerOperator<T, R> = OperatorFunction<T, R> & {
  readonly [SETUP]: HandlerSetup<T, R>;
  readonly [REACTS_TO]?: ReadonlySet<string>;
};

/** The key `reactsTo` matches: an event's `type`, or an instruction's `kind`. */
const keyOf = (element: unknown) => {
  const { type, kind } = element as { type?: string; kind?: string };
  return type ?? kind;
};

/**
 * Builds an operator that may emit any number of values per input, with state
 * created per subscription by `setup`.
 *
 * The source is subscribed through rxjs's own operators straight into the
 * downstream subscriber, so the subscription chain stays linked: when the
 * consumer unsubscribes, a synchronous source sees `closed` at once, as with
 * any rxjs operator. It costs a `tap`, unlike a `mergeMap` over arrays.
 *
 * `reactsTo` lists the event types and instruction kinds the handler acts on;
 * it must pass every other element on unchanged and untouched. `pipeFused`
 * then hands those straight to the next stage: most stages care about a few
 * of the many events of a run.
 */
export function createOperator<T, R>(setup: HandlerSetup<T, R>, reactsTo?: readonly string[]): HandlerOperator<T, R> {
  const operator = (source: Observable<T>) =>
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
  return Object.assign(operator, { [SETUP]: setup }, reactsTo && { [REACTS_TO]: new Set(reactsTo) });
}

/**
 * Pipes `operators` into `source`, running each run of consecutive
 * `createOperator` operators as a single one: between them values pass by
 * plain calls instead of two rxjs subscribers each, which matters once a
 * pipeline has a dozen stages and millions of events. What each operator sees
 * is unchanged: a throw in a handler errors the ones after it, whose error
 * hooks run in order (and may still emit); completion runs the complete hooks
 * in order; a handler that completes or errors its output ends the run.
 *
 * With `checkReactsTo`, every element a stage's `reactsTo` leaves out is
 * still shown to that stage, and the run fails if the stage did anything but
 * pass it on untouched: a list that misses what its stage acts on cannot go
 * unnoticed (the property spec of `agUiToCarbon()`'s stages runs so).
 */
export function pipeFused(source: Observable<unknown>, operators: readonly OperatorFunction<unknown, unknown>[], options: { checkReactsTo?: boolean } = {}): Observable<unknown> {
  let result = source;
  let run: HandlerOperator<unknown, unknown>[] = [];
  const flush = () => {
    if (run.length > 0) result = result.pipe(run.length === 1 && !options.checkReactsTo ? run[0]! : createOperator(fuse(run, options.checkReactsTo === true)));
    run = [];
  };
  for (const operator of operators) {
    if ((operator as Partial<HandlerOperator<unknown, unknown>>)[SETUP]) {
      run.push(operator as HandlerOperator<unknown, unknown>);
    } else {
      flush();
      result = result.pipe(operator);
    }
  }
  flush();
  return result;
}

/** One handler that runs `stages` in a chain, each emitting into the next; with `check`, a stage is shown what its `reactsTo` leaves out too (see `pipeFused`). */
function fuse(stages: readonly HandlerOperator<unknown, unknown>[], check: boolean): HandlerSetup<unknown, unknown> {
  const reactsTo = stages.map((stage) => stage[REACTS_TO]);
  const routes = new Routes(reactsTo);
  return (out) => {
    const handlers: OperatorHandler<unknown>[] = new Array(stages.length);
    /** With `check`: the first stage from `at` that lists the value's key, after showing it to each stage it passes. */
    const checkedStage = (at: number, value: unknown): number => {
      const key = keyOf(value);
      let stage = at;
      for (; stage < handlers.length; stage++) {
        const interest = reactsTo[stage];
        if (interest === undefined || (key !== undefined && interest.has(key))) break;
        checkPassesOn(stage, value, key);
      }
      return stage;
    };
    /**
     * The element a stage is being shown to check that it passes it on
     * untouched, as a proxy that tells whether the stage read more of it than
     * its `type` or `kind`; and what the stage did with it.
     */
    let probe: { stage: number; value: unknown; passedOn: boolean; didElse: boolean; read?: string } | undefined;
    const checkPassesOn = (stage: number, value: unknown, key: string | undefined) => {
      const shown: NonNullable<typeof probe> = { stage, value, passedOn: false, didElse: false };
      if (typeof value === "object" && value !== null) {
        shown.value = new Proxy(value, {
          get(target, property, receiver) {
            if (typeof property === "string" && property !== "type" && property !== "kind") shown.read ??= property;
            return Reflect.get(target, property, receiver);
          },
        });
      }
      probe = shown;
      try {
        handlers[stage]!.next(shown.value);
      } finally {
        probe = undefined;
      }
      if (!shown.passedOn || shown.didElse || shown.read !== undefined) {
        const what = shown.read !== undefined ? `read '${shown.read}' of` : "acted on";
        throw new Error(`Fused stage ${stage + 1} of ${stages.length} ${what} a '${key}', which its reactsTo [${[...reactsTo[stage]!].join(", ")}] does not list`);
      }
    };
    /** True when the output of `stage` is the probe's: it is recorded, not delivered. */
    const probed = (stage: number, value?: unknown, passing = false) => {
      if (probe?.stage !== stage) return false;
      if (passing && value === probe.value && !probe.passedOn) probe.passedOn = true;
      else probe.didElse = true;
      return true;
    };
    // Delivery to stage `at`; stage `handlers.length` is the real output.
    const deliverNext = (at: number, value: unknown): void => {
      if (out.closed) return;
      const stage = check ? checkedStage(at, value) : routes.next(keyOf(value))[at]!;
      if (stage === handlers.length) return out.next(value);
      try {
        handlers[stage]!.next(value);
      } catch (error) {
        deliverError(stage + 1, error);
      }
    };
    const deliverError = (at: number, error: unknown): void => {
      for (let stage = at; stage < handlers.length && !out.closed; stage++) {
        try {
          handlers[stage]!.error?.(error);
        } catch (thrown) {
          error = thrown;
        }
      }
      if (!out.closed) out.error(error);
    };
    const deliverComplete = (at: number): void => {
      for (let stage = at; stage < handlers.length && !out.closed; stage++) {
        try {
          handlers[stage]!.complete?.();
        } catch (error) {
          return deliverError(stage + 1, error);
        }
      }
      if (!out.closed) out.complete();
    };
    stages.forEach((operator, stage) => {
      handlers[stage] = operator[SETUP]({
        next: (value) => (probe && probed(stage, value, true) ? undefined : deliverNext(stage + 1, value)),
        error: (error) => (probe && probed(stage) ? undefined : deliverError(stage + 1, error)),
        complete: () => (probe && probed(stage) ? undefined : deliverComplete(stage + 1)),
        get closed() {
          return out.closed;
        },
      });
    });
    return {
      next: (value) => deliverNext(0, value),
      complete: () => deliverComplete(0),
      error: (error) => deliverError(0, error),
    };
  };
}

/**
 * For each key, the stage each delivery goes to: `next(key)[at]` is the first
 * stage from `at` that reacts to `key` (or lists nothing, so sees everything),
 * `stages.length` for the output. Made once per key and fused run, so a
 * delivery costs one lookup however many stages it passes; at most
 * `MAX_ROUTES` keys are kept (unchecked events may carry any `type`).
 */
const MAX_ROUTES = 256;

class Routes {
  private readonly byKey = new Map<string | undefined, Uint8Array | Uint16Array>();

  constructor(private readonly reactsTo: readonly (ReadonlySet<string> | undefined)[]) {}

  next(key: string | undefined): Uint8Array | Uint16Array {
    let route = this.byKey.get(key);
    if (route) return route;
    const count = this.reactsTo.length;
    route = count < 255 ? new Uint8Array(count + 1) : new Uint16Array(count + 1);
    route[count] = count;
    for (let stage = count - 1; stage >= 0; stage--) {
      const interest = this.reactsTo[stage];
      route[stage] = interest === undefined || (key !== undefined && interest.has(key)) ? stage : route[stage + 1]!;
    }
    if (this.byKey.size < MAX_ROUTES) this.byKey.set(key, route);
    return route;
  }
}
