import type { BaseEvent, EventType } from "@ag-ui/core";
import type { CarbonStreamChunk } from "../src/carbon";

/**
 * One end-to-end marble scenario for `agUiToCarbon()`: AG-UI events in,
 * Carbon chunks out, in virtual time. Every scenario runs with the response
 * id "r1" (see `spec/marbles.spec.ts`).
 */
export interface MarbleScenario {
  name: string;
  /** The AG-UI event types this scenario exercises. */
  covers: readonly EventType[];
  events: { marble: string; values: Record<string, BaseEvent> };
  /** A hot marble for the stop notifier (Carbon's stop button), if the scenario stops. */
  stop?: string;
  chunks: { marble: string; values: Record<string, CarbonStreamChunk>; error?: unknown };
}
