import type { BaseEvent, Interrupt, Message } from "@ag-ui/core";
import type { Observable, SchedulerLike } from "rxjs";
import type { CarbonAgUiError } from "../errors";
import type { ThreadSummary } from "../persistence/store";

/** What is shared by a thread the agent's server keeps, whatever form it gives it in. */
interface ServerThreadBase {
  threadId: string;
  /**
   * What the server brings after what it holds: the run still going on the
   * thread, from its first event, then live until it ends (LangGraph:
   * `runs.joinStream`; `connect`: the rest of the replay, whose later runs,
   * if any, are turns of their own). Unsubscribing lets go of it; the run
   * goes on.
   */
  running?: Observable<BaseEvent>;
  /** Stops the running run where it runs (Carbon's stop button on a rejoined answer). */
  stopRunning?: () => Promise<void>;
}

/** A thread as messages (LangGraph's `threads.getState`): the AG-UI history, the state, the interrupts waiting for their resume. */
export interface ServerThreadOfMessages extends ServerThreadBase {
  /** AG-UI messages, oldest first, with the server's ids. */
  messages: readonly Message[];
  state: unknown;
  /** Interrupts awaiting a resume (LangGraph: the thread's `tasks[].interrupts`). */
  interrupts: readonly Interrupt[];
  /** The subagent invocations the messages' `subagentRunId`s name, where the server says more of them than the messages do. */
  subagents?: readonly ThreadSubagent[];
}

/** A subagent invocation of a thread of messages, as its server knows it (a LangGraph supervisor's worker: who spoke is in its messages' `name`). */
export interface ThreadSubagent {
  subagentRunId: string;
  name: string;
  /** The call that started it (a supervisor's handoff). */
  parentToolCallId?: string;
  /** Its messages a live run never shows (a LangGraph worker's handoff back): the history holds them, the chat does not. */
  unshown?: readonly string[];
}

/**
 * A thread as the events of its recorded runs (AG-UI's `connect`): each run
 * from its RUN_STARTED to its RUN_FINISHED or RUN_ERROR, in order. The chat
 * replays them once through the stages a live answer goes through, so a
 * restored answer is the live one, Carbon items included; the history, the
 * state and what waits for an answer are what that replay leaves.
 */
export interface ServerThreadOfRuns extends ServerThreadBase {
  runs: readonly (readonly BaseEvent[])[];
  /** The RUN_STARTED of the run still going (`running`): the messages it echoes (the person's it answers) are the thread's before its answer. */
  runningStarted?: BaseEvent;
}

/** A thread as the agent's server keeps it. */
export type ServerThread = ServerThreadOfMessages | ServerThreadOfRuns;

/** What the adapter lends a source when it asks it for something: its clock and where warnings go. */
export interface ThreadCallOptions {
  /** The adapter's scheduler: whatever a source times, it times on it. */
  scheduler?: SchedulerLike;
  /** Hears of a limit that bit (a list cut short, runs not looked at), as the adapter's other warnings do. */
  onWarning?: (warning: CarbonAgUiError) => void;
}

/**
 * Where an agent keeps its threads: `fromAgent` finds it on the agents that
 * have one (`@ag-ui/langgraph`'s `LangGraphAgent`, an agent that implements
 * AG-UI's `connect`, as CopilotKit's runtime does); or give your own as the
 * adapter's `threads`. Each call rejects with the server's error (a
 * `AgUiThreadServerError` names the thread and the status, never a token).
 */
export interface AgentThreads {
  /** The thread, or undefined when the server holds none by that id. */
  load(threadId: string, options?: ThreadCallOptions): Promise<ServerThread | undefined>;
  /** The threads the server holds for this person, the latest changed first. Absent: the local store's. */
  list?(options?: ThreadCallOptions): Promise<ThreadSummary[]>;
  /** Deletes the thread on the server. */
  remove?(threadId: string, options?: ThreadCallOptions): Promise<void>;
  /** Where the server keeps branches of a thread (LangGraph's checkpoints): absent, the history the adapter sends is the truth. */
  branches?: ThreadBranches;
}

/**
 * A thread's branches on the agent's server, for an answer's versions: a
 * regenerate forks the thread before the answer, and switching versions
 * moves the thread to the chosen one's branch, so the server holds what
 * the chat shows and another device opens it. A branch is named by an
 * opaque string the server gave (LangGraph: a checkpoint id).
 */
export interface ThreadBranches {
  /**
   * Moves the thread back to where it holds the person's message
   * `requestId` and no answer to it yet, on a new branch: the next run
   * answers it anew. Resolves with the branch the thread was on, to come
   * back to.
   */
  forkBefore(threadId: string, requestId: string, options?: ThreadCallOptions): Promise<string>;
  /**
   * Moves the thread back to where it does not hold the person's message
   * `requestId` yet (before they asked it), on a new branch: the next run
   * asks anew (an edited question). Resolves with the branch the thread
   * was on, to come back to.
   */
  forkBeforeQuestion(threadId: string, requestId: string, options?: ThreadCallOptions): Promise<string>;
  /** The branch the thread is on now. */
  head(threadId: string, options?: ThreadCallOptions): Promise<string>;
  /** Moves the thread to `branch` (one `forkBefore` or `head` gave). */
  moveTo(threadId: string, branch: string, options?: ThreadCallOptions): Promise<void>;
}
