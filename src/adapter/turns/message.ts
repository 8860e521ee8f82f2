import type { ContentPart, RunAgentInput } from "@ag-ui/core";
import type { CarbonChatInstance } from "../../carbon";
import type { RunAnswer } from "../../thread/log";
import { cancellation, runInput } from "../runInput";
import type { RunDelivery } from "./deliverRun";
import { outcomeOf, type TurnOutcome } from "./outcome";
import { turnRuns } from "./runs";
import type { Turn } from "./turn";
import type { TurnPlan } from "./turnPath";

/** A message of the person's: text, or parts (AG-UI content parts). */
export interface UserMessageContent {
  id: string;
  content: string | ContentPart[];
}

/** What a turn's runs need: how runs are delivered, and how a new run on the thread closes the streams of earlier ones. */
export type TurnDelivery = RunDelivery & { closeStreams: () => void };

/** The turn of a message the person sent (Carbon's `customSendMessage`): its promise is Carbon's. */
export function messageTurn(message: UserMessageContent, requestId: string | undefined, instance: CarbonChatInstance, signal: AbortSignal, delivery: TurnDelivery): TurnPlan {
  return {
    instance,
    signals: [signal],
    settles: "unshown",
    play: (turn) => {
      delivery.options.toolSchemas?.load();
      return playMessage(turn, message, requestId, delivery);
    },
  };
}

/**
 * Plays the turn of a message: the cards still waiting are cancelled first
 * (see `cancellation`: the chat's own at once; the agent's in a run of
 * their own, which cancels them once the agent takes it), then the message
 * joins the thread (after the cancellation's run, whose MESSAGES_SNAPSHOT
 * would leave it out) and its run plays, unless the cancellation failed:
 * the message then goes with the next run. A turn ended before it began
 * runs nothing; the message is the person's all the same, kept as sent.
 */
export async function playMessage(turn: Turn, message: UserMessageContent, requestId: string | undefined, delivery: TurnDelivery): Promise<TurnOutcome> {
  const { options } = delivery;
  const play = (input: RunAgentInput, answers?: readonly RunAnswer[]) => outcomeOf(turnRuns(turn, { input, ...(requestId !== undefined && { requestId }), ...(answers && { answers }) }, delivery), () => turn.ended);
  const cancelled = turn.ended ? undefined : cancellation(turn, options.runFields);
  const cancelledRun = cancelled && (await play(cancelled.input, cancelled.answers));
  turn.thread.act({ type: "message", message: { id: message.id, role: "user", content: message.content } });
  if (turn.ended) return { how: "stopped", began: cancelledRun?.began ?? false };
  if (cancelledRun?.how === "failed") return cancelledRun;
  return play(runInput(turn.conversation, options.runFields, [...turn.conversation.messages], []));
}
