import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { catchError, defer, finalize, from, mergeMap, throwError, throwIfEmpty, type Observable, type OperatorFunction } from "rxjs";
import type { CarbonStreamChunk } from "../carbon";
import { AgUiEmptyRunError, AgUiRunError, asCarbonAgUiError } from "../errors";
import type { CarbonInstruction, RunFinishedInstruction } from "../instructions";
import { pipeFused } from "../operators/fusion";
import { eachRun, RUN_BEGAN } from "../operators/runs/splitRuns";
import type { Turn } from "../internal/turn";
import { agUiToCarbonStages } from "../operators/agUiToCarbon";
import type { ResolvedOptions, RunPipelineParts } from "./options";

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
export function runEvents(turn: Turn, input: RunAgentInput, options: ResolvedOptions, parts: Omit<RunPipelineParts, "stop">, prelude: Prelude = []): Observable<RunElement> {
  const stop = turn.ended$;
  const pipeline = options.pipeline({ ...parts, stop });
  return defer(() => {
    // The run's own signal: aborted once the turn no longer needs it, after the pipeline has let go of it.
    const controller = new AbortController();
    return from(options.run(input, { signal: controller.signal })).pipe(
      // A runner that fails with an error of its own (in-process MastraAgent, instead of RUN_ERROR) fails the run.
      catchError((error: unknown) => throwError(() => asCarbonAgUiError(error, (message, errorOptions) => new AgUiRunError(message, undefined, errorOptions)))),
      // An answer of no events at all (CopilotKit's runtime while the thread is still busy) is no answer: the turn fails, saying so.
      throwIfEmpty(() => new AgUiEmptyRunError()),
      finalize(() => controller.abort()),
    );
  }).pipe(
    withPrelude(prelude),
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
