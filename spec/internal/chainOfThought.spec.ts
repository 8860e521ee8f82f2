import type { CarbonChainOfThoughtStep } from "../../src/carbon";
import type { PipelineElement } from "../../src/instructions";
import { ChainOfThought } from "../../src/internal/chainOfThought";

const search: CarbonChainOfThoughtStep = { tool_name: "search", status: "processing" };
const fetchStep: CarbonChainOfThoughtStep = { tool_name: "fetch", status: "processing" };

/** A chain and the chains it sent. */
function watched() {
  const sent: CarbonChainOfThoughtStep[][] = [];
  const chain = new ChainOfThought((element: PipelineElement) => {
    if ("kind" in element && element.kind === "options") sent.push(element.options.chain_of_thought!);
    else throw new Error(`unexpected ${JSON.stringify(element)}`);
  });
  return { chain, sent };
}

describe("ChainOfThought", () => {
  it("sends the whole chain at each change, never writing a chain it sent", () => {
    const { chain, sent } = watched();
    expect(chain.add(search)).toBe(0);
    expect(chain.add(fetchStep)).toBe(1);
    chain.set(0, { ...search, status: "success" });
    expect(sent).toEqual([[search], [search, fetchStep], [{ ...search, status: "success" }, fetchStep]]);
    expect(new Set(sent).size).toBe(3);
    expect([chain.length, chain.at(0)?.status, chain.at(2)]).toEqual([2, "success", undefined]);
  });

  it("sends the changes of a batch once, and reads them within it", () => {
    const { chain, sent } = watched();
    chain.add(search);
    chain.batch(() => {
      chain.set(0, { ...search, status: "failure" });
      expect(chain.add(fetchStep)).toBe(1);
      expect([chain.length, chain.at(0)?.status]).toEqual([2, "failure"]);
    });
    expect(sent).toEqual([[search], [{ ...search, status: "failure" }, fetchStep]]);
  });

  it("sends nothing for a batch that changes nothing", () => {
    const { chain, sent } = watched();
    chain.add(search);
    chain.batch(() => undefined);
    expect(sent).toHaveLength(1);
  });

  it("drops the changes of a batch that throws", () => {
    const { chain, sent } = watched();
    chain.add(search);
    expect(() =>
      chain.batch(() => {
        chain.set(0, { ...search, status: "failure" });
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(chain.at(0)).toBe(search);
    chain.add(fetchStep);
    expect(sent).toEqual([[search], [search, fetchStep]]);
  });
});
