import { EventType, type BaseEvent } from "@ag-ui/core";
import type { CarbonStreamChunk } from "../src/carbon";

/**
 * One end-to-end marble scenario for `agUiToCarbon()`: AG-UI events in,
 * Carbon chunks out, in virtual time. Every scenario runs with the response
 * id "r1" (see `spec/marbles.spec.ts`).
 */
export interface MarbleScenario {
  name: string;
  /** The AG-UI event types this scenario exercises, each with what Carbon (or the conversation) gets from it. */
  covers: Partial<Record<EventType, string>>;
  events: { marble: string; values: Record<string, BaseEvent> };
  /** A hot marble for the stop notifier (Carbon's stop button), if the scenario stops. */
  stop?: string;
  /** A hot marble of render costs (ms) for the merge window to adapt to (`coalesce.renderCost`), as the adapter reports them. */
  renderCost?: { marble: string; values: Record<string, number> };
  chunks: { marble: string; values: Record<string, CarbonStreamChunk>; error?: unknown };
  /**
   * What the pipeline tells `onInvalidEvent`, `onInvalidItem` and `onWarning`
   * (whose defaults write to the console), in order, each as
   * "<callback>: <error message>". Leave it out for a scenario that tells
   * nothing: `runScenario` checks the list either way.
   */
  reports?: string[];
}

/**
 * The event types that deliberately show nothing in Carbon and reach only
 * `onEvent`. Declared here and nowhere else; a scenario that covers one must
 * still pass (proving it leaves the chat alone), and `npm run coverage` checks
 * that every scenario describes these as "onEvent only".
 */
export const ON_EVENT_ONLY: ReadonlySet<EventType> = new Set([
  EventType.RUN_STARTED,
  EventType.STEP_STARTED,
  EventType.STEP_FINISHED,
  EventType.RAW,
]);
