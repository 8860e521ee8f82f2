import { map, type Observable, type OperatorFunction } from "rxjs";
import { createOperator, pipeFused } from "../../src/operators/fusion";
import { producedBeforeUnsubscribe, testScheduler } from "../support/marbles";

/** Emits each value twice, and a closing value on complete or error. */
const twiceThenClose = createOperator<string, string>((out) => ({
  next: (value) => {
    out.next(value);
    out.next(value);
  },
  complete: () => out.next("c"),
  error: () => out.next("e"),
}));

describe("createOperator", () => {
  it("emits any number of values per input, and may emit on complete and on error before they go on", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a---|");
      expectObservable(source.pipe(twiceThenClose)).toBe("-(aa)(c|)");
      expectSubscriptions(source.subscriptions).toBe("^----!");
      expectObservable(cold("-a---#").pipe(twiceThenClose)).toBe("-(aa)(e#)");
    });
  });

  it("makes a handler that throws error the stream, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-|");
      const throwing = createOperator<string, string>((out) => ({
        next: (value) => {
          if (value === "b") throw new Error("bad");
          out.next(value);
        },
      }));
      expectObservable(source.pipe(throwing)).toBe("-a-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("keeps state per subscription", () => {
    const counting = createOperator<string, number>((out) => {
      let count = 0;
      return { next: () => out.next(++count) };
    });
    testScheduler().run(({ cold, expectObservable }) => {
      const counted = cold("-a-a-|").pipe(counting);
      expectObservable(counted).toBe("-1-2-|", { 1: 1, 2: 2 });
      expectObservable(counted).toBe("-1-2-|", { 1: 1, 2: 2 });
    });
  });

  it("stops a synchronous source as soon as the consumer unsubscribes", () => {
    expect(producedBeforeUnsubscribe((index) => `${index}`, twiceThenClose, 4)).toEqual([0, 1]);
  });

  describe("pipeFused", () => {
    /** A stage that logs its hooks, passes values on tagged with its name, and can be told to throw or to end its output. */
    const stage = (name: string, log: string[]) =>
      createOperator<string, string>((out) => ({
        next: (value) => {
          log.push(`${name}.next(${value})`);
          if (value === `throw@${name}`) throw new Error(`${name} threw`);
          if (value === `end@${name}`) return out.complete();
          out.next(`${value}>${name}`);
        },
        complete: () => {
          log.push(`${name}.complete`);
          out.next(`${name}:bye`);
        },
        error: (error) => {
          log.push(`${name}.error(${(error as Error).message})`);
          out.next(`${name}:final`);
        },
      }));

    const cases: [string, string, Record<string, string>][] = [
      ["values and completion", "-a-b-|", { a: "a", b: "b" }],
      ["a throw in the middle stage", "-a-b-|", { a: "a", b: "throw@two" }],
      ["a source error", "-a-#", { a: "a" }],
      ["a stage ending its output", "-a-b-c-|", { a: "a", b: "end@two", c: "c" }],
    ];

    it.each(cases)("behaves exactly like the unfused pipe: %s", (_name, marble, values) => {
      const run = (pipe: (source: Observable<string>, operators: OperatorFunction<string, string>[]) => Observable<string>) => {
        const log: string[] = [];
        const notifications: unknown[] = [];
        const subscriptions: unknown[] = [];
        testScheduler().run(({ cold, flush }) => {
          const source = cold(marble, values, new Error("source failed"));
          pipe(source, [stage("one", log), stage("two", log), stage("three", log)]).subscribe({
            next: (value) => notifications.push(value),
            error: (error: Error) => notifications.push(`error: ${error.message}`),
            complete: () => notifications.push("complete"),
          });
          flush();
          subscriptions.push(...source.subscriptions);
        });
        return { log, notifications, subscriptions };
      };
      const unfused = run((source, [one, two, three]) => source.pipe(one!, two!, three!));
      const fused = run((source, operators) => pipeFused(source, operators as OperatorFunction<unknown, unknown>[]) as Observable<string>);
      expect(fused).toEqual(unfused);
      expect(unfused.notifications.length).toBeGreaterThan(1);
    });

    it("hands a stage only the elements it reacts to; the rest go straight on, in order", () => {
      const seen: string[] = [];
      const picky = createOperator<{ type: string }, { type: string }>(
        (out) => ({ next: (value) => (seen.push(value.type), out.next({ type: `${value.type}!` })) }),
        ["B"],
      );
      const tag = createOperator<{ type: string }, { type: string }>((out) => ({ next: (value) => out.next({ type: `${value.type}.` }) }));
      testScheduler().run(({ cold, expectObservable }) => {
        const values = { a: { type: "A" }, b: { type: "B" }, c: { type: "C" } };
        const result = pipeFused(cold("-a-b-c-|", values), [picky, tag] as OperatorFunction<unknown, unknown>[]);
        expectObservable(result).toBe("-x-y-z-|", { x: { type: "A." }, y: { type: "B!." }, z: { type: "C." } });
      });
      expect(seen).toEqual(["B"]);
    });

    it("with checkReactsTo, fails a stage that acts on, or reads, what its reactsTo leaves out, and lets a faithful one pass", () => {
      const values = { a: { type: "A", text: "x" }, b: { type: "B" } };
      const tag = createOperator<{ type: string }, { type: string }>((out) => ({ next: (value) => out.next({ type: `${value.type}.` }) }));
      const faithful = createOperator<{ type: string }, { type: string }>((out) => ({ next: (value) => out.next(value.type === "B" ? { type: "B!" } : value) }), ["B"]);
      const acting = createOperator<{ type: string }, { type: string }>((out) => ({ next: (value) => out.next({ type: `${value.type}!` }) }), ["B"]);
      const reading = createOperator<{ type: string; text?: string }, { type: string }>((out) => ({ next: (value) => out.next(value.text === "never" ? { type: "never" } : value) }), ["B"]);
      const run = (stage: OperatorFunction<never, unknown>) =>
        testScheduler().run(({ cold, expectObservable }) => {
          expectObservable(pipeFused(cold("-a-b-|", values), [stage, tag] as OperatorFunction<unknown, unknown>[], { checkReactsTo: true })).toBe(expected.shift()!, expectedValues.shift(), errors.shift());
        });
      const expected = ["-x-y-|", "-#", "-#"];
      const expectedValues = [{ x: { type: "A." }, y: { type: "B!." } }, undefined, undefined];
      const errors = [undefined, new Error("Fused stage 1 of 2 acted on a 'A', which its reactsTo [B] does not list"), new Error("Fused stage 1 of 2 read 'text' of a 'A', which its reactsTo [B] does not list")];
      run(faithful);
      run(acting);
      run(reading);
    });

    it("runs other operators between fused runs as they are", () => {
      const log: string[] = [];
      testScheduler().run(({ cold, expectObservable }) => {
        const upper = map((value: unknown) => String(value).toUpperCase());
        const stages = [stage("one", log), upper, stage("two", log)] as OperatorFunction<unknown, unknown>[];
        const result = pipeFused(cold("-a-|"), stages);
        expectObservable(result).toBe("-a-(bc|)", { a: "A>ONE>two", b: "ONE:BYE>two", c: "two:bye" });
      });
    });
  });
});
