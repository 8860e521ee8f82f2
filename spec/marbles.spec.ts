import { scenarios } from "../marbles";
import { runScenario } from "../marbles/run";

describe("marble scenarios", () => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", (_name, scenario) => {
    // What a scenario reports it declares (`reports`, checked by runScenario); nothing reaches the console.
    const consoleWarn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      runScenario(scenario, (actual, expected) => expect(actual).toEqual(expected));
      expect(consoleWarn.mock.calls).toEqual([]);
    } finally {
      consoleWarn.mockRestore();
    }
  });
});
