import type { CarbonVersionsInstance } from "../../carbon";
import { runBefore } from "../../thread/versions";
import { regenerateRefusal, setAsideLatest, type ServerBranches } from "../answerVersions";
import { runInput } from "../runInput";
import type { TurnDelivery } from "./message";
import { outcomeOf } from "./outcome";
import { turnRuns } from "./runs";
import type { TurnPlan } from "./turnPath";

/**
 * The turn of the latest question asked again: when its time comes (a
 * refusal then, as any time, rejects), the answer shown is set aside (out
 * of Carbon's chat; on the agent's server, forked before it), and a run
 * that grows from the question (a new branch of the log: the history ends
 * with the question) answers anew, its `parentRunId` the run before the
 * question, its answer streaming where the old one was. An answer that
 * showed nothing (stopped at once) gives the old one its place back.
 */
export function regenerateTurn(instance: CarbonVersionsInstance, signal: AbortSignal | undefined, server: ServerBranches, delivery: TurnDelivery): TurnPlan {
  return {
    instance,
    signals: [signal],
    // As a message's: a failure the chat shows (the new version's inline error) resolves.
    settles: "unshown",
    play: async (turn) => {
      if (turn.ended) return { how: "stopped", began: false };
      const { thread } = turn;
      const refusal = regenerateRefusal(thread);
      if (refusal) return { how: "refused", began: false, error: refusal };
      const { latest, putBack } = await setAsideLatest(thread, instance, server);
      const before = runBefore(thread.branch(), latest.question);
      thread.growFrom(latest.question.id);
      const input = { ...runInput(turn.conversation, delivery.options.runFields, [...turn.conversation.messages], []), ...(before && { parentRunId: before.runId }) };
      const outcome = await outcomeOf(turnRuns(turn, { input, requestId: latest.question.act.message.id }, delivery), () => turn.ended);
      const answered = thread.branch().some((entry) => entry.kind === "run" && entry.parent === latest.question.id && entry.responded !== false && !latest.answers.includes(entry.id));
      if (!answered) await putBack();
      return outcome;
    },
  };
}
