import { marbleTest } from "../../src/testing/marbleTest";
import { carbon } from "../../src/testing/carbon";
import { ev } from "../../src/testing/events";

describe("testing kit: marbleTest", () => {
  const hello = { a: ev.runStarted(), b: ev.textStart("m1"), c: ev.text("m1", "Hi"), d: ev.textEnd("m1"), e: ev.runFinished() };

  it("works where requestAnimationFrame exists (jsdom, a browser test runner): merging stays in virtual time", () => {
    const globals = globalThis as { requestAnimationFrame?: unknown };
    globals.requestAnimationFrame = (callback: () => void) => setTimeout(callback, 16);
    try {
      marbleTest(({ agent, expectCarbon }) => {
        expectCarbon(agent("a-b-(cc)-d-e|", { ...hello })).toBe("----(pq)-C-(f|)", {
          p: carbon.partialText("r1", "m1", "Hi"),
          q: carbon.partialText("r1", "m1", "Hi"),
          C: carbon.completeText("r1", "m1", "HiHi"),
          f: carbon.final("r1", [carbon.textItem("m1", "HiHi")]),
        });
      });
    } finally {
      delete globals.requestAnimationFrame;
    }
  });

  it("asserts the Carbon chunk marble of an agent's events, with its own comparison (no jest needed)", () => {
    marbleTest(({ agent, expectCarbon }) => {
      expectCarbon(agent("a-b-c-d-e|", hello)).toBe("----p-C-(f|)", {
        p: carbon.partialText("r1", "m1", "Hi"),
        C: carbon.completeText("r1", "m1", "Hi"),
        f: carbon.final("r1", [carbon.textItem("m1", "Hi")]),
      });
    });
  });

  it("throws with both sides shown when the chunks differ", () => {
    const mismatch = () =>
      marbleTest(({ agent, expectCarbon }) => {
        expectCarbon(agent("a-b-c-d-e|", hello)).toBe("----p-C-(f|)", {
          p: carbon.partialText("r1", "m1", "Bye"),
          C: carbon.completeText("r1", "m1", "Hi"),
          f: carbon.final("r1", [carbon.textItem("m1", "Hi")]),
        });
      });
    expect(mismatch).toThrow(/^Expected:\n[\s\S]*"Bye"[\s\S]*Received:\n[\s\S]*"Hi"/);
  });

  it("asserts the transcript a person would see, with the pipeline's options", () => {
    marbleTest(({ agent, hot, expectCarbon }) => {
      const events = agent("a-b-c---d-e|", hello);
      expectCarbon(events).toShow("Assistant: Hi");
      expectCarbon(events, { stop: hot("------x") }).toShow("Assistant: Hi\n  (Response stopped)");
    });
    expect(() => marbleTest(({ agent, expectCarbon }) => expectCarbon(agent("a-b-c-d-e|", hello)).toShow("Assistant: Bye"))).toThrow(/Expected/);
  });
});
