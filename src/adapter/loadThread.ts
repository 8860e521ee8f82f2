import type { BaseEvent } from "@ag-ui/core";
import type { Observable } from "rxjs";
import { AgUiThreadServerError, type ThreadServerProblem } from "../errors";
import type { ThreadStore } from "../persistence/threadStore";
import type { ThreadLogData } from "../thread/log";
import { replayBranch } from "../thread/replay";
import type { AgentThreads, ServerThread } from "../threads/agentThreads";
import { withCachedLog } from "../threads/cachedLog";
import { logOfServerThread } from "../threads/serverLog";
import { threadServerError } from "../threads/threadServerError";
import type { ResolvedOptions } from "./options";

/** A run still going on a restored thread, to rejoin: its events from the start, and how to stop it where it runs. */
export interface RunningRun {
  events: Observable<BaseEvent>;
  stop?: () => Promise<void>;
}

/** A thread to show: its log (and the run still going on it); none stored; or one line saying why it could not be opened. */
export type LoadedForChat = { log: ThreadLogData; running?: RunningRun } | "none" | { notice: string };

const NOT_RESTORED = "The saved conversation could not be restored, so a new one has started.";

/** The one line a chat shows for a thread the agent's server did not give. */
const notOpened: Record<ThreadServerProblem, string> = {
  unreachable: "The agent's server did not answer, so this conversation could not be opened; a new one has started.",
  "not-found": "This conversation is not on the agent's server, so a new one has started.",
  forbidden: "You may not open this conversation, so a new one has started.",
  unreadable: "The agent's server sent this conversation in a form that could not be read, so a new one has started.",
  failed: "The agent's server could not give this conversation, so a new one has started.",
};

/**
 * A thread's log as it is to be shown: the agent's server's, with what this
 * browser kept of it (`withCachedLog`), where it keeps threads; else the
 * store's. One that cannot be opened says why in `notice` (its error went
 * to `onError`); nothing stored is deleted.
 */
export async function loadThread(threadId: string, store: ThreadStore | undefined, server: AgentThreads | undefined, options: ResolvedOptions): Promise<LoadedForChat> {
  const [cached, served] = await Promise.all([store ? store.load(threadId) : ("none" as const), server && fromServer(server, threadId, options)]);
  const local = typeof cached === "object" ? cached.log : undefined;
  // Not on the server, and never answered by it (its first run failed before the server had it): only this browser has it.
  const onlyHere = served === "not-found" && local !== undefined && local.entries.every((entry) => entry.kind !== "run" || entry.events.length === 0);
  if (served === undefined || onlyHere) return local ? { log: local } : cached === "none" ? "none" : { notice: NOT_RESTORED };
  if (served === "not-found") options.onError(new AgUiThreadServerError("load", threadId, "not-found"));
  if (served === "not-found" || "problem" in served) return { notice: notOpened[served === "not-found" ? "not-found" : served.problem] };
  const now = new Date(options.scheduler.now()).toISOString();
  const serverLog = logOfServerThread(served, now);
  const replay = (log: ThreadLogData) => replayBranch(log, options.replay).conversation;
  const serverView = replay(serverLog);
  const messages = "messages" in served ? served.messages : serverView.messages;
  const waiting = "interrupts" in served ? served.interrupts : serverView.pendingInterrupts.map((entry) => entry.interrupt);
  const log = withCachedLog(serverLog, messages, waiting, local && { log: local, messages: replay(local).messages }, served.running !== undefined);
  const running = served.running && { events: served.running, ...(served.stopRunning && { stop: served.stopRunning }) };
  return { log, ...(running && { running }) };
}

/** The thread from the agent's server, "not-found" when it has none by that id, or the problem (reported) that kept it. */
async function fromServer(server: AgentThreads, threadId: string, options: ResolvedOptions): Promise<ServerThread | "not-found" | { problem: ThreadServerProblem }> {
  try {
    return (await server.load(threadId, { scheduler: options.scheduler, onWarning: options.onWarning })) ?? "not-found";
  } catch (thrown) {
    const error = threadServerError("load", threadId, thrown);
    options.onError(error);
    return { problem: error.problem };
  }
}
