import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import type { Observable, ObservableInput } from "rxjs";
import type { AgentThreads } from "../threads/agentThreads";

export interface RunAgentOptions {
  /** Aborted when the turn no longer needs the run: stop, restart, or the turn has ended. */
  signal: AbortSignal;
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
