import { EventType, type BaseEvent } from "@ag-ui/core";
import fc from "fast-check";
import { carbonTexts, expectedCarbonTexts, keyOrders, runOurs, runReference, withoutEmptyMessages } from "./reference";
import { streamOf, streamSpec } from "./streams";

const endsWithTerminal = (events: readonly BaseEvent[]) => {
  const last = events.at(-1)?.type;
  return last === EventType.RUN_FINISHED || last === EventType.RUN_ERROR;
};

describe("the adapter against @ag-ui/client's default apply (differential)", () => {
  it("keeps the same messages, state and activities (key order included) after every run, and shows the same text in Carbon", async () => {
    await fc.assert(
      fc.asyncProperty(streamSpec, async (spec) => {
        const events = streamOf(spec);
        const reference = await runReference(events);
        const ours = await runOurs(events);

        expect(ours.runs).toEqual(reference.runs.map(withoutEmptyMessages));
        expect(ours.end).toEqual(withoutEmptyMessages(reference.end));
        // toEqual ignores key order: a patch, failed or not, must leave the state and activities in the reference's.
        expect(keyOrders(ours)).toEqual(keyOrders(reference));
        expect(carbonTexts(ours.carbon)).toEqual(expectedCarbonTexts(events));
        expect(ours.carbon.waitingForFinal).toEqual([]);
        // A run that ends without RUN_FINISHED has no outcome: never reported as a success.
        expect(ours.completed).toBe(endsWithTerminal(events));
      }),
      { numRuns: 1500 },
    );
    // 1,500 streams through both clients take 7–14 s on a loaded 2-core machine: more than jest's default 15 s leaves.
  }, 60_000);
});
