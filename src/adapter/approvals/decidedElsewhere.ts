import type { Observable } from "rxjs";
import type { CarbonChatInstance } from "../../carbon";
import { asCarbonAgUiError, type CarbonAgUiError } from "../../errors";
import type { Thread } from "../../thread/thread";
import { ApprovalRuns } from "./approvalRuns";
import type { ToolServerApprovals } from "./toolServer";
import type { TurnDelivery } from "../turns/message";
import { continuationTurn } from "../turns/resume";
import type { Turns } from "../turns/turnPath";

/** What following decisions taken elsewhere works with. */
export interface ElsewhereDeps {
  turns: Turns;
  delivery: TurnDelivery;
  /** The thread the chat shows now. */
  current(): Thread;
  /** The Carbon instance a continuation streams into (the latest one), none once the adapter is disposed. */
  instance(): CarbonChatInstance | undefined;
  onWarning(warning: CarbonAgUiError): void;
}

/**
 * A tool server's approvals decided elsewhere (another reviewer, another
 * tab), as the adapter acts on them: each pending approval's run is
 * followed on the tool server (`ApprovalRuns`); one decided there waits no
 * more, answered so (unless an answer from here is on its way: its own
 * `decide` finds it decided, and nothing runs twice), and once its outcome
 * is known the agent goes on in a continuation turn, in the latest Carbon
 * instance, unless a card of the chat still waits for its answer (that
 * answer starts the run).
 */
export function followDecisionsElsewhere(client: ToolServerApprovals, threads$: Observable<Thread>, deps: ElsewhereDeps): ApprovalRuns {
  const { turns } = deps;
  return new ApprovalRuns(client, threads$, {
    report: (error) => deps.onWarning(asCarbonAgUiError(error)),
    mayTake: (thread, entry) => !(entry.decision && !thread.conversation.pendingInterrupts.some((other) => !other.decision) && turns.busy),
    learned: (thread) => {
      const instance = deps.instance();
      if (!instance || thread !== deps.current() || thread.conversation.pendingInterrupts.some((entry) => !entry.decision)) return;
      void turns.play(continuationTurn(instance, deps.delivery));
    },
  });
}
