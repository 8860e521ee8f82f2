import { ignoreElements, Observable, tap, type MonoTypeOperatorFunction, type SchedulerLike, type Subscription } from "rxjs";
import { JOINED_TEXT_TYPES, type CarbonMessageOptions, type CarbonPartialItemChunk, type CarbonStreamChunk } from "../carbon";
import { frameScheduler } from "../internal/frameScheduler";
import { TextBuffer } from "../internal/textBuffer";

/** Partial chunks of one item waiting to go out as one. */
interface Waiting {
  first: CarbonPartialItemChunk;
  /** The joined text, once a second chunk has joined the first. */
  text?: TextBuffer;
  options?: CarbonMessageOptions;
}

/** How often Carbon 1.9.1's markdown view shows new text, at most: sending merged text faster shows nothing more. */
export const CARBON_MARKDOWN_REFRESH_MS = 100;

/**
 * Merges consecutive partial chunks of the same text item (text deltas, and
 * the reasoning and chain-of-thought updates that ride on them as
 * `message_options`) into one chunk per `intervalMs` (default 100 ms) and
 * per task of `scheduler`: Carbon 1.9.1 re-renders the whole chat for every
 * chunk (~1 ms, more as the text grows), so 3,000 deltas in a burst would
 * hold the page for seconds, while its markdown view shows at most one update
 * per 100 ms anyway. (Per frame instead of per 100 ms, a 12,000-character
 * burst took 1.5× as long to show as one delta, against 1.2×: each merged
 * chunk re-renders the whole text so far.)
 *
 * A delta that finds no window open goes out at once and opens one for
 * `intervalMs` on `scheduler` (0: until its next task — an animation frame in
 * a browser, else a macrotask);
 * so does the turn's first text, window or not, so the first words are never
 * delayed. Deltas within the window wait, merged; the window's end sends them
 * and opens the next. Any other chunk (a complete item, another item's delta,
 * the final response) and the source's end or error send what waits first, so
 * Carbon ends up with exactly what the unmerged chunks give it: text joined,
 * options merged as Carbon merges them. Chunks already sent are never changed.
 *
 * ```
 * source: -a-(bcd)-(eC)-F|      a…e: text deltas of one item; C: its complete_item; F: final_response
 * result: -a-(bx)--(eC)-(F|)    x: c and d as one delta (the window's end, later in frame 3)
 * ```
 */
export function coalesceDeltas(scheduler: SchedulerLike = frameScheduler(), intervalMs = CARBON_MARKDOWN_REFRESH_MS): MonoTypeOperatorFunction<CarbonStreamChunk> {
  return (source) =>
    new Observable<CarbonStreamChunk>((out) => {
      let waiting: Waiting | undefined;
      let window: Subscription | undefined;
      let textSent = false;

      const sendWaiting = () => {
        if (!waiting) return;
        const chunk = waiting.text ? merged(waiting) : waiting.first;
        waiting = undefined;
        out.next(chunk);
      };
      // Scheduled before anything is sent, so a consumer that unsubscribes on that chunk also cancels it.
      const endWindow = () => {
        window = waiting ? scheduler.schedule(endWindow, intervalMs) : undefined;
        sendWaiting();
      };
      out.add(() => window?.unsubscribe());

      return source
        .pipe(
          tap({
            next: (chunk) => {
              if (!isJoinable(chunk)) {
                sendWaiting();
                return out.next(chunk);
              }
              // The turn's first text goes out at once, even when options (reasoning, chain of thought) went out in this window.
              const firstText = !textSent && typeof chunk.partial_item.text === "string" && chunk.partial_item.text !== "";
              if (firstText) textSent = true;
              if (waiting && joins(waiting.first, chunk)) {
                join(waiting, chunk);
                if (firstText) sendWaiting();
                return;
              }
              sendWaiting();
              if (window && !firstText) {
                waiting = { first: chunk };
                return;
              }
              window ??= scheduler.schedule(endWindow, intervalMs);
              out.next(chunk);
            },
            complete: sendWaiting,
            error: sendWaiting,
          }),
          ignoreElements(),
        )
        .subscribe(out);
    });
}

/** A partial chunk of an item whose text Carbon joins. */
function isJoinable(chunk: CarbonStreamChunk): chunk is CarbonPartialItemChunk {
  // Carbon drops a chunk without a response id; such a chunk passes through as it is.
  return "partial_item" in chunk && JOINED_TEXT_TYPES.has(chunk.partial_item.response_type) && chunk.streaming_metadata?.response_id !== undefined;
}

function joins(first: CarbonPartialItemChunk, chunk: CarbonPartialItemChunk): boolean {
  const id = first.partial_item.streaming_metadata?.id;
  return (
    id !== undefined &&
    id === chunk.partial_item.streaming_metadata?.id &&
    first.partial_item.response_type === chunk.partial_item.response_type &&
    first.streaming_metadata.response_id === chunk.streaming_metadata.response_id
  );
}

function join(waiting: Waiting, chunk: CarbonPartialItemChunk): void {
  if (!waiting.text) {
    waiting.text = new TextBuffer();
    appendText(waiting.text, waiting.first);
    const options = waiting.first.partial_response?.message_options;
    if (options) waiting.options = options;
  }
  appendText(waiting.text, chunk);
  const options = chunk.partial_response?.message_options;
  if (options) waiting.options = waiting.options ? (mergeOptions(waiting.options, options) as CarbonMessageOptions) : options;
}

function appendText(text: TextBuffer, chunk: CarbonPartialItemChunk): void {
  if (typeof chunk.partial_item.text === "string") text.append(chunk.partial_item.text);
}

/** One chunk for the waiting ones: the first one's item (Carbon takes an item's fields from its first chunk) with the joined text. */
function merged({ first, text, options }: Waiting): CarbonPartialItemChunk {
  const item = Object.assign({}, first.partial_item);
  item.text = text!.toString();
  return { partial_item: item, ...(options && { partial_response: { message_options: options } }), streaming_metadata: first.streaming_metadata };
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
