import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { defer, finalize, type Subscribable } from "rxjs";
import { fromObservable } from "./fromObservable";
import type { ObservableRunAgent } from "./runAgent";

/**
 * The part of an `@ag-ui/client` `HttpAgent` (or any `AbstractAgent`, such as
 * CopilotKit's `BuiltInAgent` or `MastraAgent`) that `fromAgent` uses. Its
 * `abortController`, when it has one, is used as described at `fromAgent`; it
 * is not part of the type, as `BuiltInAgent` declares it private. `run` is
 * typed loosely because agents built on another `@ag-ui/core` version
 * (CopilotKit 1.75 is on 0.0.59) declare their own input and event types;
 * the events are checked against AG-UI 1.0 downstream (`validateEvents`).
 */
export interface AgUiAgent {
  run(input: never): Subscribable<object>;
}

/** The agent as `fromAgent` drives it. */
type DrivenAgent = { abortController?: AbortController; run(input: RunAgentInput): Subscribable<BaseEvent> };

/**
 * A `RunAgent` over an `@ag-ui/client` agent, called only on subscription.
 *
 * Agents use `abortController` two ways. `HttpAgent` holds one between runs
 * and `run()` starts its fetch with the signal of whatever the field holds,
 * ignoring unsubscription: it gets a fresh controller for each run. Others
 * leave the field empty when idle and set their own in `run()`, as their
 * guard against a second run, aborting it when unsubscribed (CopilotKit's
 * `BuiltInAgent`): theirs is kept, as assigning one first would make `run()`
 * throw "Agent is already running". Either way the run's controller is
 * aborted when the run is unsubscribed or `signal` aborts: the request or the
 * model really stops.
 */
export function fromAgent(agent: AgUiAgent): ObservableRunAgent {
  const holder = agent as unknown as DrivenAgent;
  return (input, { signal }) =>
    defer(() => {
      if (holder.abortController !== undefined) holder.abortController = new AbortController();
      const events = holder.run(input);
      const controller = holder.abortController ?? new AbortController();
      // No reason: HttpAgent rethrows a body-cancel reason not named AbortError as an unhandled rejection,
      // and Carbon's reasons are plain strings. The default reason is an AbortError.
      const abort = () => controller.abort();
      if (signal.aborted) abort();
      else signal.addEventListener("abort", abort, { once: true });
      return fromObservable(events).pipe(
        finalize(() => {
          signal.removeEventListener("abort", abort);
          controller.abort();
        }),
      );
    });
}
