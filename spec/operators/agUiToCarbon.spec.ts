import type { AGUIEvent, BaseEvent } from "@ag-ui/core";
import { animationFrameScheduler, from, map } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { redactEmails } from "../../examples/operators/redactEmails";
import { Conversation } from "../../src/conversation";
import type { PipelineElement } from "../../src/instructions";
import * as pieces from "../../src";
import { agUiToCarbon } from "../../src/operators/agUiToCarbon";
import { carbon, ev } from "../support/builders";
import { producedBeforeUnsubscribe, testScheduler } from "../support/marbles";

const INCOMPLETE = "This answer is incomplete. Something went wrong while talking to the agent.";
const turn = { R: ev.runStarted(), S: ev.textStart("m1"), a: ev.text("m1", "Hi there"), E: ev.textEnd("m1"), F: ev.runFinished() };

describe("agUiToCarbon", () => {
  it("turns a run into Carbon chunks and records the answer in the conversation", () => {
    const conversation = new Conversation();
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("R-S-a-E-F-|", turn);
      const expected = "   ----p-C-(f|)";
      expectObservable(source.pipe(agUiToCarbon({ responseId: "r1", conversation }))).toBe(expected, {
        p: carbon.partialText("r1", "m1", "Hi there"),
        C: carbon.completeText("r1", "m1", "Hi there"),
        f: carbon.final("r1", [carbon.textItem("m1", "Hi there")]),
      });
      expectSubscriptions(source.subscriptions).toBe("^-------!");
    });
    expect(conversation.messages).toEqual([{ id: "m1", role: "assistant", content: "Hi there" }]);
  });

  it("runs user operators on the events before mapping (the documented redaction example)", () => {
    const conversation = new Conversation();
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("R-S-a-E-F-|", { ...turn, a: ev.text("m1", "mail ada@example.com") });
      expectObservable(source.pipe(agUiToCarbon({ responseId: "r1", conversation, operators: [redactEmails()] }))).toBe("----p-C-(f|)", {
        p: carbon.partialText("r1", "m1", "mail [email]"),
        C: carbon.completeText("r1", "m1", "mail [email]"),
        f: carbon.final("r1", [carbon.textItem("m1", "mail [email]")]),
      });
    });
    expect(conversation.messages[0]?.content).toBe("mail [email]");
  });

  it("shows the agent's HTML as text and refuses items with unsafe URLs by default; html: true lets the HTML through as it is", () => {
    const html = "<img src=x onerror=alert(1)>";
    const events = { ...turn, a: ev.text("m1", html), c: ev.custom("carbon.item", { response_type: "button", button_type: "url", label: "Go", url: "javascript:alert(1)" }) };
    const invalid: string[][] = [];
    const onInvalidItem = (_item: unknown, error: { problems: string[] }) => void invalid.push(error.problems);
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("R-S-a-E-c-F-|", events).pipe(agUiToCarbon({ responseId: "r1", onInvalidItem }))).toBe("----p-C---(f|)", {
        p: carbon.partialText("r1", "m1", "&lt;img src=x onerror=alert(1)>"),
        C: carbon.completeText("r1", "m1", "&lt;img src=x onerror=alert(1)>"),
        f: carbon.final("r1", [carbon.textItem("m1", "&lt;img src=x onerror=alert(1)>")]),
      });
    });
    expect(invalid).toEqual([["item.url: javascript: URLs are not allowed (only https:)"]]);
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("R-S-a-E-F-|", events).pipe(agUiToCarbon({ responseId: "r1", html: true }))).toBe("----p-C-(f|)", {
        p: carbon.partialText("r1", "m1", html),
        C: carbon.completeText("r1", "m1", html),
        f: carbon.final("r1", [carbon.textItem("m1", html)]),
      });
    });
  });

  it("can be assembled by hand from the exported operators, with your own among them", () => {
    const { expandChunks, verifySequence, textMessages, runOutcome, toStreamChunks } = pieces;
    const shout = map((element: PipelineElement): PipelineElement =>
      "kind" in element && element.kind === "item.delta" ? { ...element, item: { ...element.item, text: String(element.item.text).toUpperCase() } } : element,
    );
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("R-S-a-E-F-|", turn);
      const result = source.pipe(expandChunks(), verifySequence(), textMessages(), shout, runOutcome(), toStreamChunks({ responseId: "r1" }));
      expectObservable(result).toBe("----p-C-(f|)", {
        p: carbon.partialText("r1", "m1", "HI THERE"),
        C: carbon.completeText("r1", "m1", "Hi there"),
        f: carbon.final("r1", [carbon.textItem("m1", "Hi there")]),
      });
    });
  });

  it("skips an invalid event and goes on with the turn, unless validation is off", () => {
    const invalid: unknown[] = [];
    const broken = { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: 42 } as unknown as BaseEvent;
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("R-S-x-a-E-F-|", { ...turn, x: broken });
      expectObservable(source.pipe(agUiToCarbon({ responseId: "r1", onInvalidEvent: (event) => invalid.push(event) }))).toBe("------p-C-(f|)", {
        p: carbon.partialText("r1", "m1", "Hi there"),
        C: carbon.completeText("r1", "m1", "Hi there"),
        f: carbon.final("r1", [carbon.textItem("m1", "Hi there")]),
      });
      // A string timestamp breaks the schema (it must be a number), but nothing else needs it.
      const lax = { ...ev.text("m1", "unchecked"), timestamp: "yesterday" } as unknown as BaseEvent;
      const unchecked = cold("R-S-x-E-F-|", { ...turn, x: lax });
      expectObservable(unchecked.pipe(agUiToCarbon({ responseId: "r2", validate: false }))).toBe("----p-C-(f|)", {
        p: carbon.partialText("r2", "m1", "unchecked"),
        C: carbon.completeText("r2", "m1", "unchecked"),
        f: carbon.final("r2", [carbon.textItem("m1", "unchecked")]),
      });
    });
    expect(invalid).toEqual([broken]);
  });

  it("shows every event to onEvent, chunks already expanded", () => {
    const seen: string[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("R-c-F-|", { R: ev.runStarted(), c: ev.textChunk({ messageId: "m1", delta: "x" }), F: ev.runFinished() });
      expectObservable(source.pipe(agUiToCarbon({ responseId: "r1", onEvent: (event) => seen.push(event.type) }))).toBe("--p-(Cf|)", {
        p: carbon.partialText("r1", "m1", "x"),
        C: carbon.completeText("r1", "m1", "x"),
        f: carbon.final("r1", [carbon.textItem("m1", "x")]),
      });
    });
    expect(seen).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
  });

  it("sends the final response, then the error, when the source errors", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("R-S-a-#", turn, new Error("connection reset"));
      expectObservable(source.pipe(agUiToCarbon({ responseId: "r1" }))).toBe(
        "----p-(f#)",
        { p: carbon.partialText("r1", "m1", "Hi there"), f: carbon.final("r1", [carbon.textItem("m1", "Hi there"), carbon.inlineError(INCOMPLETE)]) },
        new Error("connection reset"),
      );
      expectSubscriptions(source.subscriptions).toBe("^-----!");
    });
  });

  it("sends the final response, then the error, when onEvent throws", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("R-S-a-E-F-|", turn);
      const onEvent = (event: AGUIEvent) => {
        if (event.type === "TEXT_MESSAGE_END") throw new Error("host bug");
      };
      expectObservable(source.pipe(agUiToCarbon({ responseId: "r1", onEvent }))).toBe(
        "----p-(f#)",
        { p: carbon.partialText("r1", "m1", "Hi there"), f: carbon.final("r1", [carbon.textItem("m1", "Hi there"), carbon.inlineError(INCOMPLETE)]) },
        new Error("host bug"),
      );
      expectSubscriptions(source.subscriptions).toBe("^-----!");
    });
  });

  it("sends the final response, then the error, when a user operator throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const failing = map((element: PipelineElement): PipelineElement => {
        if ("type" in element && element.type === "TEXT_MESSAGE_START") throw new Error("operator bug");
        return element;
      });
      expectObservable(cold("R-S-a-|", turn).pipe(agUiToCarbon({ responseId: "r1", operators: [failing] }))).toBe(
        "--(f#)",
        { f: carbon.final("r1", [carbon.inlineError("Something went wrong while talking to the agent.")]) },
        new Error("operator bug"),
      );
    });
  });

  it("ends an empty source with an empty final response", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<BaseEvent>("|").pipe(agUiToCarbon({ responseId: "r1" }))).toBe("(f|)", { f: carbon.final("r1", []) });
    });
  });

  it("stays silent with a never source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<BaseEvent>("-");
      expectObservable(source.pipe(agUiToCarbon({ responseId: "r1" }))).toBe("-");
      expectSubscriptions(source.subscriptions).toBe("^");
    });
  });

  it("unsubscribes the source when unsubscribed early", () => {
    testScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot("R-S-a-E-F-|", turn);
      const unsub = "     ^---!";
      expectObservable(source.pipe(agUiToCarbon({ responseId: "r1" })), unsub).toBe("-----");
      expectSubscriptions(source.subscriptions).toBe(unsub);
    });
  });

  it("stops a synchronous source when unsubscribed", () => {
    const event = (index: number) => (index === 0 ? ev.runStarted() : ev.text("m1", `${index}`));
    const withStart = (index: number) => (index === 1 ? ev.textStart("m1") : event(index));
    // Index 0 starts the run and 1 the message; each later index yields one chunk, unless merged with the ones before.
    expect(producedBeforeUnsubscribe(withStart, agUiToCarbon({ responseId: "r1", coalesce: false }), 3)).toEqual([0, 1, 2, 3, 4]);
    expect(producedBeforeUnsubscribe(withStart, agUiToCarbon({ responseId: "r1" }), 1)).toEqual([0, 1, 2]);
  });

  describe("merging deltas (coalesce)", () => {
    const burst = { ...turn, a: ev.text("m1", "Once "), b: ev.text("m1", "upon "), c: ev.text("m1", "a time") };

    it("sends the first delta of a burst at once and the rest as one delta within 100 ms, by default", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("R-S-(abc)-E----F-|", burst);
        // The window stays open 100 ms: the complete item comes first and sends what waits.
        expectObservable(source.pipe(agUiToCarbon({ responseId: "r1" }))).toBe("----p-----(qC)-(f|)", {
          p: carbon.partialText("r1", "m1", "Once "),
          q: carbon.partialText("r1", "m1", "upon a time"),
          C: carbon.completeText("r1", "m1", "Once upon a time"),
          f: carbon.final("r1", [carbon.textItem("m1", "Once upon a time")]),
        });
      });
    });

    it("merges per task of the scheduler with coalesce: { intervalMs: 0 }", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("R-S-(abc)-E-F-|", burst);
        expectObservable(source.pipe(agUiToCarbon({ responseId: "r1", coalesce: { intervalMs: 0 } }))).toBe("----(pq)--C-(f|)", {
          p: carbon.partialText("r1", "m1", "Once "),
          q: carbon.partialText("r1", "m1", "upon a time"),
          C: carbon.completeText("r1", "m1", "Once upon a time"),
          f: carbon.final("r1", [carbon.textItem("m1", "Once upon a time")]),
        });
      });
    });

    it("sends one chunk per delta with coalesce: false", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("R-S-(abc)-E-F-|", burst);
        expectObservable(source.pipe(agUiToCarbon({ responseId: "r1", coalesce: false }))).toBe("----(pqr)-C-(f|)", {
          p: carbon.partialText("r1", "m1", "Once "),
          q: carbon.partialText("r1", "m1", "upon "),
          r: carbon.partialText("r1", "m1", "a time"),
          C: carbon.completeText("r1", "m1", "Once upon a time"),
          f: carbon.final("r1", [carbon.textItem("m1", "Once upon a time")]),
        });
      });
    });

    it("paces merged deltas by the scheduler given, and a stop sends what waits into the stopped item", () => {
      testScheduler().run(({ animate, cold, hot, expectObservable }) => {
        animate("-------------------x");
        const source = cold("R-S-(abc)-E-F-|", burst);
        const stop = hot("   -------x");
        expectObservable(source.pipe(agUiToCarbon({ responseId: "r1", stop, coalesce: { scheduler: animationFrameScheduler } }))).toBe("----p--(qSf|)", {
          p: carbon.partialText("r1", "m1", "Once "),
          q: carbon.partialText("r1", "m1", "upon a time"),
          S: carbon.completeText("r1", "m1", "Once upon a time", true),
          f: carbon.final("r1", [carbon.textItem("m1", "Once upon a time", true)]),
        });
      });
    });

    it("gives Carbon the same turn merged or not: reasoning, chain of thought and text in bursts", () => {
      const events = [
        ev.runStarted(),
        ev.reasoningMessageStart("think"),
        ...Array.from({ length: 40 }, (_, index) => ev.reasoning("think", `thought ${index}. `)),
        ev.reasoningMessageEnd("think"),
        ...ev.toolCall("t1", "search", { q: "x" }),
        ev.textStart("m1"),
        ...Array.from({ length: 150 }, (_, index) => ev.text("m1", `word${index} `)),
        ev.toolResult("t1", "found"),
        ...Array.from({ length: 150 }, (_, index) => ev.text("m1", `more${index} `)),
        ev.textEnd("m1"),
        ev.runFinished(),
      ];
      const shown = (coalesce: boolean) => {
        const recorder = new CarbonRecorder();
        from(events)
          .pipe(agUiToCarbon({ responseId: "r1", coalesce }))
          .subscribe((chunk) => void recorder.messaging.addMessageChunk(chunk));
        return recorder;
      };
      const merged = shown(true);
      const unmerged = shown(false);
      expect(merged.chunks.length).toBeLessThan(10);
      expect(unmerged.chunks.length).toBeGreaterThan(340);
      expect(merged.transcript()).toBe(unmerged.transcript());
      expect(merged.chunks.at(-1)).toEqual(unmerged.chunks.at(-1));
      const streamedText = (recorder: CarbonRecorder) => recorder.chunks.map((chunk) => ("partial_item" in chunk ? chunk.partial_item.text : "")).join("");
      expect(streamedText(merged)).toBe(streamedText(unmerged));
    });
  });
});
