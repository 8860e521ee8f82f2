import { scenarios } from "../marbles";
import { runScenario } from "../marbles/run";

describe("marble scenarios", () => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", (_name, scenario) => {
    runScenario(scenario, (actual, expected) => expect(actual).toEqual(expected));
  });
});
