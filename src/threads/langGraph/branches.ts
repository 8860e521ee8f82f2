import type { ThreadBranches } from "../agentThreads";
import { AgUiThreadServerError } from "../../errors";
import { isRecord } from "../../internal/isRecord";
import type { LangGraphClientLike } from "./client";
import { threadServerError } from "../threadServerError";

/** A thread's state as `threads.getState` gives it, as much of it as branching reads. */
interface CheckpointState {
  values?: { messages?: { id?: string }[] };
  next?: string[];
  checkpoint?: { checkpoint_id?: string };
  parent_checkpoint?: { checkpoint_id?: string } | null;
}

/**
 * A LangGraph thread's branches (its checkpoints): `forkBefore` walks the
 * head's branch back (parent by parent, at most `maxSteps` checkpoints) to
 * the newest checkpoint whose messages end with the person's message and
 * whose next step is still to run, and forks the thread there
 * (`threads.updateState` with no values at that checkpoint);
 * `forkBeforeQuestion` forks it at the end of the run before the message
 * (the earliest checkpoint without it, for a thread's first); `moveTo` forks
 * the thread at a branch's end, which makes it the thread's state again.
 * LangGraph refuses both while a run is going (409).
 */
export function langGraphBranches(client: LangGraphClientLike, maxSteps: number): ThreadBranches | undefined {
  const { updateState } = client.threads;
  if (typeof updateState !== "function") return undefined;
  const stateOf = async (threadId: string, checkpointId?: string): Promise<CheckpointState> => {
    const state = await (checkpointId === undefined ? client.threads.getState(threadId) : client.threads.getState(threadId, checkpointId));
    if (!isRecord(state)) throw new AgUiThreadServerError("branch", threadId, "unreadable");
    return state as CheckpointState;
  };
  const idOf = (threadId: string, state: CheckpointState): string => {
    const id = state.checkpoint?.checkpoint_id;
    if (typeof id !== "string") throw new AgUiThreadServerError("branch", threadId, "unreadable");
    return id;
  };
  const fork = (threadId: string, checkpointId: string) => updateState.call(client.threads, threadId, { values: null, checkpointId });
  /** `act`, its failures as the thread server's errors of branching `threadId`. */
  const branching = async <R>(threadId: string, act: () => Promise<R>): Promise<R> => {
    try {
      return await act();
    } catch (error) {
      throw threadServerError("branch", threadId, error);
    }
  };
  return {
    forkBefore: (threadId, requestId) =>
      branching(threadId, async () => {
        const head = await stateOf(threadId);
        let state = head;
        for (let step = 0; step < maxSteps; step++) {
          const messages = state.values?.messages ?? [];
          if (messages[messages.length - 1]?.id === requestId && (state.next?.length ?? 0) > 0) {
            await fork(threadId, idOf(threadId, state));
            return idOf(threadId, head);
          }
          const parent = state.parent_checkpoint?.checkpoint_id;
          if (typeof parent !== "string") break;
          state = await stateOf(threadId, parent);
        }
        throw new AgUiThreadServerError("branch", threadId, "not-found", undefined, { cause: new Error(`No checkpoint before the answer to message '${requestId}' within ${maxSteps} steps back`) });
      }),
    forkBeforeQuestion: (threadId, requestId) =>
      branching(threadId, async () => {
        const head = await stateOf(threadId);
        /** The newest checkpoint without the question: the end of the run before it, else (its thread's first question) the earliest. */
        let before: CheckpointState | undefined;
        let state = head;
        for (let step = 0; step < maxSteps; step++) {
          const holds = (state.values?.messages ?? []).some((message) => message.id === requestId);
          if (!holds) {
            before = state;
            if ((state.next?.length ?? 0) === 0) break;
          }
          const parent = state.parent_checkpoint?.checkpoint_id;
          if (typeof parent !== "string") break;
          state = await stateOf(threadId, parent);
        }
        if (!before) throw new AgUiThreadServerError("branch", threadId, "not-found", undefined, { cause: new Error(`No checkpoint before message '${requestId}' within ${maxSteps} steps back`) });
        await fork(threadId, idOf(threadId, before));
        return idOf(threadId, head);
      }),
    head: (threadId) => branching(threadId, async () => idOf(threadId, await stateOf(threadId))),
    moveTo: (threadId, branch) =>
      branching(threadId, async () => {
        await fork(threadId, branch);
      }),
  };
}
