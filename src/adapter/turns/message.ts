import type { ContentPart, RunAgentInput } from "@ag-ui/core";
import { describeContent } from "../../contentParts";
import type { CarbonChatInstance } from "../../carbon";
import { cancellation, userMessageInput } from "../runInput";
import type { RunDelivery } from "./deliverRun";
import { outcomeOf, type CardFate, type TurnOutcome } from "./outcome";
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
    request: { id: message.id, text: describeContent(message.content) },
    settles: "unshown",
    play: (turn) => {
      delivery.options.toolSchemas?.load();
      return playMessage(turn, message, requestId, delivery);
    },
  };
}

/**
 * Plays the turn of a message: the interrupts still pending are cancelled
 * first (see `cancellation`; when the agent never took that run, the cards
 * can still be answered), then the message joins the history (after the
 * cancellation's run, whose MESSAGES_SNAPSHOT would leave it out) and its
 * run plays. The cards' fates are what came of it: cancelled once the agent
 * took the cancellation (a call of a tool the person answers, at once: its
 * result goes with the message). A turn ended before it began sends nothing.
 */
export async function playMessage(turn: Turn, message: UserMessageContent, requestId: string | undefined, delivery: TurnDelivery): Promise<TurnOutcome> {
  if (turn.ended) return { how: "stopped", began: false };
  const { options } = delivery;
  const play = (input: RunAgentInput) => outcomeOf(turnRuns(turn, { input, ...(requestId !== undefined && { requestId }) }, delivery), () => turn.ended);
  const cancelling = cancellation(turn.conversation, options.runFields);
  const fates: CardFate[] = cancelling.answered.map((interruptId) => ({ interruptId, answer: "cancelled" }));
  const cancelled = cancelling.run && (await play(cancelling.run.input));
  if (cancelling.run && cancelled) {
    if (cancelled.began) fates.push(...cancelling.run.interrupts.map((interruptId): CardFate => ({ interruptId, answer: "cancelled" })));
    else cancelling.run.putBack();
  }
  const input = userMessageInput(turn.conversation, message, options.runFields);
  if (cancelled?.how === "failed") return { ...cancelled, fates };
  return { ...(await play(input)), fates };
}
