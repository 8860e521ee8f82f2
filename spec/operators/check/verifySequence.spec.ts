import { EventType, type AGUIEvent, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import { AgUiInvalidEventError, AgUiProtocolError } from "../../../src/errors";
import { verifySequence } from "../../../src/operators/check/verifySequence";
import { ev } from "../../support/builders";
import { producedBeforeUnsubscribe, testScheduler } from "../../support/marbles";

const asEvents = (values: Record<string, BaseEvent>) => values as Record<string, AGUIEvent>;

/** Runs the events through verifySequence and expects them through up to the last, which breaks `rule`. */
function expectViolation(events: BaseEvent[], message: string, eventType?: string) {
  testScheduler().run(({ cold, expectObservable }) => {
    const names = "abcdefghij".slice(0, events.length);
    const values = Object.fromEntries(events.map((event, index) => [names[index], event])) as Record<string, AGUIEvent>;
    const expected = `${names.slice(0, -1)}#`;
    expectObservable(cold(`${names}|`, values).pipe(verifySequence())).toBe(expected, values, new AgUiProtocolError(message, eventType));
  });
}

describe("verifySequence", () => {
  it("lets a well-formed run through unchanged", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = asEvents({ s: ev.runStarted(), S: ev.textStart("m1"), t: ev.text("m1", "Hi"), E: ev.textEnd("m1"), f: ev.runFinished() });
      const source = cold("-s-S-t-E-f-|", values);
      expectObservable(source.pipe(verifySequence())).toBe("-s-S-t-E-f-|", values);
      expectSubscriptions(source.subscriptions).toBe("^----------!");
    });
  });

  it("requires RUN_STARTED first", () => {
    expectViolation([ev.text("m1", "x")], "TEXT_MESSAGE_CONTENT: the first event of a run must be RUN_STARTED", "TEXT_MESSAGE_CONTENT");
  });

  it("reports and skips a stray content, argument or end (of a message, call or reasoning never started here), and the run goes on", () => {
    const stray: [AGUIEvent, AgUiInvalidEventError][] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const values = asEvents({
        s: ev.runStarted(),
        S: ev.textStart("m1"),
        x: ev.text("old", "late"),
        y: ev.toolArgs("t9", "{}"),
        z: ev.toolEnd("t9"),
        r: { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "r9", delta: "hm" } as BaseEvent,
        t: ev.text("m1", "Hi"),
        E: ev.textEnd("m1"),
        f: ev.runFinished(),
      });
      const source = cold("-s-S-x-y-z-r-t-E-f-|", values);
      expectObservable(source.pipe(verifySequence({ onStrayEvent: (event, error) => void stray.push([event, error]) }))).toBe("-s-S---------t-E-f-|", values);
    });
    expect(stray.map(([event, error]) => [event.type, error])).toEqual([
      ["TEXT_MESSAGE_CONTENT", new AgUiInvalidEventError("TEXT_MESSAGE_CONTENT", ["no open text message 'old': skipped"])],
      ["TOOL_CALL_ARGS", new AgUiInvalidEventError("TOOL_CALL_ARGS", ["no open tool call 't9': skipped"])],
      ["TOOL_CALL_END", new AgUiInvalidEventError("TOOL_CALL_END", ["no open tool call 't9': skipped"])],
      ["REASONING_MESSAGE_CONTENT", new AgUiInvalidEventError("REASONING_MESSAGE_CONTENT", ["no open reasoning message 'r9': skipped"])],
    ]);
  });

  it("errors when onStrayEvent throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = asEvents({ s: ev.runStarted(), x: ev.text("old", "late") });
      const onStrayEvent = () => {
        throw new Error("host bug");
      };
      expectObservable(cold("-s-x-|", values).pipe(verifySequence({ onStrayEvent }))).toBe("-s-#", values, new Error("host bug"));
    });
  });

  it("rejects starting a message that is already open", () => {
    expectViolation([ev.runStarted(), ev.textStart("m1"), ev.textStart("m1")], "TEXT_MESSAGE_START: text message 'm1' is already open", "TEXT_MESSAGE_START");
  });

  it("rejects RUN_FINISHED while a message or a step is open", () => {
    expectViolation(
      [ev.runStarted(), ev.stepStarted("plan"), ev.textStart("m1"), ev.runFinished()],
      "RUN_FINISHED: still open: text message 'm1'; step '/plan'",
      "RUN_FINISHED",
    );
  });

  it("rejects anything but a new RUN_STARTED after RUN_FINISHED or RUN_ERROR", () => {
    expectViolation([ev.runStarted(), ev.runFinished(), ev.custom("late")], "CUSTOM: the run already finished; only a new RUN_STARTED may follow", "CUSTOM");
    expectViolation([ev.runStarted(), ev.runError("x"), ev.custom("late")], "CUSTOM: the run already failed with RUN_ERROR; only a new RUN_STARTED may follow", "CUSTOM");
  });

  it("allows a new run after one finished", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = asEvents({ s: ev.runStarted(), f: ev.runFinished(), S: ev.runStarted("run-2") });
      expectObservable(cold("sfSf|", values).pipe(verifySequence())).toBe("sfSf|", values);
    });
  });

  it("errors when the stream ends while a message is still open (a cut answer)", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = asEvents({ s: ev.runStarted(), S: ev.textStart("m1"), t: ev.text("m1", "Hal") });
      expectObservable(cold("-s-S-t-|", values).pipe(verifySequence())).toBe(
        "-s-S-t-#",
        values,
        new AgUiProtocolError("The stream ended while text message 'm1' was still open"),
      );
    });
  });

  it("errors when the stream ends inside a run, even with every message closed (a truncated run has no outcome)", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = asEvents({ s: ev.runStarted(), S: ev.textStart("m1"), t: ev.text("m1", "Done"), E: ev.textEnd("m1") });
      expectObservable(cold("-s-S-t-E-|", values).pipe(verifySequence())).toBe(
        "-s-S-t-E-#",
        values,
        new AgUiProtocolError("The stream ended before the run's RUN_FINISHED or RUN_ERROR: a truncated run has no outcome"),
      );
    });
  });

  it("completes when the stream ends between runs, or after RUN_ERROR", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = asEvents({ s: ev.runStarted(), f: ev.runFinished(), e: ev.runError("boom") });
      expectObservable(cold("-s-f-|", values).pipe(verifySequence())).toBe("-s-f-|", values);
      expectObservable(cold("-s-e-|", values).pipe(verifySequence())).toBe("-s-e-|", values);
    });
  });

  it("passes a source error through", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = asEvents({ s: ev.runStarted() });
      const source = cold("-s-#", values);
      expectObservable(source.pipe(verifySequence())).toBe("-s-#", values);
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = asEvents({ s: ev.runStarted(), c: ev.custom("bad") });
      const source = cold("-s-c-|", values);
      const result = source.pipe(
        verifySequence(),
        map((event) => {
          if (event.type === EventType.CUSTOM) throw new Error("bad");
          return event;
        }),
      );
      expectObservable(result).toBe("-s-#", values, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("completes with an empty source", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<AGUIEvent>("|").pipe(verifySequence())).toBe("|");
    });
  });

  it("stays silent with a never source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<AGUIEvent>("-");
      expectObservable(source.pipe(verifySequence())).toBe("-");
      expectSubscriptions(source.subscriptions).toBe("^");
    });
  });

  it("unsubscribes the source when unsubscribed early", () => {
    testScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = asEvents({ s: ev.runStarted(), c: ev.custom("c") });
      const source = hot("-s-c-c-|", values);
      expectObservable(source.pipe(verifySequence()), "^--!").toBe("-s--", values);
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("stops a synchronous source when unsubscribed", () => {
    const event = (index: number) => (index === 0 ? ev.runStarted() : ev.custom(`${index}`)) as AGUIEvent;
    expect(producedBeforeUnsubscribe(event, verifySequence(), 3)).toEqual([0, 1, 2]);
  });
});
