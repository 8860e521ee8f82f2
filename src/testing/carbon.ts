import { ERROR_ITEM_ID, OPTIONS_CARRIER_ID, type CarbonItem, type CarbonMessageOptions, type CarbonStreamChunk } from "carbon-agui-rx";

/** The response id `marbleTest` gives `agUiToCarbon()`, so expected chunks can use it. */
export const TEST_RESPONSE_ID = "r1";

/** Expected Carbon chunks, as `agUiToCarbon()` emits them, tersely. */
export const carbon = {
  /** A streamed text delta of item `itemId`. */
  partialText: (responseId: string, itemId: string, text: string): CarbonStreamChunk => ({
    partial_item: { response_type: "text", text, streaming_metadata: { id: itemId, cancellable: true } },
    streaming_metadata: { response_id: responseId },
  }),
  /** A finished item (any Carbon item; its `streaming_metadata.id` is `itemId`). */
  complete: (responseId: string, itemId: string, item: CarbonItem): CarbonStreamChunk => ({
    complete_item: { ...item, streaming_metadata: { ...item.streaming_metadata, id: itemId } },
    streaming_metadata: { response_id: responseId },
  }),
  /** A finished text item; `stopped` when the person stopped it ("Response stopped"). */
  completeText: (responseId: string, itemId: string, text: string, stopped = false): CarbonStreamChunk => ({
    complete_item: carbon.textItem(itemId, text, stopped),
    streaming_metadata: { response_id: responseId },
  }),
  /** A text item, as it appears in a final response. */
  textItem: (itemId: string, text: string, stopped = false): CarbonItem => ({
    response_type: "text",
    text,
    streaming_metadata: { id: itemId, ...(stopped && { stream_stopped: true }) },
  }),
  /** The inline error that ends a failed turn's final response, saying why. */
  inlineError: (text: string): CarbonItem => ({ response_type: "inline_error", text, streaming_metadata: { id: ERROR_ITEM_ID } }),
  /** Message options (chain of thought, reasoning) riding on an empty text delta of `itemId`, by default the options carrier. */
  options: (responseId: string, message_options: CarbonMessageOptions, itemId: string = OPTIONS_CARRIER_ID): CarbonStreamChunk => ({
    partial_item: { response_type: "text", text: "", streaming_metadata: { id: itemId, cancellable: true } },
    partial_response: { message_options },
    streaming_metadata: { response_id: responseId },
  }),
  /** The turn's final response. */
  final: (
    responseId: string,
    generic: CarbonItem[],
    extra: { errorState?: number; requestId?: string; messageOptions?: CarbonMessageOptions } = {},
  ): CarbonStreamChunk => ({
    final_response: {
      id: responseId,
      ...(extra.requestId !== undefined && { request_id: extra.requestId }),
      output: { generic },
      ...(extra.errorState !== undefined && { history: { error_state: extra.errorState } }),
      ...(extra.messageOptions !== undefined && { message_options: extra.messageOptions }),
    },
  }),
};
