import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import type { Subscribable } from "rxjs";
import { isRecord } from "../../internal/isRecord";

// Structural types of what the library uses of `@ag-ui/langgraph` 0.0.43's
// `LangGraphAgent` and of the `@langchain/langgraph-sdk` client it holds as
// `agent.client`: the main bundle imports neither.

/** A part of a LangGraph SSE stream (`runs.joinStream`). */
export interface LangGraphStreamPart {
  event: string;
  data: unknown;
  id?: string;
}

/** A run as `runs.list` and `runs.get` give it. */
export interface LangGraphRun {
  run_id: string;
  thread_id?: string;
  assistant_id?: string;
  /** pending, running, success, error, interrupted, timeout. */
  status: string;
  created_at?: string;
  /** The in-memory server and LangGraph Platform: the run's options, `resumable` (its stream kept from the start) and its `input` among them. */
  kwargs?: { resumable?: boolean; input?: unknown } & Record<string, unknown>;
}

/** A thread as `threads.search` gives it. */
export interface LangGraphThread {
  thread_id: string;
  updated_at?: string;
  metadata?: Record<string, unknown> | null;
  values?: unknown;
}

export interface LangGraphClientLike {
  threads: {
    getState(threadId: string, checkpointId?: string): Promise<unknown>;
    updateState?(threadId: string, options: { values: unknown; checkpointId?: string; asNode?: string }): Promise<unknown>;
    search?(query: { metadata?: Record<string, unknown>; limit?: number; offset?: number; sortBy?: string; sortOrder?: string }): Promise<LangGraphThread[]>;
    delete?(threadId: string): Promise<unknown>;
    create?(...args: never[]): Promise<unknown>;
  };
  runs?: {
    list(threadId: string, options?: { limit?: number; offset?: number; status?: string }): Promise<LangGraphRun[]>;
    get?(threadId: string, runId: string): Promise<LangGraphRun>;
    stream(...args: never[]): unknown;
    joinStream(threadId: string, runId: string, options?: { signal?: AbortSignal; lastEventId?: string }): AsyncIterable<LangGraphStreamPart>;
    cancel(threadId: string, runId: string): Promise<unknown>;
  };
}

/** What of `LangGraphAgent` the library reads: its SDK client (public), `clone()` and `run()` (public), and its graph. */
export interface LangGraphAgentLike {
  client: { threads: { getState(threadId: string): Promise<unknown> } };
  graphId?: string;
  clone?(): unknown;
}

/** The agent as the rejoin drives it: a clone whose public `client` is replaced, and its public `run()`. */
export interface RunnableLangGraphAgent {
  client: LangGraphClientLike;
  graphId?: string;
  clone(): RunnableLangGraphAgent;
  run(input: RunAgentInput): Subscribable<BaseEvent>;
}

/** Whether `agent` holds a LangGraph SDK client (`@ag-ui/langgraph`'s `LangGraphAgent`): `client.threads.getState` is a function. */
export function isLangGraphAgent(agent: unknown): boolean {
  if (!isRecord(agent) && typeof agent !== "function") return false;
  const client = (agent as { client?: unknown }).client;
  if (!isRecord(client) || !isRecord(client.threads)) return false;
  return typeof client.threads.getState === "function";
}
