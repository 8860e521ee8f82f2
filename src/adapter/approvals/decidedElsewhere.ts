import type { Observable } from "rxjs";
import type { CarbonChatInstance } from "../../carbon";
import type { Conversation } from "../../conversation";
import { asCarbonAgUiError, type CarbonAgUiError } from "../../errors";
import { ApprovalRuns } from "./approvalRuns";
import type { ToolServerApprovals } from "./toolServer";
import type { TurnDelivery } from "../turns/message";
import { continuationTurn } from "../turns/resume";
import type { TurnRecord, Turns } from "../turns/turnPath";

/** What following decisions taken elsewhere works with. */
export interface ElsewhereDeps {
  turns: Turns;
  record: TurnRecord | undefined;
  delivery: TurnDelivery;
  /** The conversation the chat shows now. */
  current(): Conversation;
  /** The Carbon instance a continuation streams into (the latest one), none once the adapter is disposed. */
  instance(): CarbonChatInstance | undefined;
  onWarning(warning: CarbonAgUiError): void;
}

/**
 * A tool server's approvals decided elsewhere (another reviewer, another
 * tab), as the adapter acts on them: each pending approval's run is
 * followed on the tool server (`ApprovalRuns`); one decided there is taken
 * off the pending list with that answer as its card's fate (unless an
 * answer from here is on its way: its own `decide` finds it decided, and
 * nothing runs twice), and once its outcome is known the agent goes on in a
 * continuation turn, in the latest Carbon instance, unless a card of the
 * chat still waits for its answer (that answer starts the run).
 */
export function followDecisionsElsewhere(client: ToolServerApprovals, conversations$: Observable<Conversation>, deps: ElsewhereDeps): ApprovalRuns {
  const { turns, record } = deps;
  return new ApprovalRuns(client, conversations$, {
    report: (error) => deps.onWarning(asCarbonAgUiError(error)),
    mayTake: (conversation, entry) => !(entry.decision && !conversation.pendingInterrupts.some((other) => !other.decision) && turns.busy),
    settled: (conversation, { interrupt, decision }) => {
      record?.fates(conversation, [{ interruptId: interrupt.id, answer: decision?.type ?? "reject" }]);
      record?.save(conversation);
    },
    learned: (conversation, resultIds) => {
      const instance = deps.instance();
      if (!instance || conversation !== deps.current() || conversation.pendingInterrupts.some((entry) => !entry.decision)) return record?.save(conversation);
      void turns.play(continuationTurn(instance, resultIds, deps.delivery));
    },
  });
}
