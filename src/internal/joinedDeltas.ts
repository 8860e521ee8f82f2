import { JOINED_TEXT_TYPES, type CarbonMessageOptions, type CarbonPartialItemChunk, type CarbonStreamChunk } from "../carbon";
import { TextBuffer } from "./textBuffer";

/** A partial chunk of an item whose text Carbon joins. */
export function isJoinable(chunk: CarbonStreamChunk): chunk is CarbonPartialItemChunk {
  // Carbon drops a chunk without a response id; such a chunk passes through as it is.
  return "partial_item" in chunk && JOINED_TEXT_TYPES.has(chunk.partial_item.response_type) && chunk.streaming_metadata?.response_id !== undefined;
}

/** True when Carbon would add `chunk` to the same item as `first`. */
export function sameItem(first: CarbonPartialItemChunk, chunk: CarbonPartialItemChunk): boolean {
  const id = first.partial_item.streaming_metadata?.id;
  return (
    id !== undefined &&
    id === chunk.partial_item.streaming_metadata?.id &&
    first.partial_item.response_type === chunk.partial_item.response_type &&
    first.streaming_metadata.response_id === chunk.streaming_metadata.response_id
  );
}

/**
 * Consecutive partial chunks of one item, joined as Carbon joins them: the
 * text concatenated, `message_options` merged. `toChunk()` gives one chunk
 * that leaves Carbon exactly where the chunks one by one would.
 */
export class JoinedDeltas {
  /** The joined text, once a second chunk has joined the first. */
  private text: TextBuffer | undefined;
  private options: CarbonMessageOptions | undefined;

  constructor(readonly first: CarbonPartialItemChunk) {}

  /** True when `chunk` belongs to the same item (call `add` then). */
  accepts(chunk: CarbonStreamChunk): chunk is CarbonPartialItemChunk {
    return isJoinable(chunk) && sameItem(this.first, chunk);
  }

  add(chunk: CarbonPartialItemChunk): void {
    if (!this.text) {
      this.text = new TextBuffer();
      appendText(this.text, this.first);
      this.options = this.first.partial_response?.message_options;
    }
    appendText(this.text, chunk);
    const options = chunk.partial_response?.message_options;
    if (options) this.options = this.options ? (mergeOptions(this.options, options) as CarbonMessageOptions) : options;
  }

  /** The first chunk's item (Carbon takes an item's fields from its first chunk) with the joined text; the first chunk itself when alone. */
  toChunk(): CarbonPartialItemChunk {
    if (!this.text) return this.first;
    const item = Object.assign({}, this.first.partial_item);
    item.text = this.text.toString();
    const { options } = this;
    return { partial_item: item, ...(options && { partial_response: { message_options: options } }), streaming_metadata: this.first.streaming_metadata };
  }
}

/**
 * The chunks with each run of consecutive partial chunks of one text item
 * joined into one: what a queue that fell behind hands Carbon instead of
 * thousands of partial chunks. Every other chunk stays as it is, in order.
 */
export function joinConsecutiveDeltas(chunks: readonly CarbonStreamChunk[]): CarbonStreamChunk[] {
  const joined: CarbonStreamChunk[] = [];
  let run: JoinedDeltas | undefined;
  for (const chunk of chunks) {
    if (run?.accepts(chunk)) {
      run.add(chunk);
      continue;
    }
    if (run) joined.push(run.toChunk());
    run = isJoinable(chunk) ? new JoinedDeltas(chunk) : undefined;
    if (!run) joined.push(chunk);
  }
  if (run) joined.push(run.toChunk());
  return joined;
}

function appendText(text: TextBuffer, chunk: CarbonPartialItemChunk): void {
  if (typeof chunk.partial_item.text === "string") text.append(chunk.partial_item.text);
}

/**
 * `later` merged into `earlier` the way Carbon merges message options
 * (lodash `merge`: objects by key, arrays by index, an undefined value leaves
 * what was there), into new containers: neither argument is changed, as both
 * may be in chunks already sent.
 */
function mergeOptions(earlier: unknown, later: unknown): unknown {
  if (later === undefined) return earlier;
  if (!isContainer(earlier) || !isContainer(later) || Array.isArray(earlier) !== Array.isArray(later)) return later;
  const result: Record<string, unknown> = Array.isArray(earlier) ? ([...earlier] as unknown as Record<string, unknown>) : { ...earlier };
  for (const key of Object.keys(later)) result[key] = mergeOptions(result[key], (later as Record<string, unknown>)[key]);
  return result;
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
