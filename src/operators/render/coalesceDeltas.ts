import { ignoreElements, Observable, tap, type MonoTypeOperatorFunction, type SchedulerLike, type Subscription } from "rxjs";
import type { CarbonPartialItemChunk, CarbonStreamChunk } from "../../carbon";
import { frameScheduler } from "../../internal/frameScheduler";
import { isJoinable, JoinedDeltas, sameItem } from "../../internal/joinedDeltas";

/** How often Carbon 1.9.1's markdown view shows new text, at most: sending merged text faster shows nothing more. */
export const CARBON_MARKDOWN_REFRESH_MS = 100;

/** The longest an adaptive window grows by default, reached only where a redraw costs 200 ms or more (a slow device, a long answer): see docs/architecture.md. */
export const MAX_ADAPTIVE_WINDOW_MS = 1_000;

/** The share of the main thread Carbon's redraws may take by default: a window lasts at least this many times a redraw's cost. */
export const RENDER_SHARE = 0.2;

/** How an adaptive window follows what each hand-over costs to render. */
export interface AdaptiveWindow {
  /**
   * What a chunk handed over cost its consumer to render, in milliseconds,
   * as each measurement comes in (the adapter reports the time from
   * `addMessageChunk` to the next animation frame).
   */
  renderCost: Observable<number>;
  /** The longest window. Default 1,000 ms (never less than `intervalMs`). */
  maxIntervalMs?: number;
  /** The share of the time redraws may take: a window lasts the last cost divided by it, within the bounds. Default 0.2. */
  renderShare?: number;
}

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
 * With `adaptive`, each new window lasts the latest `renderCost` divided by
 * `renderShare` (so redraws keep to that share of the time as the text, and
 * its redraw, grows), bounded by `intervalMs` and `maxIntervalMs`; a new item
 * starts again from `intervalMs` (the open window shortened to it), until a
 * cost comes in for it.
 *
 * ```
 * source: -a-(bcd)-(eC)-F|      a…e: text deltas of one item; C: its complete_item; F: final_response
 * result: -a-(bx)--(eC)-(F|)    x: c and d as one delta (the window's end, later in frame 3)
 * ```
 */
export function coalesceDeltas(
  scheduler: SchedulerLike = frameScheduler(),
  intervalMs = CARBON_MARKDOWN_REFRESH_MS,
  adaptive?: AdaptiveWindow,
): MonoTypeOperatorFunction<CarbonStreamChunk> {
  const maxIntervalMs = Math.max(intervalMs, adaptive?.maxIntervalMs ?? MAX_ADAPTIVE_WINDOW_MS);
  const renderShare = adaptive?.renderShare ?? RENDER_SHARE;
  return (source) =>
    new Observable<CarbonStreamChunk>((out) => {
      let waiting: JoinedDeltas | undefined;
      let window: Subscription | undefined;
      let windowOpenedAt = 0;
      let textSent = false;
      /** The latest render cost reported since the current item's first chunk. */
      let cost: number | undefined;
      /** The first chunk of the item whose deltas pass now: a chunk of another item resets `cost`. */
      let item: CarbonPartialItemChunk | undefined;
      const windowMs = () => (cost === undefined ? intervalMs : Math.min(maxIntervalMs, Math.max(intervalMs, cost / renderShare)));

      const sendWaiting = () => {
        if (!waiting) return;
        const chunk = waiting.toChunk();
        waiting = undefined;
        out.next(chunk);
      };
      const openWindow = (lastingMs: number) => {
        windowOpenedAt = scheduler.now();
        window = scheduler.schedule(endWindow, lastingMs);
      };
      // Scheduled before anything is sent, so a consumer that unsubscribes on that chunk also cancels it.
      const endWindow = () => {
        window = undefined;
        if (waiting) openWindow(windowMs());
        sendWaiting();
      };
      /** A new item starts from the shortest window: an open one ends `intervalMs` after it opened (at once if that has passed). */
      const startItem = (chunk: CarbonPartialItemChunk) => {
        item = chunk;
        if (cost === undefined) return;
        cost = undefined;
        if (!window) return;
        window.unsubscribe();
        window = scheduler.schedule(endWindow, Math.max(0, windowOpenedAt + intervalMs - scheduler.now()));
      };
      out.add(() => window?.unsubscribe());
      if (adaptive) out.add(adaptive.renderCost.subscribe({ next: (reported) => (cost = reported), error: (error: unknown) => out.error(error) }));

      return source
        .pipe(
          tap({
            next: (chunk) => {
              if (!isJoinable(chunk)) {
                sendWaiting();
                return out.next(chunk);
              }
              if (!item || !sameItem(item, chunk)) startItem(chunk);
              // The turn's first text goes out at once, even when options (reasoning, chain of thought) went out in this window.
              const firstText = !textSent && typeof chunk.partial_item.text === "string" && chunk.partial_item.text !== "";
              if (firstText) textSent = true;
              if (waiting?.accepts(chunk)) {
                waiting.add(chunk);
                if (firstText) sendWaiting();
                return;
              }
              sendWaiting();
              if (window && !firstText) {
                waiting = new JoinedDeltas(chunk);
                return;
              }
              if (!window) openWindow(windowMs());
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
