import type { CarbonEditInstance } from "../../carbon";
import { AgUiEditError } from "../../errors";
import { runBefore } from "../../thread/versions";
import type { ServerBranches } from "../answerVersions";
import { editRefusal } from "../questionVersions";
import { runInput } from "../runInput";
import type { TurnDelivery, UserMessageContent } from "./message";
import { outcomeOf } from "./outcome";
import { turnRuns } from "./runs";
import type { TurnPlan } from "./turnPath";

/**
 * The turn of a question edited: `message` (the edited text, sent as a new
 * message with an id of its own) takes the place of the question
 * `questionId` (Carbon's id of the person's message). When its time comes
 * (a refusal then, as any time, rejects: a card waits, a run goes on), the
 * question and everything after it leave Carbon's chat (the new message,
 * which Carbon shows at the end, stays); on the agent's server the thread
 * forks before the question; the new message grows from where the
 * question was asked (a new branch of the log: the old one is kept), and
 * its run answers it, its `parentRunId` the run before the question. A turn
 * stopped before its time still makes the edit, as a message is kept as
 * sent: only its run does not play.
 */
export function editTurn(message: UserMessageContent, questionId: string, instance: CarbonEditInstance, signal: AbortSignal, server: ServerBranches, delivery: TurnDelivery): TurnPlan {
  return {
    instance,
    signals: [signal],
    settles: "unshown",
    play: async (turn) => {
      const { thread } = turn;
      const question = editRefusal(thread, questionId);
      if (question instanceof AgUiEditError) return { how: "refused", began: false, error: question };
      const at = thread.branch().indexOf(question);
      const setAside = new Set(thread.branch().slice(at).map((entry) => entry.id));
      const shown = thread
        .replay()
        .chat.filter(({ entryId }) => setAside.has(entryId))
        .flatMap(({ item }) => (item.message.id === undefined || item.message.id === message.id ? [] : [item.message.id]));
      const { branches, callOptions } = server;
      const branch = await branches?.forkBeforeQuestion(thread.threadId, questionId, callOptions);
      if (branch !== undefined) thread.act({ type: "serverBranch", of: question.id, branch });
      await instance.messaging.removeMessages(shown);
      const before = runBefore(thread.branch(), question);
      thread.growFrom(question.parent);
      thread.act({ type: "message", message: { id: message.id, role: "user", content: message.content } });
      if (turn.ended) return { how: "stopped", began: false };
      const input = { ...runInput(turn.conversation, delivery.options.runFields, [...turn.conversation.messages], []), ...(before && { parentRunId: before.runId }) };
      return outcomeOf(turnRuns(turn, { input, requestId: message.id }, delivery), () => turn.ended);
    },
  };
}
