import type { CarbonMessageOptions, CarbonPartialItemChunk, CarbonStreamChunk } from "../carbon";
import { appendTextDelta, joinsText, mergeMessageOptions } from "./carbonMerge";
import { TextBuffer } from "./textBuffer";

/** A partial chunk of an item whose text Carbon joins. */
export function isJoinable(chunk: CarbonStreamChunk): chunk is CarbonPartialItemChunk {
  // Carbon drops a chunk without a response id; such a chunk passes through as it is.
  return "partial_item" in chunk && joinsText(chunk.partial_item.response_type) && chunk.streaming_metadata?.response_id !== undefined;
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
 * Consecutive partial chunks of one item, joined as Carbon joins them (the
 * rules of `carbonMerge`): the text concatenated, `message_options` merged.
 * `toChunk()` gives one chunk that leaves Carbon exactly where the chunks
 * one by one would.
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
      appendTextDelta(this.text, this.first.partial_item);
      this.options = this.first.partial_response?.message_options;
    }
    appendTextDelta(this.text, chunk.partial_item);
    const options = chunk.partial_response?.message_options;
    if (options) this.options = mergeMessageOptions(this.options, options);
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
