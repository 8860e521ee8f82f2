import type { CarbonChatInstance } from "../../carbon";
import type { A2uiUserAction } from "../../operators/map/a2uiSurfaces";
import { runInput } from "../runInput";
import type { TurnDelivery } from "./message";
import { outcomeOf } from "./outcome";
import { turnRuns } from "./runs";
import type { TurnPlan } from "./turnPath";

/**
 * The turn of a person's action on an A2UI surface: the action joins the
 * thread's log, then a run on the thread with the whole history and
 * `forwardedProps.a2uiAction.userAction`, as `@ag-ui/a2ui-middleware` and
 * CopilotKit send it, and no message of the person's (the middleware tells
 * the agent what was done). Its answer streams as a response of its own,
 * part of the latest question's answer.
 */
export function surfaceActionTurn(action: A2uiUserAction, activityId: string, instance: CarbonChatInstance, signal: AbortSignal | undefined, delivery: TurnDelivery): TurnPlan {
  return {
    instance,
    signals: [signal],
    settles: "always",
    play: (turn) => {
      if (turn.ended) return Promise.resolve({ how: "stopped", began: false });
      turn.thread.act({ type: "surfaceAction", activityId, action });
      const { runFields } = delivery.options;
      const input = runInput(turn.conversation, { ...runFields, forwardedProps: { ...runFields.forwardedProps, a2uiAction: { userAction: action } } }, [...turn.conversation.messages], []);
      return outcomeOf(turnRuns(turn, { input, ...(turn.conversation.lastRequestId !== undefined && { requestId: turn.conversation.lastRequestId }) }, delivery), () => turn.ended);
    },
  };
}
