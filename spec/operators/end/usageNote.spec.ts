import { map } from "rxjs";
import type { PipelineElement } from "../../../src/instructions";
import { describeUsage, usageNote } from "../../../src/operators/end/usageNote";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const usage = [
  { provider: "p", model: "big", inputTokens: 1200, outputTokens: 30, totalTokens: 1230 },
  { provider: "p", model: "small", inputTokens: 80, outputTokens: 20 },
];
const reported: PipelineElement = { kind: "run.usage", runId: "r1", usage };

describe("usageNote", () => {
  it("puts a quiet line with the run's tokens under the answer before the turn ends, and passes the usage on", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-u----t-|", { u: reported, t: instr.finished() });
      expectObservable(source.pipe(usageNote())).toBe("-(iu)-t-|", {
        i: { kind: "item.complete", itemId: "usage-r1", item: { response_type: "system", title: "1,330 tokens (1,280 in, 50 out)" } },
        u: reported,
        t: instr.finished(),
      });
      expectSubscriptions(source.subscriptions).toBe("^-------!");
    });
  });

  it("says it as the host's function does", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-u----|", { u: reported });
      expectObservable(source.pipe(usageNote((entries) => `${entries.length} models`))).toBe("-(iu)-|", {
        i: { kind: "item.complete", itemId: "usage-r1", item: { response_type: "system", title: "2 models" } },
        u: reported,
      });
    });
  });

  it("counts a total not reported as the input and output added, and nothing as nothing", () => {
    expect(describeUsage([{ inputTokens: 3 }, { outputTokens: 4 }])).toBe("7 tokens (3 in, 4 out)");
    expect(describeUsage([{}])).toBe("0 tokens (0 in, 0 out)");
  });

  it("errors when the host's function throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-u-|", { u: reported });
      const result = source.pipe(
        usageNote(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-u-|", { u: reported });
      const result = source.pipe(
        usageNote(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  itFollowsTheOperatorContract(() => usageNote(), ev.custom("x") as PipelineElement);
});
