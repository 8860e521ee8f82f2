import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { defer, finalize, type Subscribable } from "rxjs";
import { fromObservable } from "./fromObservable";
import type { ObservableRunAgent } from "./runAgent";

/** The part of an `@ag-ui/client` `HttpAgent` (or any `AbstractAgent` like it) that `fromAgent` uses. */
export interface AgUiAgent {
  abortController: AbortController;
  run(input: RunAgentInput): Subscribable<BaseEvent>;
}

/**
 * A `RunAgent` over an `@ag-ui/client` agent. `agent.run()` starts its fetch
 * when called and ignores unsubscription, so this calls it only on
 * subscription, gives each run a fresh `AbortController`, and aborts it when
 * the run is unsubscribed or `signal` aborts: the HTTP request really stops.
 */
export function fromAgent(agent: AgUiAgent): ObservableRunAgent {
  return (input, { signal }) =>
    defer(() => {
      const controller = new AbortController();
      // No reason: HttpAgent rethrows a body-cancel reason not named AbortError as an unhandled rejection,
      // and Carbon's reasons are plain strings. The default reason is an AbortError.
      const abort = () => controller.abort();
      if (signal.aborted) abort();
      else signal.addEventListener("abort", abort, { once: true });
      agent.abortController = controller;
      return fromObservable(agent.run(input)).pipe(
        finalize(() => {
          signal.removeEventListener("abort", abort);
          controller.abort();
        }),
      );
    });
}
