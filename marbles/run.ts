import { marbleTest } from "carbon-agui-rx/testing";
import { asyncScheduler } from "rxjs";
import type { MarbleScenario } from "./scenario";

/**
 * Runs a scenario through `agUiToCarbon()` with the testing kit's `marbleTest`; `assertDeepEqual` throws on a mismatch,
 * of the chunks or of what the pipeline reported (`scenario.reports`), which is kept off the console.
 */
export function runScenario(scenario: MarbleScenario, assertDeepEqual: (actual: unknown, expected: unknown) => void): void {
  const reported: string[] = [];
  const tell = (callback: string, error: Error) => void reported.push(`${callback}: ${error.message}`);
  const reporting = {
    onInvalidEvent: (_event: unknown, error: Error) => tell("onInvalidEvent", error),
    onInvalidItem: (_item: unknown, error: Error) => tell("onInvalidItem", error),
    onWarning: (warning: Error) => tell("onWarning", warning),
  };
  marbleTest(
    ({ agent, hot, expectCarbon }) => {
      const events = agent(scenario.events.marble, scenario.events.values);
      const stop = scenario.stop === undefined ? {} : { stop: hot(scenario.stop) };
      // marbleTest's per-frame merging, with the costs the window adapts to.
      const { renderCost } = scenario;
      const coalesce = renderCost === undefined ? {} : { coalesce: { scheduler: asyncScheduler, intervalMs: 0, renderCost: hot(renderCost.marble, renderCost.values) } };
      expectCarbon(events, { ...stop, ...coalesce, ...reporting }).toBe(scenario.chunks.marble, scenario.chunks.values, scenario.chunks.error);
    },
    { assertDeepEqual },
  );
  assertDeepEqual(reported, scenario.reports ?? []);
}
