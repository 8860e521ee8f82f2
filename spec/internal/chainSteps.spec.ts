import type { CarbonChainOfThoughtStep } from "../../src/carbon";
import type { ChainStepChange, PipelineElement } from "../../src/instructions";
import { ChainSteps } from "../../src/internal/chainSteps";

const search: CarbonChainOfThoughtStep = { tool_name: "search", status: "processing" };
const fetchStep: CarbonChainOfThoughtStep = { tool_name: "fetch", status: "processing" };

/** A stage's steps and the changes they sent. */
function watched() {
  const sent: (readonly ChainStepChange[])[] = [];
  const chain = new ChainSteps((element: PipelineElement) => {
    if ("kind" in element && element.kind === "chain.steps") sent.push(element.changes);
    else throw new Error(`unexpected ${JSON.stringify(element)}`);
  });
  return { chain, sent };
}

describe("ChainSteps", () => {
  it("sends each change by its key, with where a new step belongs, and reads what it last set", () => {
    const { chain, sent } = watched();
    chain.add("tool:t1", search);
    chain.add("subagent:s1", fetchStep, "tool:t1");
    chain.set("tool:t1", { ...search, status: "success" });
    expect(sent).toEqual([[{ key: "tool:t1", step: search }], [{ key: "subagent:s1", step: fetchStep, under: "tool:t1" }], [{ key: "tool:t1", step: { ...search, status: "success" } }]]);
    expect([chain.at("tool:t1")?.status, chain.at("tool:t2")]).toEqual(["success", undefined]);
  });

  it("sends the changes of a batch once, and reads them within it", () => {
    const { chain, sent } = watched();
    chain.add("tool:t1", search);
    chain.batch(() => {
      chain.set("tool:t1", { ...search, status: "failure" });
      chain.add("tool:t2", fetchStep);
      expect(chain.at("tool:t1")?.status).toBe("failure");
    });
    expect(sent).toEqual([[{ key: "tool:t1", step: search }], [{ key: "tool:t1", step: { ...search, status: "failure" } }, { key: "tool:t2", step: fetchStep }]]);
  });

  it("sends nothing for a batch that changes nothing, and nothing of a batch that throws", () => {
    const { chain, sent } = watched();
    chain.add("tool:t1", search);
    chain.batch(() => undefined);
    expect(() =>
      chain.batch(() => {
        chain.set("tool:t1", { ...search, status: "failure" });
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(sent).toHaveLength(1);
  });
});
