import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { AgUiInvalidItemError } from "../../errors";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";
import { warnSkippedItem } from "../../internal/warnings";
import { carbonItemProblems, type UrlPolicy } from "../../itemAllowlist";
import type { CarbonItem } from "../../carbon";

export interface CarbonItemsOptions extends UrlPolicy {
  /** Called with each item Carbon could not render; it is skipped. Default: `console.warn`. A throw fails the turn. */
  onInvalidItem?: (item: unknown, error: AgUiInvalidItemError) => void;
}

/** The item options among `options` that are set: what live answers and restored ones are checked and shown with. */
export function itemOptionsOf({ onInvalidItem, allowHttp, allowUrl }: CarbonItemsOptions): CarbonItemsOptions {
  return { ...(onInvalidItem && { onInvalidItem }), ...(allowHttp !== undefined && { allowHttp }), ...(allowUrl && { allowUrl }) };
}

/** The CUSTOM event names this operator owns. */
export const CARBON_ITEM_EVENT = "carbon.item";
export const CARBON_ITEMS_EVENT = "carbon.items";

/**
 * The generative-UI seam: a CUSTOM event named `carbon.item` (one item) or
 * `carbon.items` (an array) becomes native Carbon items, each an
 * `item.complete`. Items must be ones Carbon 1.9.1 renders — a known
 * `response_type` with that type's required fields — and every URL in them,
 * nested ones too, must pass the URL policy (by default, absolute `https:`;
 * see `carbonItemProblems`); anything else goes to `onInvalidItem` and is
 * skipped. An item keeps its own
 * `streaming_metadata.id`, or gets `carbon-item-1`, `carbon-item-2`, … in
 * the turn. Other CUSTOM events pass through.
 *
 * ```
 * source: --c--x--|    c: CUSTOM carbon.item { response_type: "image", source }; x: another CUSTOM
 * result: --i--x--|    i: item.complete (the image)
 * ```
 */
export function carbonItems(options: CarbonItemsOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onInvalidItem = warnSkippedItem, ...policy } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => {
    let unnamed = 0;
    const emit = (item: unknown) => {
      const problems = carbonItemProblems(item, "item", policy);
      if (problems.length > 0) return onInvalidItem(item, new AgUiInvalidItemError(problems));
      const carbonItem = item as CarbonItem;
      out.next({ kind: "item.complete", itemId: carbonItem.streaming_metadata?.id ?? `carbon-item-${++unnamed}`, item: carbonItem });
    };
    return {
      next(element) {
        if (!isEventOfType(element, EventType.CUSTOM)) return out.next(element);
        if (element.name === CARBON_ITEM_EVENT) return emit(element.value);
        if (element.name !== CARBON_ITEMS_EVENT) return out.next(element);
        if (!Array.isArray(element.value)) return onInvalidItem(element.value, new AgUiInvalidItemError(["carbon.items: the value must be an array of items"]));
        for (const item of element.value) emit(item);
      },
    };
  }, [EventType.CUSTOM]);
}
