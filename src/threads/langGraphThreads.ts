import type { BaseEvent } from "@ag-ui/core";
import { langGraphSubagents, type SubagentVisibility } from "../operators/check/langGraphSubagents";
import { asyncScheduler, type Observable } from "rxjs";
import { AgUiThreadServerError, CarbonAgUiError } from "../errors";
import { isRecord } from "../internal/isRecord";
import { titleOf, type ThreadSummary } from "../persistence/store";
import type { AgentThreads, ThreadCallOptions } from "./agentThreads";
import type { LangGraphAgentLike, LangGraphClientLike, LangGraphRun, LangGraphThread, RunnableLangGraphAgent } from "./langGraph/client";
import { readThreadState } from "./langGraph/messages";
import { withWorkers } from "./langGraph/workers";
import { SUPERVISOR } from "../internal/handoffOwners";
import { askedIn, runStream } from "./langGraph/rejoin";
import { langGraphBranches } from "./langGraph/branches";
import { statusOf, threadServerError } from "./threadServerError";

export { isLangGraphAgent, type LangGraphAgentLike } from "./langGraph/client";
export { langChainMessagesToAgUi, langGraphInterruptsToAgUi } from "./langGraph/messages";

/** The limits of reading a LangGraph server's threads, each reported through `onWarning` when it bites. */
export interface LangGraphThreadsOptions {
  /** How many runs of a thread are looked at, of each status still going (running, pending), for the one to rejoin. Default 100. */
  runsLookedAt?: number;
  /** The most threads `list` gives, paging through `threads.search` 100 at a time, the latest changed first. Default 1,000. */
  maxThreads?: number;
  /** How often a run that kept no stream (not created resumable) is asked whether it has ended. Default 1,000 ms. */
  pollMs?: number;
  /** How many checkpoints a regenerate walks back from the thread's head to find where the answer began. Default 200. */
  branchSteps?: number;
  /** How a rejoined run's workers show (`langGraphSubagents`), as its live runs' do: `fromAgent` gives its own `subagentVisibility`. Default `"attributed"`. */
  subagentVisibility?: SubagentVisibility;
}

/** The defaults of `LangGraphThreadsOptions`, decided here once. */
export const LANGGRAPH_THREADS_DEFAULTS = { runsLookedAt: 100, maxThreads: 1_000, pollMs: 1_000, branchSteps: 200, subagentVisibility: "attributed" } as const;

/** How many threads one `threads.search` asks for (the in-memory server takes 1 to 1,000). */
const SEARCH_PAGE = 100;

/**
 * The threads a LangGraph server keeps for `agent` (`@ag-ui/langgraph`'s
 * `LangGraphAgent`), read through the LangGraph SDK client it holds:
 * `load` converts the thread's state as `@ag-ui/langgraph` 0.0.43 converts
 * it at the end of a run (the MESSAGES_SNAPSHOT's messages and ids, the
 * RUN_FINISHED interrupt outcome's interrupts), and gives the run still
 * going on it, if any (see `runStream`); `list` pages through
 * `threads.search`; `remove` deletes; `branches` forks the thread for a
 * regenerate and moves it between versions (`langGraphBranches`).
 */
export function langGraphThreads(langGraphAgent: LangGraphAgentLike, options: LangGraphThreadsOptions = {}): AgentThreads {
  const agent = langGraphAgent as unknown as RunnableLangGraphAgent;
  const { client } = agent;
  const graphId = typeof agent.graphId === "string" ? agent.graphId : undefined;
  const { runsLookedAt, maxThreads, pollMs, branchSteps, subagentVisibility } = { ...LANGGRAPH_THREADS_DEFAULTS, ...options };
  const branches = langGraphBranches(client, branchSteps);

  return {
    async load(threadId, { scheduler = asyncScheduler, onWarning }: ThreadCallOptions = {}) {
      let raw: unknown;
      let run: LangGraphRun | undefined;
      const runs = client.runs;
      try {
        // The runs first, the state after: a run that ends between the two reads leaves its answer in the state (read
        // the other way round, the state holds no answer and no run is going).
        run = runs ? await runningRun(runs, threadId, runsLookedAt, onWarning) : undefined;
        raw = await client.threads.getState(threadId);
      } catch (error) {
        // 400 and 422: an id that is no thread id of LangGraph's (not a UUID) names no thread either.
        if ([400, 404, 422].includes(statusOf(error) ?? 0)) return undefined;
        throw threadServerError("load", threadId, error);
      }
      const read = readThreadState(threadId, raw);
      // A supervisor's workers, as a live run attributes them (inline: the messages as they are).
      const thread = subagentVisibility === "inline" ? read : withWorkers(read, isRecord(raw) && isRecord(raw.values) ? raw.values.messages : undefined, SUPERVISOR, subagentVisibility === "hidden");
      if (!run || !runs) return thread;
      // The person's message the run answers, which the thread's state holds only once the run has taken it.
      const asked = askedIn(run);
      const known = asked === undefined || thread.messages.some((message) => message.id === asked.id);
      const running: Observable<BaseEvent> = runStream(agent, runs, threadId, run, thread.interrupts.length > 0, { scheduler, pollMs }).pipe(langGraphSubagents({ visibility: subagentVisibility }));
      return {
        ...thread,
        ...(!known && { messages: [...thread.messages, asked] }),
        running,
        stopRunning: async () => {
          try {
            await runs.cancel(threadId, run.run_id);
          } catch (error) {
            if (statusOf(error) === 404) return;
            throw threadServerError("rejoin", threadId, error);
          }
        },
      };
    },

    async list({ onWarning }: ThreadCallOptions = {}) {
      const search = client.threads.search;
      if (typeof search !== "function") return [];
      const seen = new Map<string, ThreadSummary>();
      let full = false;
      for (let offset = 0; seen.size < maxThreads; offset += SEARCH_PAGE) {
        const limit = Math.min(SEARCH_PAGE, maxThreads - seen.size);
        let page: LangGraphThread[];
        try {
          page = await search.call(client.threads, { ...(graphId !== undefined && { metadata: { graph_id: graphId } }), limit, offset, sortBy: "updated_at", sortOrder: "desc" });
        } catch (error) {
          throw threadServerError("list", undefined, error);
        }
        if (!Array.isArray(page)) throw new AgUiThreadServerError("list", undefined, "unreadable");
        // A thread that moved between two pages (a run ended meanwhile) is listed once.
        for (const summary of summariesOf(page, graphId)) if (!seen.has(summary.threadId)) seen.set(summary.threadId, summary);
        full = page.length === limit;
        if (!full) break;
      }
      if (full && seen.size >= maxThreads) onWarning?.(new CarbonAgUiError(`Listed the ${maxThreads} threads changed last; the LangGraph server holds more (raise maxThreads to list them)`));
      return [...seen.values()];
    },

    async remove(threadId) {
      const remove = client.threads.delete;
      if (typeof remove !== "function") return;
      try {
        await remove.call(client.threads, threadId);
      } catch (error) {
        if (statusOf(error) === 404) return;
        throw threadServerError("remove", threadId, error);
      }
    },
    ...(branches && { branches }),
  };
}

/** The threads of one search page as summaries, those of another graph left out. */
function summariesOf(page: readonly LangGraphThread[], graphId: string | undefined): ThreadSummary[] {
  return page.flatMap((thread): ThreadSummary[] => {
    if (!isRecord(thread) || typeof thread.thread_id !== "string") return [];
    const own = isRecord(thread.metadata) ? thread.metadata.graph_id : undefined;
    if (graphId !== undefined && own !== undefined && own !== graphId) return [];
    return [{ threadId: thread.thread_id, title: titleOfThread(thread), savedAt: isoOf(thread.updated_at) }];
  });
}

/**
 * The thread's run still going: running, else the latest pending. Asked for
 * by status (`runs.list` with `status`): the in-memory server slices a
 * thread's runs oldest first, so a plain list of the latest misses a run
 * going on a thread of many runs.
 */
async function runningRun(runs: NonNullable<LangGraphClientLike["runs"]>, threadId: string, limit: number, onWarning: ThreadCallOptions["onWarning"]): Promise<LangGraphRun | undefined> {
  for (const status of ["running", "pending"]) {
    let list: LangGraphRun[];
    try {
      list = await runs.list(threadId, { status, limit });
    } catch (error) {
      throw threadServerError("load", threadId, error);
    }
    if (!Array.isArray(list)) throw new AgUiThreadServerError("load", threadId, "unreadable");
    if (list.length >= limit) onWarning?.(new CarbonAgUiError(`Thread ${threadId} has ${limit} or more ${status} runs; only ${limit} were looked at for the one to rejoin (raise runsLookedAt)`));
    const found = list.filter((run) => isRecord(run) && typeof run.run_id === "string" && run.status === status);
    if (found.length > 0) return status === "running" ? found[0] : found.at(-1);
  }
  return undefined;
}

function titleOfThread(thread: LangGraphThread): string {
  const title = isRecord(thread.metadata) ? thread.metadata.title : undefined;
  if (typeof title === "string") return titleOf(title);
  const messages = isRecord(thread.values) ? thread.values.messages : undefined;
  if (!Array.isArray(messages)) return "";
  const first: unknown = messages.find((message: unknown) => isRecord(message) && message.type === "human");
  if (!isRecord(first)) return "";
  const { content } = first;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((part: unknown) => (isRecord(part) && part.type === "text" && typeof part.text === "string" ? part.text : ""))
            .filter(Boolean)
            .join(" ")
        : "";
  return titleOf(text);
}

function isoOf(time: unknown): string {
  if (typeof time !== "string") return new Date(0).toISOString();
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? time : date.toISOString();
}

