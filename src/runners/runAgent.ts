import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import type { Observable, ObservableInput, SchedulerLike } from "rxjs";
import type { CarbonAgUiError } from "../errors";
import type { AgentThreads } from "../threads/agentThreads";

export interface RunAgentOptions {
  /** Aborted when the adapter no longer needs the run's stream: stop, restart, or nothing more may come of it. */
  signal: AbortSignal;
  /** The adapter's scheduler: whatever a runner times, it times on it (one clock). */
  scheduler?: SchedulerLike;
  /** The adapter's `onWarning`: a runner reports a limit that bit there, as the adapter's own warnings are. */
  onWarning?: (warning: CarbonAgUiError) => void;
}

/**
 * Starts one agent run: any rxjs `ObservableInput` of AG-UI events (an
 * Observable, an AsyncIterable, …). It should start its work on subscription
 * and stop it when unsubscribed or when `signal` aborts.
 */
export type RunAgent = ((input: RunAgentInput, options: RunAgentOptions) => ObservableInput<BaseEvent>) & {
  /** Where the agent keeps its threads, when it does (`fromAgent` finds it): the adapter restores and lists threads from there. */
  threads?: AgentThreads;
};

/** A `RunAgent` whose runs are rxjs Observables, as `createSseRunner` and `fromAgent` make: pipe a run straight into `agUiToCarbon()`. */
export type ObservableRunAgent = ((input: RunAgentInput, options: RunAgentOptions) => Observable<BaseEvent>) & { threads?: AgentThreads };
