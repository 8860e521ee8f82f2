import type { CarbonVersionsInstance } from "../../carbon";
import type { AnswerVersionsOf } from "../answerVersions";
import { runInput } from "../runInput";
import type { TurnDelivery } from "./message";
import { outcomeOf } from "./outcome";
import { turnRuns } from "./runs";
import type { TurnPlan } from "./turnPath";

/**
 * The turn of the latest question asked again: when its time comes, the
 * answer shown is set aside as a version (out of the history and the chat),
 * and a run on the thread whose history ends with the question answers
 * anew, its `parentRunId` the run before the question, its answer streaming
 * where the old one was. An answer that showed nothing (stopped at once)
 * gives the old one its place back.
 */
export function regenerateTurn(versions: AnswerVersionsOf, instance: CarbonVersionsInstance, signal: AbortSignal | undefined, delivery: TurnDelivery): TurnPlan {
  return {
    instance,
    signals: [signal],
    // As a message's: a failure the chat shows (the new version's inline error) resolves.
    settles: "unshown",
    play: async (turn) => {
      if (turn.ended) return { how: "stopped", began: false };
      const aside = await versions.setAsideLatest(turn.conversation, instance);
      const { runFields } = delivery.options;
      const input = { ...runInput(turn.conversation, runFields, [...turn.conversation.messages], []), ...(aside.parentRunId !== undefined && { parentRunId: aside.parentRunId }) };
      try {
        return await outcomeOf(turnRuns(turn, { input, requestId: aside.requestId }, delivery), () => turn.ended);
      } finally {
        await versions.settle(turn.conversation, instance, aside);
      }
    },
  };
}
