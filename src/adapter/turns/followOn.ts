import type { StreamRun } from "../../operators/runs/splitRuns";
import { inputOf, newRequests } from "../../threads/serverLog";
import { runInput } from "../runInput";
import type { TurnDelivery } from "./message";
import { outcomeOf } from "./outcome";
import { turnRuns } from "./runs";
import type { Turn } from "./turn";
import type { TurnPlan } from "./turnPath";

/**
 * A later run of a turn's stream (AG-UI lets one stream carry several), as
 * a turn of the adapter's own in the chat of the turn it came from: its own
 * Carbon response, after what is queued, under the same request, or under
 * the person's message its RUN_STARTED brings (a thread a connect replays
 * slowly: its later runs come as turns of their own; Carbon 1.9.1 cannot
 * show that message live, the thread's log holds it, as an act before it).
 * `stop` ends it too: Carbon's stop button stops what the stream still brings.
 */
export function followOnTurn(run: StreamRun, origin: Turn, requestId: string | undefined, stop: AbortSignal, delivery: TurnDelivery): TurnPlan {
  // A person's message its RUN_STARTED brings (another device's, in a thread a connect replays) is the request it answers.
  const asked = newRequests(inputOf(run.first), origin.conversation).at(-1);
  const answering = asked?.id ?? requestId;
  return {
    instance: origin.instance,
    signals: [stop],
    settles: "never",
    play: (turn) => {
      if (asked) turn.thread.act({ type: "message", message: asked });
      const input = runInput(turn.conversation, delivery.options.runFields, [...turn.conversation.messages], []);
      return outcomeOf(turnRuns(turn, { input, events: run.events, ...(answering !== undefined && { requestId: answering }) }, delivery), () => turn.ended);
    },
  };
}
