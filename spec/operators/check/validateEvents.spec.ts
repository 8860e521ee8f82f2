import { EventType, type AGUIEvent, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import { AgUiInvalidEventError } from "../../../src/errors";
import { EventSchemas } from "@ag-ui/core/schemas";
import { isPlainStreamedEvent, validateEvents } from "../../../src/operators/check/validateEvents";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const asEvents = (values: Record<string, unknown>) => values as Record<string, AGUIEvent>;
const invalid = {
  wrongType: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 5, delta: "x" },
  unknownType: { type: "TELEPATHY", thought: "hi" },
  explicitNull: { type: EventType.TEXT_MESSAGE_START, messageId: "m1", name: null },
} as unknown as Record<string, BaseEvent>;

describe("validateEvents", () => {
  it("passes valid events through as they came, extra fields included", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = { a: ev.runStarted(), b: { ...ev.text("m1", "Hi"), vendorField: 1 } };
      const source = cold("-a-b-|", values);
      expectObservable(source.pipe(validateEvents({ onInvalidEvent: () => undefined }))).toBe("-a-b-|", asEvents(values));
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  it("reports invalid events to onInvalidEvent and skips them", () => {
    const reported: [unknown, AgUiInvalidEventError][] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { a: ev.runStarted(), ...invalid, b: ev.runFinished() };
      const source = cold("-a-(wue)-b-|", { ...values, w: invalid.wrongType!, u: invalid.unknownType!, e: invalid.explicitNull! });
      expectObservable(source.pipe(validateEvents({ onInvalidEvent: (event, error) => reported.push([event, error]) }))).toBe("-a-------b-|", asEvents(values));
    });
    expect(reported.map(([event]) => event)).toEqual([invalid.wrongType, invalid.unknownType, invalid.explicitNull]);
    expect(reported.every(([, error]) => error instanceof AgUiInvalidEventError)).toBe(true);
    expect(reported[0]?.[1]).toMatchObject({ eventType: "TEXT_MESSAGE_CONTENT", problems: ["messageId: Invalid input: expected string, received number"] });
    expect(reported[1]?.[1].eventType).toBe("TELEPATHY");
  });

  it("keeps a RUN_FINISHED whose outcome type it does not know, without the outcome, and reports what it stripped", () => {
    const reported: [unknown, AgUiInvalidEventError][] = [];
    const unknownOutcome = { ...ev.runFinished(), outcome: { type: "handoff", to: "billing" } } as unknown as AGUIEvent;
    const malformedOutcome = { ...ev.runFinished(), outcome: ["success"] } as unknown as AGUIEvent;
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-|", { a: unknownOutcome, b: malformedOutcome });
      expectObservable(source.pipe(validateEvents({ onInvalidEvent: (event, error) => reported.push([event, error]) }))).toBe("-a---|", { a: ev.runFinished() });
    });
    expect(reported.map(([event]) => event)).toEqual([unknownOutcome, malformedOutcome]);
    expect(reported[0]?.[1].problems).toEqual(["outcome.type: 'handoff' is not an outcome AG-UI 1.0 knows; the outcome was stripped and the run's end kept"]);
  });

  it("takes the fast path only for streamed events the schema accepts", () => {
    const shapes: [string, string, string][] = [
      ["TEXT_MESSAGE_CONTENT", "messageId", "delta"],
      ["TOOL_CALL_ARGS", "toolCallId", "delta"],
      ["REASONING_MESSAGE_CONTENT", "messageId", "delta"],
      ["TEXT_MESSAGE_CHUNK", "messageId", "role"],
      ["TOOL_CALL_CHUNK", "toolCallId", "toolCallName"],
      ["REASONING_MESSAGE_CHUNK", "messageId", "delta"],
      ["TEXT_MESSAGE_END", "messageId", "delta"],
    ];
    const values = ["m1", "", 5, null, undefined, "assistant"];
    const variants: Record<string, unknown>[] = [];
    for (const [type, first, second] of shapes) {
      for (const a of values) {
        for (const b of values) {
          const event = { type, ...(a !== undefined && { [first]: a }), ...(b !== undefined && { [second]: b }) };
          variants.push(event, { ...event, timestamp: "late" }, { ...event, timestamp: 1 });
        }
      }
    }
    const fast = variants.filter((variant) => isPlainStreamedEvent(variant as BaseEvent));
    expect(fast.length).toBeGreaterThan(50);
    expect(fast.filter((variant) => !EventSchemas.safeParse(variant).success)).toEqual([]);
  });

  it("errors when onInvalidEvent throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-w-b-|", { a: ev.runStarted(), w: invalid.wrongType!, b: ev.runFinished() });
      const onInvalidEvent = () => {
        throw new Error("strict host");
      };
      expectObservable(source.pipe(validateEvents({ onInvalidEvent }))).toBe("-a-#", asEvents({ a: ev.runStarted() }), new Error("strict host"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("errors when a downstream callback throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const result = cold("-a-|", { a: ev.runStarted() }).pipe(
        validateEvents(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
    });
  });

  itFollowsTheOperatorContract(() => validateEvents(), ev.custom("x"));
});
