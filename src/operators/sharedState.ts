import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../conversation";
import { AgUiStateDeltaError, type CarbonAgUiError } from "../errors";
import { isEventOfType, type PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";

export interface SharedStateOptions {
  /** Told about a STATE_DELTA that was rolled back or had operations skipped. Default: `console.warn`. A throw fails the turn. */
  onWarning?: (warning: CarbonAgUiError) => void;
}

const warn = (warning: CarbonAgUiError) => console.warn(`carbon-agui-rx: ${warning.message}`);

/**
 * Keeps the conversation's shared state: STATE_SNAPSHOT replaces it (any
 * JSON value), STATE_DELTA applies its RFC 6902 patch all or nothing. A patch
 * that fails leaves the state as it was and goes to `onWarning`, as do
 * operations that are not RFC 6902 ones (skipped, the rest applied). The state
 * events go no further; the state reaches the agent with the next run.
 *
 * ```
 * source: --s--d--x--|    s: STATE_SNAPSHOT; d: STATE_DELTA; x: anything else
 * result: --------x--|    conversation.state follows s and d
 * ```
 */
export function sharedState(conversation: Conversation, options: SharedStateOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onWarning = warn } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if (isEventOfType(element, EventType.STATE_SNAPSHOT)) return conversation.replaceState(element.snapshot);
      if (!isEventOfType(element, EventType.STATE_DELTA)) return out.next(element);
      const { error, dropped } = conversation.patchState(element.delta);
      if (error !== undefined) {
        const reason = error instanceof Error ? error.message : String(error);
        onWarning(new AgUiStateDeltaError(`A STATE_DELTA was not applied and the state is unchanged: ${reason}`, element.delta, { cause: error }));
      } else if (dropped.length > 0) {
        onWarning(new AgUiStateDeltaError(`Skipped ${dropped.length} operation(s) of a STATE_DELTA that RFC 6902 does not define: ${JSON.stringify(dropped)}`, element.delta));
      }
    },
  }));
}
