import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { TestScheduler } from "rxjs/testing";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../../src/adapter";

/** TestScheduler's time per marble character outside run(). */
export const FRAME = 10;

export const request = (text: string) => ({ id: `u-${text}`, input: { text }, history: {} });

/** An adapter on a virtual clock whose runs play `runs`, one marble per run (its characters `EVENTS`), in order. */
export function onVirtualClock(runs: string[], EVENTS: Record<string, BaseEvent>, extra: Partial<CarbonAgUiAdapterOptions> = {}) {
  const clock = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  const played = runs.map((marble) => clock.createColdObservable<BaseEvent>(marble, EVENTS));
  const inputs: RunAgentInput[] = [];
  const adapter = new CarbonAgUiAdapter({
    scheduler: clock,
    run: (input) => {
      inputs.push(input);
      const next = played[inputs.length - 1];
      if (!next) throw new Error(`no run scripted for run ${inputs.length}`);
      return next;
    },
    ...extra,
  });
  // Carbon's send (an edited question) hands the message to the adapter, as Carbon's customSendMessage.
  const carbon = new CarbonRecorder(adapter.sendMessage);
  /** Moves the clock to `frame`, playing everything due by then, promises included. */
  async function advanceTo(frame: number): Promise<void> {
    const time = frame * FRAME;
    for (let round = 0; round < 1_000; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      const due = clock.actions.some((action) => action.delay <= time);
      if (!due && round > 0) break;
      clock.maxFrames = time;
      clock.flush();
    }
    clock.frame = Math.max(clock.frame, time);
  }
  /** A run's subscriptions, as a subscription marble over absolute frames. */
  const subscriptions = (run: number) => played[run]!.subscriptions.map(({ subscribedFrame, unsubscribedFrame }) => [subscribedFrame / FRAME, unsubscribedFrame / FRAME]);
  const controller = new AbortController();
  const send = (text: string, signal = controller.signal) => adapter.sendMessage(request(text), { signal }, carbon);
  return { adapter, carbon, inputs, advanceTo, subscriptions, controller, send, clock };
}

