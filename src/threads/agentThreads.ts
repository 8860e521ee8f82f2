import type { BaseEvent, Interrupt, Message } from "@ag-ui/core";
import type { Observable } from "rxjs";
import type { ThreadSummary } from "../persistence/store";

/**
 * A thread as the agent's server keeps it: the AG-UI history the next run
 * sends, the shared state, the interrupts still waiting for their resume,
 * and the run still going on it, if any.
 */
export interface ServerThread {
  threadId: string;
  /** AG-UI messages, oldest first, with the server's ids. */
  messages: readonly Message[];
  state: unknown;
  /** Interrupts awaiting a resume (LangGraph: the thread's `tasks[].interrupts`). */
  interrupts: readonly Interrupt[];
  /**
   * The run still going on the thread, from its first event, then live until
   * it ends (LangGraph: `runs.joinStream`; `connect`: the rest of the replay).
   * Unsubscribing lets go of it; the run goes on.
   */
  running?: Observable<BaseEvent>;
  /** Stops the running run where it runs (Carbon's stop button on a rejoined answer). */
  stopRunning?: () => Promise<void>;
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
  load(threadId: string): Promise<ServerThread | undefined>;
  /** The threads the server holds for this person, the latest changed first. Absent: the local store's. */
  list?(): Promise<ThreadSummary[]>;
  /** Deletes the thread on the server. */
  remove?(threadId: string): Promise<void>;
}
