import { map } from "rxjs";
import { MessageErrorState, type CarbonChainOfThoughtStep } from "../../../src/carbon";
import { AgUiRunError } from "../../../src/errors";
import { deepFreeze } from "../../../src/internal/deepFreeze";
import type { PipelineElement } from "../../../src/instructions";
import { OPTIONS_CARRIER_ID, toStreamChunks } from "../../../src/operators/render/toStreamChunks";
import { carbon, ev, instr } from "../../support/builders";
import { producedBeforeUnsubscribe, testScheduler } from "../../support/marbles";

const R = "resp-1";
const FAILED = MessageErrorState.FAILED_WHILE_STREAMING;
const elements = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;
const streamed = elements({ a: instr.textDelta("m1", "Hel"), b: instr.textDelta("m1", "lo"), c: instr.textComplete("m1", "Hello") });

describe("toStreamChunks", () => {
  it("streams deltas, completes items and ends with one final response", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c-t-|", { ...streamed, t: instr.finished() });
      const expected = "   -p-q-C-(F|)";
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe(expected, {
        p: carbon.partialText(R, "m1", "Hel"),
        q: carbon.partialText(R, "m1", "lo"),
        C: carbon.completeText(R, "m1", "Hello"),
        F: carbon.final(R, [carbon.textItem("m1", "Hello")]),
      });
      expectSubscriptions(source.subscriptions).toBe("^------!");
    });
  });

  it("ends the turn when the source completes without turn.end, keeping open items as streamed", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-|", streamed);
      expectObservable(source.pipe(toStreamChunks({ responseId: R, requestId: "req-9" }))).toBe("-p-q-(F|)", {
        p: carbon.partialText(R, "m1", "Hel"),
        q: carbon.partialText(R, "m1", "lo"),
        F: carbon.final(R, [carbon.textItem("m1", "Hello")], { requestId: "req-9" }),
      });
    });
  });

  it("on turn.end stopped, completes open items as stopped and sends the final response, leaving completed items as they were", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-c-d-s-|", { ...streamed, d: instr.textDelta("m2", "More"), s: instr.stopped() });
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe("-C-p-(SF|)", {
        C: carbon.completeText(R, "m1", "Hello"),
        p: carbon.partialText(R, "m2", "More"),
        S: carbon.completeText(R, "m2", "More", true),
        F: carbon.final(R, [carbon.textItem("m1", "Hello"), carbon.textItem("m2", "More", true)]),
      });
    });
  });

  it("on turn.end stopped before anything was shown, ends with no response at all (no empty bubble)", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("--s-|", elements({ s: instr.stopped() }));
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe("--|");
      expectSubscriptions(source.subscriptions).toBe("^-!");
    });
  });

  it("on turn.end failed, keeps the text so far and ends with an inline error saying why, then errors", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const error = new AgUiRunError("model overloaded", "overloaded");
      const source = cold("-a-e-b-|", { ...streamed, e: instr.failed(error) });
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe(
        "-p-(F#)",
        { p: carbon.partialText(R, "m1", "Hel"), F: carbon.final(R, [carbon.textItem("m1", "Hel"), carbon.inlineError("This answer is incomplete. model overloaded.")]) },
        error,
      );
    });
  });

  it("on failure before any output, says why in an inline error alone", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const error = new AgUiRunError("No quota left");
      expectObservable(cold("-e-|", { e: instr.failed(error) }).pipe(toStreamChunks({ responseId: R }))).toBe(
        "-(F#)",
        { F: carbon.final(R, [carbon.inlineError("No quota left.")]) },
        error,
      );
    });
  });

  it("words the error with describeError, and with describeError: false marks the text failed-while-streaming instead", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const error = new AgUiRunError("internal: pod 7 OOM");
      const source = cold("-a-e-|", { ...streamed, e: instr.failed(error) });
      const worded = source.pipe(toStreamChunks({ responseId: R, describeError: () => "Sorry, that failed." }));
      expectObservable(worded).toBe("-p-(F#)", { p: carbon.partialText(R, "m1", "Hel"), F: carbon.final(R, [carbon.textItem("m1", "Hel"), carbon.inlineError("This answer is incomplete. Sorry, that failed.")]) }, error);
      const unworded = source.pipe(toStreamChunks({ responseId: R, describeError: false }));
      expectObservable(unworded).toBe("-p-(F#)", { p: carbon.partialText(R, "m1", "Hel"), F: carbon.final(R, [carbon.textItem("m1", "Hel")], { errorState: FAILED }) }, error);
    });
  });

  it("makes an agent's markup in the inline error inert: no image, no attributes", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const error = new AgUiRunError("See ![x](https://tracker.example/p.png) and [here](https://a.example){{target=_top}}");
      const source = cold("-e-|", { e: instr.failed(error) });
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe(
        "-(F#)",
        { F: carbon.final(R, [carbon.inlineError("See !\u2060[x](https://tracker.example/p.png) and [here](https://a.example){\u2060{target=_top}}.")]) },
        error,
      );
    });
  });

  it("on a source error, sends the final response first, then the error", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-#", streamed, new Error("socket hang up"));
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe(
        "-p-(F#)",
        { p: carbon.partialText(R, "m1", "Hel"), F: carbon.final(R, [carbon.textItem("m1", "Hel"), carbon.inlineError("This answer is incomplete. Something went wrong while talking to the agent.")]) },
        new Error("socket hang up"),
      );
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("sends the final response when an upstream callback throws", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const throwing = map((element: PipelineElement) => {
        if ("kind" in element && element.kind === "item.complete") throw new Error("bad operator");
        return element;
      });
      const result = cold("-a-c-|", streamed).pipe(throwing, toStreamChunks({ responseId: R }));
      expectObservable(result).toBe(
        "-p-(F#)",
        { p: carbon.partialText(R, "m1", "Hel"), F: carbon.final(R, [carbon.textItem("m1", "Hel"), carbon.inlineError("This answer is incomplete. Something went wrong while talking to the agent.")]) },
        new Error("bad operator"),
      );
    });
  });

  it("sends exactly one final response, ignoring anything after the end and events nobody mapped", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-x-t-a-t-|", elements({ x: ev.custom("noise"), t: instr.finished(), a: streamed.a }));
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe("---(F|)", { F: carbon.final(R, []) });
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("sends message options at once on an empty carrier item that the first text item takes over", () => {
    const steps = [{ tool_name: "search", status: "processing" as const }];
    const done = [{ tool_name: "search", status: "success" as const }];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-o-a-p-c-t|", elements({
        o: { kind: "options", options: { chain_of_thought: steps } },
        a: instr.textDelta("m1", "Found it"),
        p: { kind: "options", options: { chain_of_thought: done } },
        c: instr.textComplete("m1", "Found it."),
        t: instr.finished(),
      }));
      const carrierDelta = (chain: CarbonChainOfThoughtStep[]) => carbon.options(R, { chain_of_thought: chain });
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe("-O-A-P-C-(F|)", {
        O: carrierDelta(steps),
        A: carbon.partialText(R, OPTIONS_CARRIER_ID, "Found it"),
        P: carrierDelta(done),
        C: carbon.completeText(R, OPTIONS_CARRIER_ID, "Found it."),
        F: { final_response: { id: R, output: { generic: [carbon.textItem(OPTIONS_CARRIER_ID, "Found it.")] }, message_options: { chain_of_thought: done } } },
      });
    });
  });

  it("leaves the carrier alone once another item came after it, so the first text shows after that item", () => {
    const steps = [{ tool_name: "search", status: "processing" as const }];
    const card = { response_type: "user_defined", user_defined: { card: "search" } };
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-o-k-a-t|", elements({ o: { kind: "options", options: { chain_of_thought: steps } }, k: { kind: "item.complete", itemId: "card", item: card }, a: instr.textComplete("m1", "Answer"), t: instr.finished() }));
      const result = source.pipe(toStreamChunks({ responseId: R }), map((chunk) => ("final_response" in chunk ? chunk.final_response.output.generic.map((item) => item.response_type).join(",") : "-")));
      expectObservable(result).toBe("-x-x-x-(F|)", { x: "-", F: "user_defined,text" });
    });
  });

  it("goes on from a completed text item's text when it streams again (a reopened message)", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-c-a-|", elements({ c: instr.textComplete("m1", "Hello"), a: instr.textDelta("m1", " world") }));
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe("-C-p-(F|)", {
        C: carbon.completeText(R, "m1", "Hello"),
        p: carbon.partialText(R, "m1", " world"),
        F: carbon.final(R, [carbon.textItem("m1", "Hello world")]),
      });
    });
  });

  it("ends with the latest fields of an item whose text Carbon does not join, streamed in deltas, and leaves the instructions' items unchanged", () => {
    const first = deepFreeze({ response_type: "user_defined", user_defined: { step: 1 } });
    const second = deepFreeze({ response_type: "user_defined", user_defined: { step: 2 } });
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-|", elements({ a: { kind: "item.delta", itemId: "u", item: first }, b: { kind: "item.delta", itemId: "u", item: second } }));
      const finals = source.pipe(toStreamChunks({ responseId: R }), map((chunk) => ("final_response" in chunk ? chunk.final_response.output.generic : "chunk")));
      expectObservable(finals).toBe("-x-x-(F|)", { x: "chunk", F: [{ ...second, streaming_metadata: { id: "u" } }] });
    });
  });

  it("leaves the empty carrier out of the final response when no text took it over and other items exist", () => {
    const steps = [{ tool_name: "search", status: "processing" as const }];
    const card = { response_type: "user_defined", user_defined: { kind: "interrupt" } };
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-o-c-t|", elements({ o: { kind: "options", options: { chain_of_thought: steps } }, c: { kind: "item.complete", itemId: "card", item: card }, t: instr.finished() }));
      const result = source.pipe(toStreamChunks({ responseId: R }), map((chunk) => ("final_response" in chunk ? chunk.final_response.output.generic : "chunk")));
      expectObservable(result).toBe("-a-b-(f|)", { a: "chunk", b: "chunk", f: [{ ...card, streaming_metadata: { id: "card" } }] });
    });
  });

  it("carries message options on the latest text item once there is one", () => {
    const steps = [{ tool_name: "search", status: "processing" as const }];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-o-|", elements({ a: instr.textDelta("m1", "Let me look"), o: { kind: "options", options: { chain_of_thought: steps } } }));
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe("-A-O-(F|)", {
        A: carbon.partialText(R, "m1", "Let me look"),
        O: carbon.options(R, { chain_of_thought: steps }, "m1"),
        F: { final_response: { id: R, output: { generic: [carbon.textItem("m1", "Let me look")] }, message_options: { chain_of_thought: steps } } },
      });
    });
  });

  it("draws a fresh response id for each subscription from a function", () => {
    let drawn = 0;
    testScheduler().run(({ cold, expectObservable }) => {
      const result = cold<PipelineElement>("|").pipe(toStreamChunks({ responseId: () => `r${++drawn}` }));
      expectObservable(result).toBe("(F|)", { F: carbon.final("r1", []) });
      expectObservable(result).toBe("(F|)", { F: carbon.final("r2", []) });
    });
  });

  it("ends an empty source with an empty final response", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<PipelineElement>("|").pipe(toStreamChunks({ responseId: R }))).toBe("(F|)", { F: carbon.final(R, []) });
    });
  });

  it("stays silent with a never source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<PipelineElement>("-");
      expectObservable(source.pipe(toStreamChunks({ responseId: R }))).toBe("-");
      expectSubscriptions(source.subscriptions).toBe("^");
    });
  });

  it("unsubscribes the source when unsubscribed early", () => {
    testScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot("-a-b-c-|", streamed);
      const unsub = "     ^--!";
      expectObservable(source.pipe(toStreamChunks({ responseId: R })), unsub).toBe("-p--", { p: carbon.partialText(R, "m1", "Hel") });
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("stops a synchronous source when unsubscribed", () => {
    const produced = producedBeforeUnsubscribe((index) => instr.textDelta(`m${index}`, "x"), toStreamChunks({ responseId: R }), 3);
    expect(produced).toEqual([0, 1, 2]);
  });
});
