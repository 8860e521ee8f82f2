import { TestScheduler } from "rxjs/testing";
import { agUiToCarbon } from "../src/operators/agUiToCarbon";
import type { MarbleScenario } from "./scenario";

/** Runs a scenario through `agUiToCarbon()` in virtual time, asserting its chunks with `assertDeepEqual`, which throws on a mismatch. */
export function runScenario(scenario: MarbleScenario, assertDeepEqual: (actual: unknown, expected: unknown) => void): void {
  new TestScheduler(assertDeepEqual).run(({ cold, hot, expectObservable }) => {
    const events = cold(scenario.events.marble, scenario.events.values);
    const stop = scenario.stop === undefined ? {} : { stop: hot(scenario.stop) };
    expectObservable(events.pipe(agUiToCarbon({ responseId: "r1", ...stop }))).toBe(scenario.chunks.marble, scenario.chunks.values, scenario.chunks.error);
  });
}
