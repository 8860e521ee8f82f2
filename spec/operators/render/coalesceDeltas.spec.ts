import { animationFrameScheduler, asyncScheduler, from, of, type SchedulerLike, type Subscription } from "rxjs";
import type { CarbonChainOfThoughtStep, CarbonStreamChunk } from "../../../src/carbon";
import { deepFreeze } from "../../../src/internal/deepFreeze";
import { coalesceDeltas } from "../../../src/operators/render/coalesceDeltas";
import { carbon } from "../../support/builders";
import { producedBeforeUnsubscribe, testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const R = "resp-1";
const text = (value: string, itemId = "m1") => carbon.partialText(R, itemId, value);
const step = (tool_name: string, status: NonNullable<CarbonChainOfThoughtStep["status"]>): CarbonChainOfThoughtStep => ({ tool_name, status });
/** Source chunks frozen as Carbon freezes what it is given: the operator must never change a chunk. */
const chunks = (values: Record<string, CarbonStreamChunk>) => deepFreeze(values);

describe("coalesceDeltas", () => {
  it("sends the first delta at once and the rest of a burst as one delta when the window ends", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-(bcd)-e-|", chunks({ a: text("Hel"), b: text("lo"), c: text(", "), d: text("world"), e: text("!") }));
      expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 0))).toBe("-a-(bx)--e-|", {
        a: text("Hel"),
        b: text("lo"),
        x: text(", world"),
        e: text("!"),
      });
      expectSubscriptions(source.subscriptions).toBe("^----------!");
    });
  });

  it("keeps each window open 100 ms by default, how often Carbon's markdown view refreshes", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b 50ms c 50ms d 100ms e-|", chunks({ a: text("1"), b: text("2"), c: text("3"), d: text("4"), e: text("5") }));
      // a opens a window (frames 1–101): b and c wait for its end; d, at 105, for the next one's (201); e, at 206, for the source's end.
      expectObservable(source.pipe(coalesceDeltas(asyncScheduler))).toBe("-a 99ms x 99ms y 6ms (e|)", {
        a: text("1"),
        x: text("23"),
        y: text("4"),
        e: text("5"),
      });
    });
  });

  it("sends at most one merged delta per animation frame, and a delta at once when no window is open", () => {
    testScheduler().run(({ animate, cold, expectObservable }) => {
      animate("            -----x-----x-----x");
      const source = cold("-a-b-c-d-----------e-|", chunks({ a: text("1"), b: text("2"), c: text("3"), d: text("4"), e: text("5") }));
      // Frame 5 sends b; c and d wait for frame 11; frame 17 finds nothing and closes the window.
      expectObservable(source.pipe(coalesceDeltas(animationFrameScheduler, 0))).toBe("-a---b-----x-------e-|", {
        a: text("1"),
        b: text("2"),
        x: text("34"),
        e: text("5"),
      });
    });
  });

  it("sends what waits before a complete item, another item's delta and the final response, keeping the order", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = chunks({
        a: text("Hel"),
        b: text("lo"),
        C: carbon.completeText(R, "m1", "Hello"),
        d: text("Sec", "m2"),
        e: text("ond", "m2"),
        f: text("Third", "m3"),
        F: carbon.final(R, [carbon.textItem("m1", "Hello"), carbon.textItem("m2", "Second"), carbon.textItem("m3", "Third")]),
      });
      const source = cold("-(abC)-(defF|)", values);
      expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 0))).toBe("-(abC)-(defF|)", values);
    });
  });

  it("merges the chain of thought and reasoning riding on a text item, as Carbon merges message options", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const processing = { chain_of_thought: [step("search", "processing")] };
      const reasoning = (content: string) => ({ chain_of_thought: [step("search", "success")], reasoning: { steps: [{ title: "Reasoning", content }] } });
      const source = cold(
        "-(abcd)-|",
        chunks({ a: text("Hi"), b: carbon.options(R, processing, "m1"), c: carbon.options(R, reasoning("Let me"), "m1"), d: text(" there") }),
      );
      expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 0))).toBe("-(ax)---|", {
        a: text("Hi"),
        x: { ...text(" there"), partial_response: { message_options: reasoning("Let me") } },
      });
    });
  });

  it("sends the turn's first text at once, even when options went out in the same window", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const thinking = (content: string) => carbon.options(R, { reasoning: { steps: [{ title: "Reasoning", content }] } }, "m1");
      const values = chunks({ a: thinking("Let"), b: thinking("Let me"), c: text("Hi"), d: text(" there"), e: text("!") });
      expectObservable(cold("-(abcde)-|", values).pipe(coalesceDeltas(asyncScheduler, 0))).toBe("-(axe)---|", {
        a: values.a,
        x: { ...text("Hi"), partial_response: { message_options: { reasoning: { steps: [{ title: "Reasoning", content: "Let me" }] } } } },
        e: text(" there!"),
      });
    });
  });

  it("keeps what an earlier options chunk had that a later one leaves out, as Carbon's merge by index would", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const earlier = { chain_of_thought: [step("search", "processing"), step("fetch", "processing")] };
      const later = { chain_of_thought: [{ status: "success" as const }] };
      const source = cold("-(abc)|", chunks({ a: text("Hi"), b: carbon.options(R, earlier, "m1"), c: carbon.options(R, later, "m1") }));
      expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 0))).toBe("-(ax)-|", {
        a: text("Hi"),
        x: carbon.options(R, { chain_of_thought: [step("search", "success"), step("fetch", "processing")] }, "m1"),
      });
    });
  });

  it("passes partial items whose text Carbon does not join, and deltas of another response, unmerged", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const card = { partial_item: { response_type: "user_defined", streaming_metadata: { id: "m1" } }, streaming_metadata: { response_id: R } };
      const values = chunks({ a: text("Hi"), b: card, c: card, d: carbon.partialText("resp-2", "m1", "Other") });
      expectObservable(cold("-(abcd)-|", values).pipe(coalesceDeltas(asyncScheduler, 0))).toBe("-(abcd)-|", values);
    });
  });

  it("sends what waits, then the error, when the source errors", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const error = new Error("socket hang up");
      const source = cold("-(abc#)", chunks({ a: text("a"), b: text("b"), c: text("c") }), error);
      expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 0))).toBe("-(ax#)", { a: text("a"), x: text("bc") }, error);
    });
  });

  it("sends what waits when the source completes", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-(abc|)", chunks({ a: text("a"), b: text("b"), c: text("c") }));
      expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 0))).toBe("-(ax|)", { a: text("a"), x: text("bc") });
    });
  });

  it("drops what waits and cancels its window when unsubscribed early", () => {
    const scheduled: Subscription[] = [];
    const spy: SchedulerLike = {
      now: () => animationFrameScheduler.now(),
      schedule: ((work: () => void, delay?: number) => {
        const subscription = animationFrameScheduler.schedule(work, delay);
        scheduled.push(subscription);
        return subscription;
      }) as SchedulerLike["schedule"],
    };
    testScheduler().run(({ animate, hot, expectObservable, expectSubscriptions }) => {
      animate("           -----x");
      const source = hot("-(ab)-c-|", chunks({ a: text("a"), b: text("b"), c: text("c") }));
      expectObservable(source.pipe(coalesceDeltas(spy, 0)), "^--!").toBe("-a", { a: text("a") });
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
    expect(scheduled.length).toBeGreaterThan(0);
    expect(scheduled.every((subscription) => subscription.closed)).toBe(true);
  });

  it("stops a synchronous source of deltas when the consumer takes the first", () => {
    expect(producedBeforeUnsubscribe((index) => text(`${index}`), coalesceDeltas(asyncScheduler, 0), 1)).toEqual([0]);
  });

  it("gives the same text and the same end result as the unmerged chunks, whatever the bursts", () => {
    const pieces = Array.from({ length: 500 }, (_, index) => `w${index} `);
    const unmerged = [...pieces.map((piece) => text(piece)), carbon.completeText(R, "m1", pieces.join(""))];
    const merged: CarbonStreamChunk[] = [];
    from(deepFreeze(unmerged)).pipe(coalesceDeltas(asyncScheduler, 0)).subscribe((chunk) => merged.push(chunk));
    const joined = (list: CarbonStreamChunk[]) => list.map((chunk) => ("partial_item" in chunk ? chunk.partial_item.text : "")).join("");
    expect(merged).toHaveLength(3);
    expect(joined(merged)).toBe(joined(unmerged));
    expect(merged.at(-1)).toBe(unmerged.at(-1));
  });

  describe("adapting the window to the render cost", () => {
    const deltas = chunks({ a: text("1"), b: text("2"), c: text("3"), d: text("4"), e: text("5"), f: text("6") });

    it("lasts the latest cost divided by the render share (0.2) once a cost is reported", () => {
      testScheduler().run(({ cold, hot, expectObservable }) => {
        const renderCost = hot("20ms x", { x: 40 });
        const source = cold("a 49ms b 99ms c 99ms d 99ms e 99ms f 29ms |", deltas);
        // The first window lasts 100 ms (no cost yet); from then on 40 / 0.2 = 200 ms: c and d wait until 300, e and f until the end.
        expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 100, { renderCost }))).toBe("a 99ms b 199ms x 179ms (y|)", {
          a: text("1"),
          b: text("2"),
          x: text("34"),
          y: text("56"),
        });
      });
    });

    it("never lasts longer than maxIntervalMs (1 s by default)", () => {
      testScheduler().run(({ cold, hot, expectObservable }) => {
        const renderCost = hot("10ms x", { x: 400 });
        const source = cold("a 49ms b 1029ms c 149ms |", deltas);
        // 400 / 0.2 would be 2 s; the window from 100 ends at 1100 and sends c. With maxIntervalMs 150 it ends at 250, so c finds none and goes at once.
        expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 100, { renderCost }))).toBe("a 99ms b 999ms c 129ms |", { a: text("1"), b: text("2"), c: text("3") });
        expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 100, { renderCost, maxIntervalMs: 150 }))).toBe("a 99ms b 979ms c 149ms |", {
          a: text("1"),
          b: text("2"),
          c: text("3"),
        });
      });
    });

    it("never lasts less than intervalMs, however cheap the render", () => {
      testScheduler().run(({ cold, hot, expectObservable }) => {
        const renderCost = hot("-x", { x: 1 });
        const source = cold("-----a 9ms b 9ms c 199ms |", deltas);
        expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 100, { renderCost }))).toBe("-----a 99ms x 119ms |", { a: text("1"), x: text("23") });
      });
    });

    it("shrinks again for a new item: the open window ends intervalMs after it opened, and the next ones last intervalMs", () => {
      testScheduler().run(({ cold, hot, expectObservable }) => {
        const renderCost = hot("10ms x", { x: 60 });
        const values = chunks({ a: text("1"), b: text("2"), c: text("Sec", "m2"), d: text("ond", "m2"), e: text("!", "m2") });
        const source = cold("a 49ms b 99ms c 29ms d 69ms e 99ms |", values);
        // The window from 100 would last 300 ms (60 / 0.2); c, of m2, cuts it to end at 200; the next lasts 100 ms and sends e at 300.
        expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 100, { renderCost }))).toBe("a 99ms b 99ms x 99ms e 49ms |", {
          a: text("1"),
          b: text("2"),
          x: text("Second", "m2"),
          e: text("!", "m2"),
        });
      });
    });

    it("still sends the turn's first text and a delta that finds no window at once", () => {
      testScheduler().run(({ cold, hot, expectObservable }) => {
        const renderCost = hot("x", { x: 60 });
        const thinking = carbon.options(R, { reasoning: { steps: [{ title: "Reasoning", content: "Hmm" }] } }, "m1");
        const values = chunks({ o: thinking, a: text("Hi"), b: text(" there") });
        const source = cold("--o-a 499ms b-|", values);
        expectObservable(source.pipe(coalesceDeltas(asyncScheduler, 100, { renderCost }))).toBe("--o-a 499ms b-|", values);
      });
    });

    it("fails with the render cost's error, and lets go of the cost when unsubscribed", () => {
      testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
        const error = new Error("meter broke");
        const failing = hot<number>("---#", undefined, error);
        expectObservable(cold("a----", deltas).pipe(coalesceDeltas(asyncScheduler, 100, { renderCost: failing }))).toBe("a--#", { a: text("1") }, error);
        const renderCost = hot("-x-x-x-x", { x: 60 });
        expectObservable(cold("a-b-c-d-e", deltas).pipe(coalesceDeltas(asyncScheduler, 100, { renderCost })), "^---!").toBe("a", { a: text("1") });
        expectSubscriptions(renderCost.subscriptions).toBe("^---!");
      });
    });
  });

  itFollowsTheOperatorContract(() => coalesceDeltas(asyncScheduler, 0), carbon.completeText(R, "m1", "Hello"));
  describe("with an adaptive window", () => {
    itFollowsTheOperatorContract(() => coalesceDeltas(asyncScheduler, 100, { renderCost: of(40) }), carbon.completeText(R, "m1", "Hello"));
  });
});
