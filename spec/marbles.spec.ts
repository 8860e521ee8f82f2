import { scenarios } from "../marbles";
import { agUiToCarbon } from "../src/operators/agUiToCarbon";
import { testScheduler } from "./support/marbles";

describe("marble scenarios", () => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", (_name, scenario) => {
    testScheduler().run(({ cold, hot, expectObservable }) => {
      const events = cold(scenario.events.marble, scenario.events.values);
      const stop = scenario.stop === undefined ? {} : { stop: hot(scenario.stop) };
      expectObservable(events.pipe(agUiToCarbon({ responseId: "r1", ...stop }))).toBe(scenario.chunks.marble, scenario.chunks.values, scenario.chunks.error);
    });
  });
});
