import type { RunAgentInput } from "@ag-ui/core";

/** The part of a LangGraph SDK client's `runs` a stop uses. */
interface LangGraphRuns {
  cancel(threadId: string, runId: string): Promise<unknown>;
  stream(...args: never[]): unknown;
}

/** What the LangGraph SDK tells `onRunCreated`: the id the server gave the run. */
interface CreatedRun {
  run_id: string;
  thread_id?: string;
}

/**
 * A stop that reaches the server's run for an agent that runs a LangGraph
 * SDK client (`@ag-ui/langgraph`'s `LangGraphAgent`), or undefined for any
 * other agent. The agent cancels under the client's run id until its first
 * event names the server's; stopped before that, it cancels nothing, the
 * server's run goes on, and the next run on the thread fails ("Thread is
 * already running a task"). The SDK names the run as soon as the server has
 * created it (`onRunCreated`, which the agent passes on from the run's
 * `forwardedProps`), and the stop cancels it under that id.
 */
export function serverRunStop(runner: unknown, input: RunAgentInput): { input: RunAgentInput; stop(): void } | undefined {
  const runs = (runner as { client?: { runs?: Partial<LangGraphRuns> } } | undefined)?.client?.runs;
  if (typeof runs?.cancel !== "function" || typeof runs.stream !== "function") return undefined;
  const { cancel } = runs as LangGraphRuns;
  let created: CreatedRun | undefined;
  let stopped = false;
  const cancelCreated = () => {
    if (created) void cancel.call(runs, created.thread_id ?? input.threadId, created.run_id).catch(() => undefined);
  };
  const onRunCreated = (run: CreatedRun) => {
    created = run;
    if (stopped) cancelCreated();
  };
  return {
    input: { ...input, forwardedProps: { ...(input.forwardedProps as object | undefined), onRunCreated } },
    stop: () => {
      stopped = true;
      cancelCreated();
    },
  };
}
