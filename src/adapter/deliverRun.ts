import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { catchError, defer, EMPTY, finalize, from, identity, ignoreElements, mergeMap, Observable, of, tap, throwError, throwIfEmpty, type OperatorFunction } from "rxjs";
import type { CarbonStreamChunk } from "../carbon";
import { AgUiEmptyRunError, AgUiRunError, asCarbonAgUiError } from "../errors";
import type { CarbonInstruction, RunFinishedInstruction } from "../instructions";
import { agUiToCarbonStages } from "../operators/agUiToCarbon";
import { concatMapInFrames, FRAME_BUDGET_MS } from "../operators/delivery/concatMapInFrames";
import { pipeFused } from "../operators/fusion";
import { eachRun, RUN_BEGAN } from "../operators/runs/splitRuns";
import { joinConsecutiveDeltas } from "../internal/joinedDeltas";
import { renderCostMeter } from "../internal/renderCost";
import type { Turn } from "../internal/turn";
import type { ResolvedOptions, RunPipelineParts } from "./options";
import { approvalsRequested } from "./approvalsRequested";

/** What a run tells the turn: its first event came; it ended (with the last RUN_FINISHED of its stream, if any). */
export type RunSignal = typeof RUN_BEGAN | { kind: "run.ended"; finished?: RunFinishedInstruction };

/** How one run of a turn is started. */
export interface RunRequest {
  input: RunAgentInput;
  /** A run already going (rejoined after a reload): its events, in place of a new run of `input`. */
  events?: Observable<BaseEvent>;
  requestId?: string;
  prelude?: Prelude;
}

/**
 * Streams one run into Carbon: emits `RUN_BEGAN` on its first event and
 * `run.ended` once Carbon has the final response, or fails with the run's
 * error (after it). A turn that has ended starts no run: nothing to show, and
 * Carbon waits on nothing.
 *
 * Chunks go to Carbon one at a time, and a long queue drains a frame's
 * budget at a time so the page paints and the stop button works meanwhile.
 * After each wait, the deltas of one item still queued are joined, so the
 * queue never backs up behind the stream. Once the turn has ended, partial
 * chunks still queued are skipped: the stopped items' complete chunks and
 * the final response that follow carry all their text.
 *
 * A chunk Carbon refuses (a throw, a rejection) must not keep the chunks
 * after it, the final response above all, from Carbon: its queue would wait
 * forever. The run's error, else the first refusal, fails the run at the end.
 */
export function deliverRun(turn: Turn, request: RunRequest, options: ResolvedOptions, describeError: (error: unknown) => string | undefined): Observable<RunSignal> {
  return defer(() => {
    if (turn.ended) return EMPTY;
    const renderCost = renderCostMeter(options.scheduler);
    const deliver = (chunk: CarbonStreamChunk): Observable<Delivered> =>
      defer(() => {
        renderCost.handedOver();
        return Promise.resolve(turn.instance.messaging.addMessageChunk(chunk));
      }).pipe(
        ignoreElements(),
        catchError((refusal: unknown) => of({ kind: "refused" as const, refusal })),
      );
    const parts = { renderCost: renderCost.cost$, describeError, ...(request.requestId !== undefined && { requestId: request.requestId }) };
    return runEvents(turn, request, options, parts).pipe(
      // Keep the error until every chunk, the final response last, has reached Carbon.
      catchError((error: unknown) => of({ kind: "failed" as const, error })),
      // A queue that fell behind joins its deltas, so it hands Carbon a few chunks per frame, never a backlog.
      concatMapInFrames(
        (element: Delivered) => (!isChunk(element) ? of(element) : turn.ended && "partial_item" in element ? EMPTY : deliver(element)),
        options.scheduler,
        FRAME_BUDGET_MS,
        joinConsecutiveDeltas as (queued: Delivered[]) => Delivered[],
      ),
      endOfRun(),
      finalize(() => renderCost.stop()),
    );
  });
}

/** What goes through delivery: the run's elements, its error, and Carbon's refusals. */
type Delivered = RunElement | { kind: "failed"; error: unknown } | { kind: "refused"; refusal: unknown };

const isChunk = (element: Delivered): element is CarbonStreamChunk => !("kind" in element);

/**
 * Passes `RUN_BEGAN` on, and ends with `run.ended` (the last `run.finished`
 * seen) or, when the run failed or Carbon refused a chunk, with that error
 * (the run's own first): typed, as Carbon logs it with JSON.stringify.
 */
function endOfRun(): OperatorFunction<Delivered, RunSignal> {
  return (source) =>
    new Observable<RunSignal>((out) => {
      let finished: RunFinishedInstruction | undefined;
      let failure: { error: unknown } | undefined;
      let refusal: { error: unknown } | undefined;
      return source
        .pipe(
          tap({
            next(element) {
              if (isChunk(element)) return;
              if (element.kind === "run.began") out.next(element);
              else if (element.kind === "run.finished") finished = element;
              else if (element.kind === "failed") failure ??= { error: element.error };
              else refusal ??= { error: element.refusal };
            },
            complete() {
              const error = failure ?? refusal;
              if (error) out.error(asCarbonAgUiError(error.error));
              else out.next({ kind: "run.ended", ...(finished && { finished }) });
            },
          }),
          ignoreElements(),
        )
        .subscribe(out);
    });
}

/** What one run sends towards Carbon: its chunks, and the facts the adapter acts on. */
export type RunElement = CarbonStreamChunk | typeof RUN_BEGAN | RunFinishedInstruction;

/** Events to show right after the run's RUN_STARTED (frontend tool calls already answered). */
export type Prelude = readonly BaseEvent[];

/**
 * One run of a turn: the runner's events through `agUiToCarbon()`'s stages,
 * writing into the turn's conversation and stopped with the turn. Emits
 * `RUN_BEGAN` on the first event (the agent has the run: a resume's
 * decisions are consumed), the chunks, and each run's `run.finished`.
 * One stream may carry several runs: each streams into Carbon as its own
 * response, in turn.
 */
function runEvents(turn: Turn, { input, events, prelude = [] }: RunRequest, options: ResolvedOptions, parts: Omit<RunPipelineParts, "stop">): Observable<RunElement> {
  const stop = turn.ended$;
  const pipeline = options.pipeline({ ...parts, stop });
  return defer(() => {
    // The run's own signal: aborted once the turn no longer needs it, after the pipeline has let go of it.
    const controller = new AbortController();
    return from(events ?? options.run(input, { signal: controller.signal })).pipe(
      // A runner that fails with an error of its own (in-process MastraAgent, instead of RUN_ERROR) fails the run.
      catchError((error: unknown) => throwError(() => asCarbonAgUiError(error, (message, errorOptions) => new AgUiRunError(message, undefined, errorOptions)))),
      // An answer of no events at all (CopilotKit's runtime while the thread is still busy) is no answer: the turn fails, saying so.
      throwIfEmpty(() => new AgUiEmptyRunError()),
      finalize(() => controller.abort()),
    );
  }).pipe(
    withPrelude(prelude),
    // Approvals the tool server was asked for in the run, which its stream does not show, join it before its RUN_FINISHED
    // (a run rejoined is not the one `input` names).
    options.toolClient && !events ? approvalsRequested({ client: options.toolClient, conversation: turn.conversation, runId: input.runId, scheduler: options.scheduler, report: (warning) => options.onWarning(warning) }) : identity,
    eachRun(stop, options.scheduler, () => (run) =>
      defer(() => pipeFused(run, agUiToCarbonStages({ ...pipeline, ...options.recording(turn.conversation, parts.requestId) }, turn.conversation, isRunFinished)) as Observable<RunElement>),
    ),
  );
}

const isRunFinished = (instruction: CarbonInstruction) => instruction.kind === "run.finished";

/** Puts `prelude` right after the first RUN_STARTED. */
function withPrelude(prelude: Prelude): OperatorFunction<BaseEvent, BaseEvent> {
  return (events) => (prelude.length === 0 ? events : events.pipe(mergeMap((event, index) => (index === 0 && event.type === EventType.RUN_STARTED ? [event, ...prelude] : [event]))));
}
