import type { StreamRun } from "../../operators/runs/splitRuns";
import { runInput } from "../runInput";
import type { TurnDelivery } from "./message";
import { outcomeOf } from "./outcome";
import { turnRuns } from "./runs";
import type { Turn } from "./turn";
import type { TurnPlan } from "./turnPath";

/**
 * A later run of a turn's stream (AG-UI lets one stream carry several), as
 * a turn of the adapter's own in the chat of the turn it came from: its own
 * Carbon response, after what is queued, recorded under the same request.
 * `stop` ends it too: Carbon's stop button stops what the stream still brings.
 */
export function followOnTurn(run: StreamRun, origin: Turn, requestId: string | undefined, stop: AbortSignal, delivery: TurnDelivery): TurnPlan {
  return {
    instance: origin.instance,
    signals: [stop],
    settles: "never",
    play: (turn) => {
      const input = runInput(turn.conversation, delivery.options.runFields, [...turn.conversation.messages], []);
      return outcomeOf(turnRuns(turn, { input, events: run.events, ...(requestId !== undefined && { requestId }) }, delivery), () => turn.ended);
    },
  };
}
