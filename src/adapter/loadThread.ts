import type { BaseEvent } from "@ag-ui/core";
import { NEVER, type Observable } from "rxjs";
import type { Conversation } from "../conversation";
import { AgUiThreadServerError, type ThreadServerProblem } from "../errors";
import type { ThreadStore } from "../persistence/threadStore";
import type { AgentThreads, ServerThread } from "../threads/agentThreads";
import { threadServerError } from "../threads/threadServerError";
import { withCache } from "../threads/cachedThread";
import { replayThread } from "../threads/threadHistory";
import type { ResolvedOptions } from "./options";

/** A run still going on a restored thread, to rejoin: its events from the start, and how to stop it where it runs. */
export interface RunningRun {
  events: Observable<BaseEvent>;
  stop?: () => Promise<void>;
}

export type LoadedForChat = { conversation: Conversation; running?: RunningRun } | "none" | { notice: string };

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
 * A thread as it is to be shown: the agent's server's (with what this
 * browser kept of it, see `withCache`) when it keeps threads, else the
 * store's. One that cannot be opened says why in `notice` (its error went to
 * `onError`); nothing stored is deleted.
 */
export async function loadThread(threadId: string, threads: ThreadStore, server: AgentThreads | undefined, options: ResolvedOptions): Promise<LoadedForChat> {
  const [cached, served] = await Promise.all([threads.load(threadId), server && fromServer(server, threadId, options)]);
  const local = typeof cached === "object" ? cached.conversation : undefined;
  // Not on the server, and never answered by it (its first run failed before the server had it): only this browser has it.
  const onlyHere = served === "not-found" && local !== undefined && local.messages.every((message) => message.role === "user");
  if (served === undefined || onlyHere) return local ? { conversation: local } : cached === "none" ? "none" : { notice: NOT_RESTORED };
  if (served === "not-found") options.onError(new AgUiThreadServerError("load", threadId, "not-found"));
  if (served === "not-found" || "problem" in served) return { notice: notOpened[served === "not-found" ? "not-found" : served.problem] };
  const keptLog = local && threads.logOf(local);
  const kept = local && keptLog && { conversation: local, transcript: keptLog.toEntries() };
  const { describe = () => undefined } = options;
  const pipeline = options.pipeline({ stop: NEVER, renderCost: NEVER, describeError: describe });
  const replayed = replayThread(served, { pipeline, scheduler: options.scheduler, time: threads.now() });
  const { conversation, transcript } = withCache(served, replayed, kept, options.scheduler);
  // Not saved here: the cache is brought up to date by the next save (a turn's end), and opening a thread writes nothing.
  // The versions of the latest answer kept here hold while the server's latest question is theirs (see TranscriptLog).
  threads.adoptLog(conversation, transcript, keptLog?.versions);
  const running = served.running && { events: served.running, ...(served.stopRunning && { stop: served.stopRunning }) };
  return { conversation, ...(running && { running }) };
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

