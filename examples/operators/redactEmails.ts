import { EventType } from "@ag-ui/core";
import { map, type MonoTypeOperatorFunction } from "rxjs";
import { isEventOfType, type PipelineElement } from "carbon-agui-rx";

const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;

/**
 * A user operator for `agUiToCarbon({ operators: [redactEmails()] })`: hides
 * e-mail addresses in streamed text before it is shown or kept in history.
 * It works per delta, so an address split across two deltas slips through;
 * buffer up to whitespace if that matters to you.
 */
export function redactEmails(): MonoTypeOperatorFunction<PipelineElement> {
  return map((element) =>
    isEventOfType(element, EventType.TEXT_MESSAGE_CONTENT) ? { ...element, delta: element.delta.replace(EMAIL, "[email]") } : element,
  );
}
