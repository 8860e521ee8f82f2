/**
 * `npm run coverage`: the AG-UI event type × Carbon outcome matrix, derived
 * from the scenarios in marbles/ — each is run here, as in the specs, and
 * counts only if it passes. Exits non-zero if any of the 31 AG-UI 1.0 event
 * types has no passing scenario.
 */
import { EventType } from "@ag-ui/core";
import { isDeepStrictEqual } from "node:util";
import { scenarios } from "../marbles";
import { runScenario } from "../marbles/run";
import { ON_EVENT_ONLY, type MarbleScenario } from "../marbles/scenario";

const strictEqual = (actual: unknown, expected: unknown) => {
  if (!isDeepStrictEqual(actual, expected)) throw new Error("the chunks differ from the scenario's marble");
};

const passing: MarbleScenario[] = [];
for (const scenario of scenarios) {
  try {
    runScenario(scenario, strictEqual);
    passing.push(scenario);
  } catch (error) {
    console.log(`FAILS: ${scenario.name}: ${(error as Error).message}`);
  }
}

const types = Object.values(EventType);
const width = Math.max(...types.map((type) => type.length));
let gaps = 0;
console.log(`${"AG-UI event".padEnd(width)}  scenarios  Carbon outcome`);
for (const type of types) {
  const outcomes = [...new Set(passing.flatMap((scenario) => scenario.covers[type] ?? []))];
  const onEventOnlyMismatch = ON_EVENT_ONLY.has(type) && outcomes.some((outcome) => outcome !== "onEvent only");
  if (outcomes.length === 0 || onEventOnlyMismatch) gaps++;
  const scenariosCovering = passing.filter((scenario) => scenario.covers[type] !== undefined).length;
  const shown = outcomes.length === 0 ? "GAP: no passing scenario" : onEventOnlyMismatch ? `GAP: declared onEvent only, but ${outcomes.join(" / ")}` : outcomes.join("\n" + " ".repeat(width + 13));
  console.log(`${type.padEnd(width)}  ${String(scenariosCovering).padStart(9)}  ${shown}`);
}
console.log(`\n${types.length} event types, ${passing.length}/${scenarios.length} scenarios pass, ${gaps} gap(s)`);
process.exit(gaps === 0 && passing.length === scenarios.length ? 0 : 1);
