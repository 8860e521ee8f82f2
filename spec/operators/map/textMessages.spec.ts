import { map } from "rxjs";
import type { PipelineElement } from "../../../src/instructions";
import { textMessages } from "../../../src/operators/map/textMessages";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const events = (values: Record<string, unknown>) => values as Record<string, PipelineElement>;

describe("textMessages", () => {
  it("maps an assistant message to deltas, one complete item and a history message", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S-a-b-E---|", events({ S: ev.textStart("m1"), a: ev.text("m1", "Hel"), b: ev.text("m1", "lo"), E: ev.textEnd("m1") }));
      const expected = "   -r-a-b-(ch)|";
      expectObservable(source.pipe(textMessages())).toBe(expected, {
        r: instr.reserve("m1"),
        a: instr.textDelta("m1", "Hel"),
        b: instr.textDelta("m1", "lo"),
        c: instr.textComplete("m1", "Hello"),
        h: instr.history({ id: "m1", role: "assistant", content: "Hello" }),
      });
      expectSubscriptions(source.subscriptions).toBe("^----------!");
    });
  });

  it("keeps interleaved messages apart, each under its own item id", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-SsabE---e---|", events({
        S: ev.textStart("m1"), s: ev.textStart("m2"), a: ev.text("m1", "one"), b: ev.text("m2", "two"), E: ev.textEnd("m1"), e: ev.textEnd("m2"),
      }));
      expectObservable(source.pipe(textMessages())).toBe("-rRab(ch)(CH)|", {
        r: instr.reserve("m1"),
        R: instr.reserve("m2"),
        a: instr.textDelta("m1", "one"),
        b: instr.textDelta("m2", "two"),
        c: instr.textComplete("m1", "one"),
        h: instr.history({ id: "m1", role: "assistant", content: "one" }),
        C: instr.textComplete("m2", "two"),
        H: instr.history({ id: "m2", role: "assistant", content: "two" }),
      });
    });
  });

  it("sends messages of other roles to the history only", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E-|", events({ S: ev.textStart("s1", "system"), a: ev.text("s1", "Be brief."), E: ev.textEnd("s1") }));
      expectObservable(source.pipe(textMessages())).toBe("-r---h-|", {
        r: instr.reserve("s1", "system"),
        h: instr.history({ id: "s1", role: "system", content: "Be brief." }),
      });
    });
  });

  it("sends a subagent's message to the history with its subagentRunId and to its step, never to the answer", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E---|", events({ S: { ...ev.textStart("m2"), subagentRunId: "s1" }, a: ev.text("m2", "My notes."), E: ev.textEnd("m2") }));
      expectObservable(source.pipe(textMessages())).toBe("-r---(hw)|", {
        r: { kind: "history.reserve", messageId: "m2", role: "assistant", subagentRunId: "s1" },
        h: instr.history({ id: "m2", role: "assistant", content: "My notes.", subagentRunId: "s1" }),
        w: { kind: "subagent.said", subagentRunId: "s1", said: "text", text: "My notes." },
      });
    });
  });

  it("shows nothing of a message the person has seen that a later run streams again (LangGraph re-streams a subgraph's words after a resume), and keeps it in the history", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E-s-b-e---|", events({ S: ev.textStart("m1"), a: ev.text("m1", "Seen."), E: ev.textEnd("m1"), s: ev.textStart("m2"), b: ev.text("m2", "New."), e: ev.textEnd("m2") }));
      expectObservable(source.pipe(textMessages({ shown: new Map([["m1", "Seen."]]) }))).toBe("-r---h-R-b-(cm)|", {
        r: instr.reserve("m1"),
        h: instr.history({ id: "m1", role: "assistant", content: "Seen." }),
        R: instr.reserve("m2"),
        b: instr.textDelta("m2", "New."),
        c: instr.textComplete("m2", "New."),
        m: instr.history({ id: "m2", role: "assistant", content: "New." }),
      });
    });
  });

  it("shows a message whose id the person has seen whole once its text turns out other than what was seen (an agent that reuses an id)", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-b-E---|", events({ S: ev.textStart("m1"), a: ev.text("m1", "Hel"), b: ev.text("m1", "p!"), E: ev.textEnd("m1") }));
      expectObservable(source.pipe(textMessages({ shown: new Map([["m1", "Hello."]]) }))).toBe("-r---d-(ch)|", {
        r: instr.reserve("m1"),
        d: instr.textDelta("m1", "Help!"),
        c: instr.textComplete("m1", "Help!"),
        h: instr.history({ id: "m1", role: "assistant", content: "Help!" }),
      });
    });
  });

  describe("after a resume, the words the run it resumes showed that the agent's record dropped (saidBeforeResume)", () => {
    it("shows nothing of a message streamed again under a new id with those words (LangGraph runs an interrupted node again from its start), and keeps it in the history under its new id", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("-S-a-b-E-s-c-e---|", events({ S: ev.textStart("m2"), a: ev.text("m2", "A paid "), b: ev.text("m2", "archive."), E: ev.textEnd("m2"), s: ev.textStart("m3"), c: ev.text("m3", "New."), e: ev.textEnd("m3") }));
        expectObservable(source.pipe(textMessages({ saidBeforeResume: ["Gathered.", "A paid archive."] }))).toBe("-r-----h-R-c-(CH)|", {
          r: instr.reserve("m2"),
          h: instr.history({ id: "m2", role: "assistant", content: "A paid archive." }),
          R: instr.reserve("m3"),
          c: instr.textDelta("m3", "New."),
          C: instr.textComplete("m3", "New."),
          H: instr.history({ id: "m3", role: "assistant", content: "New." }),
        });
      });
    });

    it("shows such a message whole from where its words turn out other than those", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("-S-a-b-E---|", events({ S: ev.textStart("m2"), a: ev.text("m2", "A paid "), b: ev.text("m2", "bill."), E: ev.textEnd("m2") }));
        expectObservable(source.pipe(textMessages({ saidBeforeResume: ["A paid archive."] }))).toBe("-r---d-(ch)|", {
          r: instr.reserve("m2"),
          d: instr.textDelta("m2", "A paid bill."),
          c: instr.textComplete("m2", "A paid bill."),
          h: instr.history({ id: "m2", role: "assistant", content: "A paid bill." }),
        });
      });
    });

    it("shows one that ends at the start of those words: a shorter message is another one", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("-S-a-E---|", events({ S: ev.textStart("m2"), a: ev.text("m2", "A paid"), E: ev.textEnd("m2") }));
        expectObservable(source.pipe(textMessages({ saidBeforeResume: ["A paid archive."] }))).toBe("-r---(ch)|", {
          r: instr.reserve("m2"),
          c: instr.textComplete("m2", "A paid"),
          h: instr.history({ id: "m2", role: "assistant", content: "A paid" }),
        });
      });
    });

    it("takes each message said before once: the same words a second time are new", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("-S-a-E-s-b-e---|", events({ S: ev.textStart("m2"), a: ev.text("m2", "Done."), E: ev.textEnd("m2"), s: ev.textStart("m3"), b: ev.text("m3", "Done."), e: ev.textEnd("m3") }));
        expectObservable(source.pipe(textMessages({ saidBeforeResume: ["Done."] }))).toBe("-r---h-R-b-(CH)|", {
          r: instr.reserve("m2"),
          h: instr.history({ id: "m2", role: "assistant", content: "Done." }),
          R: instr.reserve("m3"),
          b: instr.textDelta("m3", "Done."),
          C: instr.textComplete("m3", "Done."),
          H: instr.history({ id: "m3", role: "assistant", content: "Done." }),
        });
      });
    });

    it("keeps a subagent's message streamed again out of its step, as it was in it", () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const source = cold("-S-a-E---|", events({ S: { ...ev.textStart("m2"), subagentRunId: "s1" }, a: ev.text("m2", "My notes."), E: ev.textEnd("m2") }));
        expectObservable(source.pipe(textMessages({ saidBeforeResume: ["My notes."] }))).toBe("-r---h---|", {
          r: { kind: "history.reserve", messageId: "m2", role: "assistant", subagentRunId: "s1" },
          h: instr.history({ id: "m2", role: "assistant", content: "My notes.", subagentRunId: "s1" }),
        });
      });
    });
  });

  it("skips empty deltas and empty messages", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E-|", events({ S: ev.textStart("m1"), a: ev.text("m1", ""), E: ev.textEnd("m1") }));
      expectObservable(source.pipe(textMessages())).toBe("-r-----|", { r: instr.reserve("m1") });
    });
  });

  it("keeps the text so far of a message cut by a stop, before passing the stop on", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-s---|", events({ S: ev.textStart("m1"), a: ev.text("m1", "Once upon"), s: instr.stopped() }));
      expectObservable(source.pipe(textMessages())).toBe("-r-a-(hs)|", {
        r: instr.reserve("m1"),
        a: instr.textDelta("m1", "Once upon"),
        h: instr.history({ id: "m1", role: "assistant", content: "Once upon" }),
        s: instr.stopped(),
      });
    });
  });

  it("keeps the text so far of a message cut by RUN_ERROR, by a source error, or by the end of the source", () => {
    const cut = events({ S: ev.textStart("m1"), a: ev.text("m1", "Half"), e: ev.runError("boom") });
    const values = { r: instr.reserve("m1"), a: instr.textDelta("m1", "Half"), h: instr.history({ id: "m1", role: "assistant", content: "Half" }), e: cut.e! };
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-S-a-e---|", cut).pipe(textMessages())).toBe("-r-a-(he)|", values);
      expectObservable(cold("-S-a-#", cut).pipe(textMessages())).toBe("-r-a-(h#)", values);
      expectObservable(cold("-S-a-|", cut).pipe(textMessages())).toBe("-r-a-(h|)", values);
    });
  });

  it("goes on with a message that ended when a TEXT_MESSAGE_START reopens it (a chunk stream split by another event)", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-S-a-E-S-b-E-----|", events({ S: ev.textStart("m1"), a: ev.text("m1", "Hello"), E: ev.textEnd("m1"), b: ev.text("m1", " world") }));
      expectObservable(source.pipe(textMessages())).toBe("-r-a-(ch)b-(CH)--|", {
        r: instr.reserve("m1"),
        a: instr.textDelta("m1", "Hello"),
        c: instr.textComplete("m1", "Hello"),
        h: instr.history({ id: "m1", role: "assistant", content: "Hello" }),
        b: instr.textDelta("m1", " world"),
        C: instr.textComplete("m1", "Hello world"),
        H: instr.history({ id: "m1", role: "assistant", content: "Hello world" }),
      });
    });
  });

  it("passes everything it does not own through unchanged", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = events({ c: ev.custom("x"), f: instr.finished() });
      expectObservable(cold("-c-f-|", values).pipe(textMessages())).toBe("-c-f-|", values);
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S-a-b-|", events({ S: ev.textStart("m1"), a: ev.text("m1", "ok"), b: ev.text("m1", "boom") }));
      const result = source.pipe(
        textMessages(),
        map((element) => {
          if ("kind" in element && element.kind === "item.delta" && element.item.text === "boom") throw new Error("boom");
          return element;
        }),
      );
      expectObservable(result).toBe("-r-a-#", { r: instr.reserve("m1"), a: instr.textDelta("m1", "ok") }, new Error("boom"));
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  it("delivers what a message completed before a source error", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-S-a-E---#", events({ S: ev.textStart("m1"), a: ev.text("m1", "Hi"), E: ev.textEnd("m1") }));
      expectObservable(source.pipe(textMessages())).toBe("-r-a-(ch)#", {
        r: instr.reserve("m1"),
        a: instr.textDelta("m1", "Hi"),
        c: instr.textComplete("m1", "Hi"),
        h: instr.history({ id: "m1", role: "assistant", content: "Hi" }),
      });
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
  });

  itFollowsTheOperatorContract(() => textMessages(), ev.custom("x") as PipelineElement);
});
