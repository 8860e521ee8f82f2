import { EventType, type AGUIEvent, type BaseEvent } from "@ag-ui/core";
import { map } from "rxjs";
import { AgUiProtocolError } from "../../../src/errors";
import { expandChunks } from "../../../src/operators/check/expandChunks";
import { ev } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const start = (messageId: string, role = "assistant"): AGUIEvent => ({ type: EventType.TEXT_MESSAGE_START, messageId, role } as AGUIEvent);
const asEvents = (values: Record<string, BaseEvent>) => values as Record<string, AGUIEvent>;

describe("expandChunks", () => {
  it("expands text chunks into start, content and end", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a---b-f---|", {
        a: ev.textChunk({ messageId: "m1", delta: "Hel" }),
        b: ev.textChunk({ delta: "lo" }),
        f: ev.runFinished(),
      });
      expectObservable(source.pipe(expandChunks())).toBe("-(SC)b-(Ef)|", asEvents({
        S: start("m1"),
        C: ev.text("m1", "Hel"),
        b: ev.text("m1", "lo"),
        E: ev.textEnd("m1"),
        f: ev.runFinished(),
      }));
      expectSubscriptions(source.subscriptions).toBe("^----------!");
    });
  });

  it("ends a chunk stream at a chunk with another id, and at the next event of another kind", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-------b-------c---|", {
        a: ev.textChunk({ messageId: "m1", delta: "one" }),
        b: ev.textChunk({ messageId: "m2", role: "assistant", delta: "two" }),
        c: ev.stepStarted("think"),
      });
      expectObservable(source.pipe(expandChunks())).toBe("-(SC)----(ETD)---(Fc)|", asEvents({
        S: start("m1"),
        C: ev.text("m1", "one"),
        E: ev.textEnd("m1"),
        T: start("m2"),
        D: ev.text("m2", "two"),
        F: ev.textEnd("m2"),
        c: ev.stepStarted("think"),
      }));
    });
  });

  it("expands tool-call and reasoning chunks", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-------r-------x---|", {
        a: ev.toolChunk({ toolCallId: "t1", toolCallName: "search", delta: "{}" }),
        r: ev.reasoningChunk({ messageId: "r1", delta: "hmm" }),
        x: ev.runFinished(),
      });
      expectObservable(source.pipe(expandChunks())).toBe("-(SA)----(ERC)---(Fx)|", asEvents({
        S: { type: EventType.TOOL_CALL_START, toolCallId: "t1", toolCallName: "search" },
        A: ev.toolArgs("t1", "{}"),
        E: ev.toolEnd("t1"),
        R: { type: EventType.REASONING_MESSAGE_START, messageId: "r1", role: "reasoning" },
        C: { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "r1", delta: "hmm" },
        F: { type: EventType.REASONING_MESSAGE_END, messageId: "r1" },
        x: ev.runFinished(),
      }));
    });
  });

  it("errors when the first chunk of a stream has no id", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-|", { a: ev.textChunk({ delta: "orphan" }) });
      expectObservable(source.pipe(expandChunks())).toBe(
        "-#",
        undefined,
        new AgUiProtocolError("The first TEXT_MESSAGE_CHUNK of a stream needs a messageId", "TEXT_MESSAGE_CHUNK"),
      );
    });
  });

  it("errors when the first tool-call chunk has no name", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-|", { a: ev.toolChunk({ toolCallId: "t1" }) });
      expectObservable(source.pipe(expandChunks())).toBe(
        "-#",
        undefined,
        new AgUiProtocolError("The first TOOL_CALL_CHUNK of a tool call needs a toolCallName", "TOOL_CALL_CHUNK"),
      );
    });
  });

  it("passes other events through unchanged", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { s: ev.runStarted(), t: ev.text("m1", "x"), f: ev.runFinished() };
      expectObservable(cold("-s-t-f-|", values).pipe(expandChunks())).toBe("-s-t-f-|", asEvents(values));
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-|", { a: ev.custom("ok"), b: ev.custom("bad") });
      const result = source.pipe(
        expandChunks(),
        map((event) => {
          if (event.type === EventType.CUSTOM && event.name === "bad") throw new Error("bad");
          return event;
        }),
      );
      expectObservable(result).toBe("-a-#", asEvents({ a: ev.custom("ok") }), new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("makes up no END when the source completes inside a chunk stream: the stream was cut", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a---|", { a: ev.textChunk({ messageId: "m1", delta: "Hi" }) });
      expectObservable(source.pipe(expandChunks())).toBe("-(SC)|", asEvents({ S: start("m1"), C: ev.text("m1", "Hi") }));
    });
  });

  itFollowsTheOperatorContract(() => expandChunks(), ev.custom("x"));
});
