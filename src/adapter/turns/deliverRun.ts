import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import {
  catchError,
  concat,
  connectable,
  defer,
  EMPTY,
  finalize,
  from,
  ignoreElements,
  mergeMap,
  Observable,
  of,
  ReplaySubject,
  skip,
  take,
  takeUntil,
  tap,
  throwError,
  throwIfEmpty,
  type OperatorFunction,
  type Subscription,
} from "rxjs";
import type { CarbonStreamChunk } from "../../carbon";
import { AgUiConnectionError, AgUiEmptyRunError, AgUiProtocolError, AgUiRunError, asCarbonAgUiError } from "../../errors";
import type { CarbonInstruction, RunFinishedInstruction, TurnEndInstruction } from "../../instructions";
import type { RunAnswer, RunEnd } from "../../thread/log";
import { answeredBefore } from "../../thread/prelude";
import type { LiveRun } from "../../thread/thread";
import { agUiToCarbonStages } from "../../operators/agUiToCarbon";
import { concatMapInFrames, FRAME_BUDGET_MS } from "../../operators/delivery/concatMapInFrames";
import { createOperator, pipeFused } from "../../operators/fusion";
import { splitRuns, type StreamRun } from "../../operators/runs/splitRuns";
import { joinConsecutiveDeltas } from "../../internal/joinedDeltas";
import { renderCostMeter } from "../../internal/renderCost";
import type { ResolvedOptions, RunPipelineParts } from "../options";
import type { Turn } from "./turn";

/** The stream's first event came: the agent has the run (a resume's decisions are consumed). */
export const RUN_BEGAN = { kind: "run.began" } as const;

/** What a run tells the turn: its first event came; it ended, as the thread's log now says (with its RUN_FINISHED, if any). */
export type RunSignal = typeof RUN_BEGAN | { kind: "run.ended"; ended: RunEnd; finished?: RunFinishedInstruction };

/** How one run of a turn is started. */
export interface RunRequest {
  input: RunAgentInput;
  /** A run already going (rejoined after a reload, or a later run of a stream): its events, in place of a new run of `input`. */
  events?: Observable<BaseEvent>;
  requestId?: string;
  /** The interrupts its resume answers, and how. */
  answers?: readonly RunAnswer[];
  /** A run the chat makes itself (a card for an approval that came late). */
  origin?: "chat";
}

/** What delivering a run needs besides its turn: the options, the words for a failure, and who follows what its stream brings after it. */
export interface RunDelivery {
  options: ResolvedOptions;
  describeError: (error: unknown) => string | undefined;
  /** Takes what a run's stream brings after the run (see `StreamTails`). */
  follow: (rest: Observable<StreamRun>, cut: () => void, turn: Turn, requestId: string | undefined) => void;
  /** With a tool server: hears of each run of ours that finished (not cancelled), by the id the agent was given (see `LateApprovals`); `turnRuns` tells it. */
  finished?: (runId: string, turn: Turn) => void;
}

/**
 * Streams one run into Carbon: emits `RUN_BEGAN` on its first event and
 * `run.ended` once Carbon has the final response, or fails with the run's
 * error (after it). A turn that has ended starts no run: nothing to show, and
 * Carbon waits on nothing.
 *
 * The run is the first of its stream; the stream is read once, and what it
 * brings after the run's end goes to `delivery.follow`: the turn is over at
 * its run's end, and a later run of the same stream is a turn of its own. A
 * turn ended early (the stop button, a restart) lets go of the stream, and
 * so does a run that broke the protocol (what follows it cannot be trusted
 * to begin a run); a RUN_ERROR is a run's end like any other.
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
export function deliverRun(turn: Turn, request: RunRequest, delivery: RunDelivery): Observable<RunSignal> {
  const { options, describeError } = delivery;
  return defer(() => {
    if (turn.ended) return EMPTY;
    const live = turn.thread.beginRun({
      runId: request.input.runId,
      ...(request.requestId !== undefined && { requestId: request.requestId }),
      ...(request.answers && { answers: request.answers }),
      ...(request.input.parentRunId !== undefined && { parentRunId: request.input.parentRunId }),
      ...(request.origin && { origin: request.origin }),
    });
    const renderCost = renderCostMeter(options.scheduler);
    /** Whether the run's final response went out: Carbon shows it. */
    let responded = false;
    const deliver = (chunk: CarbonStreamChunk): Observable<Delivered> =>
      defer(() => {
        renderCost.handedOver();
        responded ||= "final_response" in chunk;
        return Promise.resolve(turn.instance.messaging.addMessageChunk(chunk));
      }).pipe(
        ignoreElements(),
        catchError((refusal: unknown) => of({ kind: "refused" as const, refusal })),
      );
    const parts = { renderCost: renderCost.cost$, describeError, ...(request.requestId !== undefined && { requestId: request.requestId }) };
    return runEvents(turn, request, live, delivery, parts).pipe(
      // Keep the error until every chunk, the final response last, has reached Carbon.
      catchError((error: unknown) => of({ kind: "failed" as const, error })),
      // A queue that fell behind joins its deltas, so it hands Carbon a few chunks per frame, never a backlog.
      concatMapInFrames(
        (element: Delivered) => (!isChunk(element) ? of(element) : turn.ended && "partial_item" in element ? EMPTY : deliver(element)),
        options.scheduler,
        FRAME_BUDGET_MS,
        joinConsecutiveDeltas as (queued: Delivered[]) => Delivered[],
      ),
      endOfRun(live, { describeError, responded: () => responded, endedEarly: () => turn.ended, goesOn: (error) => options.threads !== undefined && error instanceof AgUiConnectionError }),
      finalize(() => renderCost.stop()),
    );
  });
}

/** What goes through delivery: the run's elements, its error, and Carbon's refusals. */
type Delivered = RunElement | { kind: "failed"; error: unknown } | { kind: "refused"; refusal: unknown };

const isChunk = (element: Delivered): element is CarbonStreamChunk => !("kind" in element);

/** What `endOfRun` reads of the run beside its elements. */
interface RunEndFacts {
  describeError: (error: unknown) => string | undefined;
  /** Whether the run's final response went out: Carbon shows it. */
  responded: () => boolean;
  /** Whether the turn was ended early (the stop button, a restart, a reset): a run it ended before the pipeline could say so was stopped. */
  endedEarly: () => boolean;
  /** Whether a failure leaves the run going where the agent keeps threads. */
  goesOn: (error: unknown) => boolean;
}

/**
 * Passes `RUN_BEGAN` on, and, once every chunk is in Carbon, writes how the
 * run ended into the thread's log, the one place it is decided: its
 * `turn.end`, else its failure, else stopped when the turn ended early (before
 * its first event), else finished; with the words the chat showed for a
 * failure, and whether a final response went out. It then ends with
 * `run.ended` or, when the run failed or Carbon refused a chunk, with that
 * error (the run's own first): typed, as Carbon logs it with JSON.stringify.
 */
function endOfRun(live: LiveRun, { describeError, responded, endedEarly, goesOn }: RunEndFacts): OperatorFunction<Delivered, RunSignal> {
  return (source) =>
    new Observable<RunSignal>((out) => {
      let finished: RunFinishedInstruction | undefined;
      let how: TurnEndInstruction["how"] | undefined;
      let failure: { error: unknown } | undefined;
      let refusal: { error: unknown } | undefined;
      return source
        .pipe(
          tap({
            next(element) {
              if (isChunk(element)) return;
              if (element.kind === "run.began") out.next(element);
              else if (element.kind === "run.finished") finished = element;
              else if (element.kind === "turn.end") how = element.how;
              else if (element.kind === "failed") failure ??= { error: element.error };
              else refusal ??= { error: element.refusal };
            },
            complete() {
              // Where the agent keeps threads, a broken connection is no end of its run: it goes on there (a reload breaks it).
              const ended = failure ? (goesOn(failure.error) ? "open" : "failed") : (how ?? (endedEarly() ? "stopped" : "finished"));
              const shown = failure && describeError(failure.error);
              live.end(ended, { responded: responded(), ...(failure && { failure: { message: messageOf(failure.error), ...(shown !== undefined && { shown }) } }) });
              const error = failure ?? refusal;
              if (error) out.error(asCarbonAgUiError(error.error));
              else out.next({ kind: "run.ended", ended, ...(finished && { finished }) });
            },
          }),
          ignoreElements(),
        )
        .subscribe(out);
    });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What one run sends towards Carbon: its chunks, and the facts the adapter acts on. */
export type RunElement = CarbonStreamChunk | typeof RUN_BEGAN | RunFinishedInstruction | TurnEndInstruction;

/**
 * The first run of the runner's stream (or of `events`), through
 * `agUiToCarbon()`'s stages, each of its events into the thread's log as it
 * comes (before the stages, which write the conversation), stopped with the
 * turn: `RUN_BEGAN` on its first event, then its chunks, its `run.finished`
 * and its `turn.end`. What the log says the run shows first (`prelude`: the
 * calls the chat answered since the run before) goes right after its
 * RUN_STARTED. The stream is read once: a turn ended early lets go of it
 * (which aborts the run's request); otherwise, once the run is over, what
 * the stream brings next goes to `delivery.follow`, which lets go of it
 * when nothing more may come.
 */
function runEvents(turn: Turn, { input, events, requestId, answers }: RunRequest, live: LiveRun, { options, follow }: RunDelivery, parts: Omit<RunPipelineParts, "stop">): Observable<RunElement> {
  const stop = turn.ended$;
  const pipeline = options.pipeline({ ...parts, stop });
  return defer(() => {
    // The run's own signal: aborted once the stream is let go of.
    const controller = new AbortController();
    const source = defer(() => from(events ?? options.run(input, { signal: controller.signal, scheduler: options.scheduler, onWarning: options.onWarning }))).pipe(
      // A runner that fails with an error of its own (in-process MastraAgent, instead of RUN_ERROR) fails the run.
      catchError((error: unknown) => throwError(() => asCarbonAgUiError(error, (message, errorOptions) => new AgUiRunError(message, undefined, errorOptions)))),
      // An answer of no events at all (CopilotKit's runtime while the thread is still busy) is no answer: the turn fails, saying so.
      throwIfEmpty(() => new AgUiEmptyRunError()),
      finalize(() => controller.abort()),
    );
    const runs = connectable(source.pipe(splitRuns()), { connector: () => new ReplaySubject<StreamRun>(), resetOnDisconnect: false });
    const stages = {
      ...pipeline,
      responseId: live.entry.responseId,
      answeredCalls: answeredBefore(turn.conversation, live.opening.prelude),
      saidBeforeResume: live.opening.saidBeforeResume,
      answering: (answers ?? []).map((answer) => answer.interruptId),
    };
    return new Observable<RunElement>((subscriber) => {
      let connection: Subscription | undefined;
      let letGoOf = false;
      const cut = () => {
        letGoOf = true;
        connection?.unsubscribe();
      };
      // Stopped, restarted: the stream goes with the turn.
      const stopped = turn.ended$.subscribe(cut);
      /** The run broke the protocol: what its stream brings next cannot be trusted to begin a run. */
      let broken = false;
      const played = runs
        .pipe(
          // Ended before its run began: nothing to show. Once it has begun, the run's own pipeline ends it (`stopWhen`).
          takeUntil(turn.ended$),
          take(1),
          mergeMap(({ first, events: run }) =>
            concat(
              first === undefined ? EMPTY : of(RUN_BEGAN),
              pipeFused(run, [recorded(live), ...agUiToCarbonStages(stages, turn.conversation, keptForTheTurn)]) as Observable<RunElement>,
            ),
          ),
          tap({ error: (error: unknown) => (broken = error instanceof AgUiProtocolError) }),
          finalize(() => {
            stopped.unsubscribe();
            if (turn.ended || broken) cut();
            else follow(runs.pipe(skip(1)), cut, turn, requestId);
          }),
        )
        .subscribe(subscriber);
      // Connected once the run's pipeline listens: a run's events then flow straight through it, never held in a buffer.
      connection = runs.connect();
      if (letGoOf) connection.unsubscribe();
      return played;
    });
  });
}

/** What the turn reads of a run beside its chunks: its RUN_FINISHED, as `runOutcome` read it, and how it ended. */
const keptForTheTurn = (instruction: CarbonInstruction) => instruction.kind === "run.finished" || instruction.kind === "turn.end";

/**
 * The run's first stage (fused with the pipeline's): each event into the
 * thread's log as it comes, and what the log says the run shows first
 * (`live.opening.prelude`) right after its first event, the run's RUN_STARTED.
 */
function recorded(live: LiveRun): OperatorFunction<unknown, unknown> {
  return createOperator<unknown, unknown>((out) => {
    const { events } = live;
    let first = true;
    return {
      next(event) {
        events.add(event as BaseEvent);
        if (!first) return out.next(event);
        first = false;
        live.began();
        out.next(event);
        if ((event as BaseEvent).type === EventType.RUN_STARTED) for (const shown of live.opening.prelude) out.next(shown);
      },
    };
  });
}
