import type { OperatorFunction } from "rxjs";
import {
  JOINED_TEXT_TYPES,
  MessageErrorState,
  type CarbonItem,
  type CarbonItemDelta,
  type CarbonItemStreamingMetadata,
  type CarbonMessageOptions,
  type CarbonMessageResponse,
  type CarbonStreamChunk,
} from "../../carbon";
import { describerOf } from "../../describeError";
import type { CarbonInstruction, PipelineElement, TurnEndInstruction } from "../../instructions";
import { randomId } from "../../internal/ids";
import { neutralizeAnywhere } from "../../internal/markdownHtml";
import { createOperator } from "../fusion";
import { addCompleteItem, addPartialItem, type StreamedItems } from "../../internal/carbonMerge";

export interface ToStreamChunksOptions {
  /** The Carbon response id of the turn. Default: a fresh random id for each subscription. */
  responseId?: string | (() => string);
  /** Carbon's request id, copied to the final response's `request_id`. */
  requestId?: string;
  /**
   * Words for a failed turn, shown to the person as Carbon's `inline_error`
   * item at the end of the turn's answer; returning `undefined` (or passing
   * `false`) shows none. Default: `describeError`.
   */
  describeError?: ((error: unknown) => string | undefined) | false;
  /**
   * What each final response shows, given its id and its items: the
   * adapter's feedback options and versions bar. Default: the items as they
   * are. A response with no item is not given to it.
   */
  finishAnswer?: (responseId: string, items: CarbonItem[]) => CarbonItem[];
}

/** The Carbon id of the inline error that says why a turn failed. */
export const ERROR_ITEM_ID = "carbon-agui-rx:error";

/**
 * The Carbon id of the empty text item that carries message options (chain of
 * thought, reasoning) before the turn has any text; the first text item of the
 * turn then streams into it, so no empty bubble is left behind.
 */
export const OPTIONS_CARRIER_ID = "carbon-agui-rx:answer";

/**
 * A copy of `item` with its own streaming metadata. This runs once per
 * streamed delta, and in V8 (Node 20) both `{ ...item, key }` and a spread
 * copy given a new key later cost ~1 µs, against ~40 ns for Object.assign.
 */
function withMetadata<T extends object>(item: T, streamingMetadata: CarbonItemStreamingMetadata): T & { streaming_metadata: CarbonItemStreamingMetadata } {
  const copy = Object.assign({}, item) as T & { streaming_metadata: CarbonItemStreamingMetadata };
  copy.streaming_metadata = streamingMetadata;
  return copy;
}

/**
 * Turns instructions into Carbon stream chunks, and is the one place that ends
 * a Carbon turn: every way the turn can end emits exactly one
 * `final_response` (id = the response id) holding every item so far.
 *
 * - `turn.end` finished, or the source completes: the final response, then complete.
 * - `turn.end` stopped (see `stopWhen()`): each open item as a `complete_item`
 *   with `stream_stopped: true`, the final response, then complete. Stopped
 *   before it showed anything, it ends with no response at all: an empty one
 *   would be an empty bubble, and Carbon waits on nothing it has not seen.
 * - `turn.end` failed, or the source errors: the final response, ending in
 *   an `inline_error` item that says why (`describeError`; "This answer is
 *   incomplete." first when text was shown), then the error.
 *   What the turn showed stays; the inline error is the one error the person
 *   sees (no `error_state`, whose generic line would be a second one).
 *
 * `options` instructions go out at once as `partial_response.message_options`
 * (everything so far, as Carbon merges by key and arrays by index) on an empty
 * delta of the turn's latest text item (Carbon shows them under the last
 * item); before any text, on an empty text item that the first text item then
 * takes over, unless another item came first (the text then follows that
 * item, as it came). The final response carries them too, and leaves out that
 * empty item if no text took it over and the turn has other items.
 *
 * Events that no operator mapped are ignored.
 *
 * ```
 * source: --d--d--c--t|      d: item.delta; c: item.complete; t: turn.end finished
 * result: --p--p--C--(F|)    p: partial_item; C: complete_item; F: final_response
 * ```
 */
export function toStreamChunks(options: ToStreamChunksOptions = {}): OperatorFunction<PipelineElement, CarbonStreamChunk> {
  return toStreamChunksKeeping(options, (_instruction): _instruction is never => false);
}

/** `toStreamChunks(options)`, passing on the instructions `keep` picks as they come, beside the chunks (for the adapter: `run.finished`, and the `turn.end` just before the final response). */
export function toStreamChunksKeeping<K extends CarbonInstruction>(options: ToStreamChunksOptions, keep: (instruction: CarbonInstruction) => instruction is K): OperatorFunction<PipelineElement, CarbonStreamChunk | K> {
  const { requestId } = options;
  const describe = describerOf(options.describeError);
  return createOperator<PipelineElement, CarbonStreamChunk | K>((out) => {
    const responseId = typeof options.responseId === "function" ? options.responseId() : (options.responseId ?? randomId());
    const chunkMetadata = { response_id: responseId };
    /** The turn's items, by Carbon's rules (`carbonMerge`): an open text item's text is in its buffer until the turn ends. */
    const items: StreamedItems = new Map();
    /** Carbon item ids by instruction item id: the same, except for the text item that took over the options carrier. */
    const carbonIds = new Map<string, string>();
    let unclaimedCarrier = false;
    /** An item came after the carrier: a text item taking the carrier over now would show before it. */
    let carrierPassed = false;
    let latestTextId: string | undefined;
    let messageOptions: CarbonMessageOptions | undefined;

    const carbonIdOf = (itemId: string, responseType: string) => {
      let carbonId = carbonIds.get(itemId);
      if (carbonId === undefined) {
        const takesOverCarrier = unclaimedCarrier && !carrierPassed && responseType === "text";
        if (takesOverCarrier) unclaimedCarrier = false;
        else if (unclaimedCarrier) carrierPassed = true;
        carbonId = takesOverCarrier ? OPTIONS_CARRIER_ID : itemId;
        carbonIds.set(itemId, carbonId);
      }
      if (responseType === "text") latestTextId = carbonId;
      return carbonId;
    };

    const emitOptions = (changed: CarbonMessageOptions) => {
      messageOptions = { ...messageOptions, ...changed };
      if (latestTextId === undefined) {
        latestTextId = OPTIONS_CARRIER_ID;
        unclaimedCarrier = true;
        addPartialItem(items, OPTIONS_CARRIER_ID, { response_type: "text", text: "" }, { id: OPTIONS_CARRIER_ID });
      }
      out.next({
        partial_item: { response_type: "text", text: "", streaming_metadata: { id: latestTextId, cancellable: true } },
        partial_response: { message_options: messageOptions },
        streaming_metadata: chunkMetadata,
      });
    };

    const emitFinal = (how: TurnEndInstruction["how"], error?: unknown) => {
      if (how === "stopped" && items.size === 0 && !messageOptions) return;
      for (const state of items.values()) if (state.text) state.item.text = state.text.toString();
      if (how === "stopped") {
        for (const [id, state] of items) {
          if (!state.open) continue;
          const stopped = withMetadata(state.item, { id, stream_stopped: true });
          items.set(id, { item: stopped, open: false });
          out.next({ complete_item: stopped, streaming_metadata: chunkMetadata });
        }
      }
      // An options carrier no text took over is dropped when other items can carry the options instead.
      const emptyCarrier = unclaimedCarrier && items.size > 1 && items.get(OPTIONS_CARRIER_ID)?.item.text === "";
      const generic = Array.from(items.values(), (state) => state.item).filter((item) => !(emptyCarrier && item.streaming_metadata?.id === OPTIONS_CARRIER_ID));
      const reason = how === "failed" ? describe?.(error) : undefined;
      if (reason) {
        const cutShort = generic.some((item) => JOINED_TEXT_TYPES.has(item.response_type) && item.text !== "");
        // Carbon renders the text as markdown without HTML; an agent's message in it must not become an image or a link attribute either.
        const text = neutralizeAnywhere(cutShort ? `This answer is incomplete. ${reason}` : reason);
        generic.push({ response_type: "inline_error", text, streaming_metadata: { id: ERROR_ITEM_ID } });
      }
      const response: CarbonMessageResponse = {
        id: responseId,
        ...(requestId !== undefined && { request_id: requestId }),
        output: { generic: options.finishAnswer && generic.length > 0 ? options.finishAnswer(responseId, generic) : generic },
        ...(how === "failed" && !reason && generic.length > 0 && { history: { error_state: MessageErrorState.FAILED_WHILE_STREAMING } }),
        ...(messageOptions && { message_options: messageOptions }),
      };
      out.next({ final_response: response });
    };

    const addDelta = (itemId: string, delta: CarbonItemDelta) => {
      itemId = carbonIdOf(itemId, delta.response_type);
      // A completed item that streams again (a reopened message) goes on from its text; the joined text lives in the buffer until the turn ends.
      addPartialItem(items, itemId, delta, { id: itemId });
      out.next({ partial_item: withMetadata(delta, { id: itemId, cancellable: true }), streaming_metadata: chunkMetadata });
    };

    return {
      next(element) {
        if ("type" in element) return;
        switch (element.kind) {
          case "item.delta":
            return addDelta(element.itemId, element.item);
          case "item.complete": {
            const carbonId = carbonIdOf(element.itemId, element.item.response_type);
            const item = withMetadata(element.item, { ...element.item.streaming_metadata, id: carbonId });
            addCompleteItem(items, carbonId, item);
            return out.next({ complete_item: item, streaming_metadata: chunkMetadata });
          }
          case "options":
            return emitOptions(element.options);
          case "turn.end":
            if (keep(element)) out.next(element);
            emitFinal(element.how, element.how === "failed" ? element.error : undefined);
            return element.how === "failed" ? out.error(element.error) : out.complete();
          default:
            if (keep(element)) out.next(element);
        }
      },
      complete: () => emitFinal("finished"),
      error: (error) => emitFinal("failed", error),
    };
  });
}
