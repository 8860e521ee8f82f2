import type { Interrupt, Message } from "@ag-ui/core";
import { asapScheduler } from "rxjs";
import { replayBranch, type ReplayOptions } from "../../src/thread/replay";
import type { ServerThread } from "../../src/threads/agentThreads";
import { logOfServerThread } from "../../src/threads/serverLog";
import { Thread } from "../../src/thread/thread";

/** What a thread's log is replayed with in a spec: the stages' defaults, no time. */
export const replayOptions: ReplayOptions = { pipeline: {}, scheduler: asapScheduler, restore: {} };

/** A thread whose log begins with `messages`, `state` and the interrupts `pending`, as a thread of the earlier format imported. */
export function threadOf({ messages = [], state, pending = [] }: { messages?: Message[]; state?: unknown; pending?: Interrupt[] }, threadId = "t"): Thread {
  const entries = [{ kind: "imported" as const, id: "seed", time: "2026-01-01T00:00:00.000Z", messages, activities: [], transcript: [], ...(state !== undefined && { state }), pendingInterrupts: pending.map((interrupt) => ({ interrupt })) }];
  return new Thread(threadId, replayOptions, { threadId, entries, head: "seed" });
}

/** A thread the agent's server keeps, read into a log and replayed: its chat (requests and responses as a restored chat shows them) and the conversation it comes to. */
export function replayServerThread(served: ServerThread, time = "2026-12-01T10:00:00.000Z") {
  const { conversation, chat } = replayBranch(logOfServerThread(served, time), replayOptions);
  const items = chat.map(({ item }) => item.message);
  return {
    conversation,
    requests: items.flatMap((message) => ("input" in message ? [message] : [])),
    responses: items.flatMap((message) => ("output" in message ? [message] : [])),
  };
}
