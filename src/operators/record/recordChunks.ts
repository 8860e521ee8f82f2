import { Subject, type MonoTypeOperatorFunction } from "rxjs";
import type { CarbonStreamChunk } from "../../carbon";
import type { PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";
import { toStreamChunks, type ToStreamChunksOptions } from "../render/toStreamChunks";

/**
 * Passes everything through unchanged, and gives `record` the Carbon chunks
 * the instructions so far make, as `toStreamChunks(options)` makes them: put
 * before `escapeHtml()`, what a snapshot keeps is the agent's text as it
 * was, which restoring escapes as live text is. With the same string
 * `responseId`, the recorded chunks carry the live response's id. The record
 * ends the way the live answer does (a source error ends it failed, with the
 * same inline error); the error itself goes on down the pipeline. A source
 * error that `unfinishedOn` picks leaves the record unfinished instead (no
 * final response): what the answer came to is another's to tell (the
 * agent's server, where it keeps threads, when the connection broke).
 *
 * ```
 * source: --d--t|    d: item.delta "Hi"; t: turn.end finished
 * result: --d--t|    record sees: partial_item "Hi", then final_response
 * ```
 */
export function recordChunks(record: (chunk: CarbonStreamChunk) => void, options: ToStreamChunksOptions, unfinishedOn: (error: unknown) => boolean = () => false): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      const recorded = new Subject<PipelineElement>();
      const recording = recorded.pipe(toStreamChunks(options)).subscribe({ next: record, error: () => undefined });
      return {
        next(element) {
          recorded.next(element);
          out.next(element);
        },
        complete: () => recorded.complete(),
        // The record ends as the live answer does: a source error is a failed turn, with its inline error.
        error: (error) => (unfinishedOn(error) ? recording.unsubscribe() : recorded.error(error)),
      };
    },
    ["item.delta", "item.complete", "options", "turn.end"],
  );
}
