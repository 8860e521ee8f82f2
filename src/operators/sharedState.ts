import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../conversation";
import type { CarbonAgUiError } from "../errors";
import { isEventOfType, type PipelineElement } from "../instructions";
import { patchWarning } from "../internal/jsonPatch";
import { createOperator } from "../internal/operator";
import { warnOnConsole } from "../internal/warnings";

export interface SharedStateOptions {
  /** Told about a STATE_DELTA that was rolled back or had operations skipped. Default: `console.warn`. A throw fails the turn. */
  onWarning?: (warning: CarbonAgUiError) => void;
}

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
  const { onWarning = warnOnConsole } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if (isEventOfType(element, EventType.STATE_SNAPSHOT)) return conversation.replaceState(element.snapshot);
      if (!isEventOfType(element, EventType.STATE_DELTA)) return out.next(element);
      const warning = patchWarning(conversation.patchState(element.delta), "STATE_DELTA", "state", element.delta);
      if (warning) onWarning(warning);
    },
  }), [EventType.STATE_SNAPSHOT, EventType.STATE_DELTA]);
}
