import { JOINED_TEXT_TYPES, type CarbonItem, type CarbonItemDelta, type CarbonItemStreamingMetadata, type CarbonMessageOptions } from "../carbon";
import { TextBuffer } from "./textBuffer";

/*
 * How Carbon AI Chat 1.9.1 builds a message from the stream chunks of one
 * response, written once for toStreamChunks (the items it ends a turn with),
 * ResponseDraft (a response saved while it streams) and JoinedDeltas (the
 * chunks a queue joins):
 *
 * - an item is known by its `streaming_metadata.id`;
 * - a partial item of a type whose text Carbon joins (`JOINED_TEXT_TYPES`)
 *   carries a delta: it is appended to the item's text;
 * - a partial item's other fields assign over the item's (Carbon shows an
 *   item's fields from its first chunk until it completes; the complete item
 *   or the final response then carries the latest);
 * - a complete item replaces what streamed under its id; a complete item
 *   that streams again goes on from its text (Carbon itself shows the
 *   complete text until the final response, which carries the whole);
 * - `partial_response.message_options` merge into the message's as Carbon
 *   merges them (lodash `merge`: by key, arrays by index);
 * - the final response replaces everything.
 *
 * The testing kit's recorder of chunks models Carbon on its own, on purpose, and
 * spec/e2e/recorder.e2e.ts checks it against Carbon in Chromium.
 */

/** Whether Carbon joins the partial `text` of an item of this type, each partial chunk a delta. */
export const joinsText = (responseType: string | undefined): boolean => responseType !== undefined && JOINED_TEXT_TYPES.has(responseType);

/** A partial item's text delta, appended to `text` (an empty or missing one adds nothing). */
export function appendTextDelta(text: TextBuffer, delta: Partial<CarbonItem>): void {
  if (typeof delta.text === "string" && delta.text !== "") text.append(delta.text);
}

/** One item of a message being built. */
export interface StreamedItem {
  item: CarbonItem;
  /** Still streaming: `item` is the builder's own copy, extended in place, until a complete item replaces it. */
  open: boolean;
  /** The text so far of an open item whose text Carbon joins; `item.text` is stale meanwhile. */
  text?: TextBuffer;
}

/** A message's items by Carbon item id, in the order they began. */
export type StreamedItems = Map<string, StreamedItem>;

/**
 * Adds a partial item to the item `id`: a new item, or a complete one that
 * streams again, starts as a copy of the delta over what was there (given
 * `metadata` as its streaming metadata, when set), joining its text if
 * Carbon joins it; an open item takes the delta's fields in place. Costs
 * what the delta holds: one copy when an item opens, none after.
 */
export function addPartialItem(items: StreamedItems, id: string, delta: CarbonItemDelta, metadata?: CarbonItemStreamingMetadata): StreamedItem {
  let state = items.get(id);
  if (state?.open) {
    // Object.assign into an object of our own: ~40 ns a delta in V8, where a spread copy costs ~1 µs.
    Object.assign(state.item, delta);
  } else {
    const before = state?.item;
    const item = Object.assign({}, before, delta) as CarbonItem;
    if (metadata) item.streaming_metadata = metadata;
    state = { item, open: true };
    if (joinsText(delta.response_type)) {
      state.text = new TextBuffer();
      if (typeof before?.text === "string") state.text.append(before.text);
    }
    items.set(id, state);
  }
  if (state.text) appendTextDelta(state.text, delta);
  return state;
}

/** Adds a complete item: it replaces what streamed under `id`, and is kept as it is (it may be in a chunk already sent). */
export function addCompleteItem(items: StreamedItems, id: string, item: CarbonItem): void {
  items.set(id, { item, open: false });
}

/**
 * `later` merged into `earlier` the way Carbon merges message options
 * (lodash `merge`: objects by key, arrays by index, an undefined value leaves
 * what was there), into new containers: neither argument is changed, as both
 * may be in chunks already sent. A value that is the very one already there
 * is kept as it is, so merging options that repeat what was sent (the whole
 * set each time, most steps unchanged) costs what changed, not the whole.
 */
export function mergeMessageOptions(earlier: CarbonMessageOptions | undefined, later: CarbonMessageOptions): CarbonMessageOptions {
  return merge(earlier, later) as CarbonMessageOptions;
}

function merge(earlier: unknown, later: unknown): unknown {
  if (later === undefined || later === earlier) return earlier;
  if (!isContainer(earlier) || !isContainer(later) || Array.isArray(earlier) !== Array.isArray(later)) return later;
  const result: Record<string, unknown> = Array.isArray(earlier) ? ([...earlier] as unknown as Record<string, unknown>) : { ...earlier };
  for (const key of Object.keys(later)) result[key] = merge(result[key], (later as Record<string, unknown>)[key]);
  return result;
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
