import { marbleTest } from "carbon-agui-rx/testing";
import type { MarbleScenario } from "./scenario";

/** Runs a scenario through `agUiToCarbon()` with the testing kit's `marbleTest`; `assertDeepEqual` throws on a mismatch. */
export function runScenario(scenario: MarbleScenario, assertDeepEqual: (actual: unknown, expected: unknown) => void): void {
  marbleTest(
    ({ agent, hot, expectCarbon }) => {
      const events = agent(scenario.events.marble, scenario.events.values);
      const stop = scenario.stop === undefined ? {} : { stop: hot(scenario.stop) };
      expectCarbon(events, stop).toBe(scenario.chunks.marble, scenario.chunks.values, scenario.chunks.error);
    },
    { assertDeepEqual },
  );
}
