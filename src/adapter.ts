import { EventType, type BaseEvent, type Context, type Message, type ResumeEntry, type RunAgentInput, type RunFinishedOutcome, type Tool, type ToolCall } from "@ag-ui/core";
import {
  catchError,
  defer,
  EMPTY,
  filter,
  finalize,
  from,
  mergeMap,
  share,
  skip,
  takeUntil,
  tap,
  throwIfEmpty,
  throwError,
  type Observable,
  type SchedulerLike,
} from "rxjs";
import { CancellationReason, type CarbonChatInstance, type CarbonMessageRequest, type CarbonStreamChunk, type CustomSendMessage } from "./carbon";
import { Conversation, type Activity } from "./conversation";
import { describeError } from "./describeError";
import { AgUiEmptyRunError, AgUiFrontendToolError, AgUiInterruptError, AgUiRunError, asCarbonAgUiError, type CarbonAgUiError } from "./errors";
import { isExpired, toResumeEntry, type InterruptDecision, type PendingInterrupt } from "./hitl";
import { abortReason } from "./internal/abort";
import { concatMapInFrames, FRAME_BUDGET_MS } from "./internal/concatMapInFrames";
import { frameScheduler } from "./internal/frameScheduler";
import { randomId } from "./internal/ids";
import { joinConsecutiveDeltas } from "./internal/joinedDeltas";
import { renderCostMeter } from "./internal/renderCost";
import { eachRun } from "./internal/splitRuns";
import { parseToolArguments } from "./internal/toolArguments";
import { agUiToCarbon, type AgUiToCarbonOptions } from "./operators/agUiToCarbon";
import type { RunAgent } from "./runners/runAgent";

export interface CarbonAgUiAdapterOptions
  extends Pick<
    AgUiToCarbonOptions,
    | "onEvent"
    | "operators"
    | "validate"
    | "coalesce"
    | "onInvalidEvent"
    | "onWarning"
    | "onInvalidItem"
    | "onToolCall"
    | "onActivity"
    | "onRunFinished"
    | "detectClarification"
    | "onClarification"
    | "describeError"
    | "html"
    | "allowHttp"
    | "allowUrl"
  > {
  /** Starts a run: `createSseRunner({ url })`, `fromAgent(new HttpAgent({ url }))`, or your own. */
  run: RunAgent;
  /**
   * AG-UI tool definitions sent with every run. A tool with a `handler` is a
   * frontend tool: when a run ends waiting on it (`pendingToolCallIds`, or,
   * when the outcome lists none, its calls the run left without a result), the
   * adapter runs the handler with the parsed arguments, records its result as
   * a `tool` message (a throw becomes one with `error`), and runs the agent
   * again on the same thread.
   */
  tools?: FrontendTool[];
  /**
   * Called with the error of every turn that fails. The chat already shows
   * why (the `describeError` words, as Carbon's inline error at the end of
   * the answer), so `sendMessage` resolves rather than rejects: a rejection
   * makes Carbon also put its generic "There is an error with the message you
   * just sent" under the person's own message. Errors the chat does not show
   * (`describeError` returned nothing, or Carbon refused a chunk) still reject.
   */
  onError?: (error: CarbonAgUiError) => void;
  /** Reject Carbon's send promise on every failed turn too (Carbon then marks the person's message as failed). Default `false`. */
  rejectOnError?: boolean;
  /** How many follow-up runs frontend tools may start in one turn before it fails with `AgUiFrontendToolError`. Default 5. */
  maxFrontendToolRounds?: number;
  /** AG-UI context entries sent with every run. */
  context?: Context[];
  /** Sent as `forwardedProps` with every run. Default `{}`. */
  forwardedProps?: Record<string, unknown>;
  /** The thread to continue. Default: a new random thread id. */
  threadId?: string;
  /** History to start from. */
  initialMessages?: readonly Message[];
  /** Shared state to start from (and to return to on `reset()`). Default `{}`. */
  initialState?: unknown;
  /** Called with the new shared state after each burst of STATE_SNAPSHOT / STATE_DELTA events (and on reset). */
  onStateChange?: (state: unknown) => void;
  /**
   * Paces `state$` and `onStateChange`, the merging of deltas (unless
   * `coalesce` names its own scheduler) and the hand-over of a long queue of
   * chunks to Carbon, times what each hand-over costs Carbon (to its next
   * task: the merge window widens with it), and tells the time for interrupt
   * expiry. Default: animation frames in a browser, else the async scheduler.
   */
  scheduler?: SchedulerLike;
}

/** An AG-UI tool, with a `handler` when the browser runs it. */
export type FrontendTool = Tool & {
  handler?: (args: unknown, call: { toolCallId: string; name: string }) => unknown;
};

/** How one turn's runs are started and watched. */
interface TurnOptions {
  requestId?: string;
  /** Called on the run's first event. */
  onFirstEvent?: () => void;
  /** Events to show right after the run's RUN_STARTED (frontend tool calls already answered). */
  prelude?: readonly BaseEvent[];
}

export interface RespondOptions {
  /** Aborting it stops the resume run, like Carbon's stop button. */
  signal?: AbortSignal;
}

const isRestart = (reason: unknown) => reason === CancellationReason.CONVERSATION_RESTARTED;

/**
 * Connects Carbon AI Chat to an AG-UI agent. Pass `adapter.sendMessage` as
 * Carbon's `messaging.customSendMessage`: each user message runs the agent
 * with the whole conversation and streams its answer into the chat.
 */
export class CarbonAgUiAdapter {
  private readonly conversation: Conversation;
  /** The Carbon instance of the latest message, where a resume streams when none is given. */
  private lastInstance: CarbonChatInstance | undefined;
  /** Errors the chat has shown to the person (as an inline error); a send that fails with one of them resolves. */
  private readonly shownErrors = new WeakSet<object>();

  constructor(private readonly options: CarbonAgUiAdapterOptions) {
    this.conversation = new Conversation({
      ...(options.threadId !== undefined && { threadId: options.threadId }),
      ...(options.initialMessages !== undefined && { messages: options.initialMessages }),
      // Python AG-UI servers (pydantic) require `state` in every run input, as HttpAgent always sends it.
      state: options.initialState === undefined ? {} : options.initialState,
      ...(options.scheduler && { scheduler: options.scheduler }),
    });
    // Lives as long as the adapter: the conversation is its own.
    if (options.onStateChange) this.conversation.state$.pipe(skip(1)).subscribe(options.onStateChange);
  }

  /** The AG-UI thread id of this conversation; `reset()` starts a new one. */
  get threadId(): string {
    return this.conversation.threadId;
  }

  /** The conversation so far, as AG-UI messages. */
  get messages(): readonly Message[] {
    return this.conversation.messages;
  }

  get messages$(): Observable<readonly Message[]> {
    return this.conversation.messages$;
  }

  /** The shared state (frozen), sent with the next run. */
  get state(): unknown {
    return this.conversation.state;
  }

  get state$(): Observable<unknown> {
    return this.conversation.state$;
  }

  /** Interrupts awaiting their resume, oldest first, each with the decision taken so far. */
  get pendingInterrupts(): readonly PendingInterrupt[] {
    return this.conversation.pendingInterrupts;
  }

  /** The oldest pending interrupt (it may already hold a decision not yet sent). */
  get pendingInterrupt(): PendingInterrupt | undefined {
    return this.conversation.pendingInterrupts[0];
  }

  get pendingInterrupts$(): Observable<readonly PendingInterrupt[]> {
    return this.conversation.pendingInterrupts$;
  }

  /** The thread's activities (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA), by message id. */
  get activities(): ReadonlyMap<string, Activity> {
    return this.conversation.activities;
  }

  /**
   * Starts a new thread with no history. Call it when Carbon restarts the
   * conversation while no message is in flight (an in-flight one is handled).
   */
  reset(): void {
    this.conversation.reset();
  }

  /**
   * Carbon's `customSendMessage`. Resolves when the turn's final response is
   * in Carbon; rejects (after it) with the run's typed error. Carbon's stop
   * button ends the turn as stopped; "Conversation restarted" drops the turn
   * and resets the conversation.
   */
  readonly sendMessage: CustomSendMessage = (request, { signal }, instance) => {
    if (request.history?.is_welcome_request) return Promise.resolve();
    this.lastInstance = instance;
    return this.converse(this.startTurn(request), signal, instance, request.id === undefined ? {} : { requestId: request.id }).catch((thrown: unknown) => {
      const error = asCarbonAgUiError(thrown);
      this.options.onError?.(error);
      // The rejection may wrap what the chat showed (a plain Error from a callback becomes one of ours, with it as the cause).
      const shown = [error, error.cause].some((candidate) => typeof candidate === "object" && candidate !== null && this.shownErrors.has(candidate));
      if (!shown || this.options.rejectOnError) throw error;
    });
  };

  /**
   * Answers a pending interrupt (a decision card). `interruptId` defaults to
   * the oldest one without a decision; when every one has a decision (a failed
   * resume put them back), to the only one, and it throws if there are
   * several rather than guess. Once every pending interrupt has a decision,
   * one resume run carries them all (same thread, new run id, no messages,
   * one `resume` entry each, in arrival order) and streams into Carbon like
   * any turn; answering one of several resolves without running anything.
   *
   * A resume that fails before its first event (it threw, the signal was
   * already aborted, it completed empty) puts the interrupts and their
   * decisions back, so the card can be answered again; the promise still
   * rejects. Once any event came (RUN_ERROR included) the agent has consumed
   * the interrupts: nothing is put back. Nor after `reset()`.
   */
  async respondToInterrupt(
    decision: InterruptDecision,
    instance: CarbonChatInstance | undefined = this.lastInstance,
    options: RespondOptions = {},
    interruptId?: string,
  ): Promise<void> {
    const target = this.interruptToAnswer(interruptId);
    const now = this.scheduler.now();
    if (decision.type !== "reject" && isExpired(target.interrupt, now)) {
      throw new AgUiInterruptError(`Interrupt '${target.interrupt.id}' expired at ${target.interrupt.expiresAt}; it can only be rejected`, target.interrupt.id);
    }
    const othersUndecided = this.conversation.pendingInterrupts.some((entry) => !entry.decision && entry.interrupt.id !== target.interrupt.id);
    if (!othersUndecided && !instance) throw new AgUiInterruptError("respondToInterrupt needs the Carbon instance to stream the continuation into", target.interrupt.id);
    this.conversation.decideInterrupt(target.interrupt.id, decision);
    if (othersUndecided || !instance) return;

    const answered = this.conversation.takePendingInterrupts();
    const resets = this.conversation.resetCount;
    let sawEvent = false;
    const input = this.runInput([], answered.map((entry) => toResumeEntry(entry.interrupt.id, entry.decision!)));
    const putBack = (error: unknown) => {
      if (!sawEvent && this.conversation.resetCount === resets) this.conversation.restorePendingInterrupts(answered);
      // A resume that ended before any event is the decision not taken, as the card should say.
      throw error instanceof AgUiEmptyRunError ? new AgUiInterruptError(error.message) : error;
    };
    await this.converse(input, options.signal ?? new AbortController().signal, instance, { onFirstEvent: () => (sawEvent = true) })
      .finally(() => sawEvent && this.closeResumedToolCalls(answered, resets))
      .catch(putBack);
    // Stopped before the agent answered: the decisions can be sent again.
    if (!sawEvent) putBack(new AgUiEmptyRunError());
  }

  /**
   * Once a run has resumed interrupts (or, for interrupts a new message
   * cancels, before it), gives each one's tool call that is still without a
   * result in the history the decision as its result (what the resume
   * carried, `{"status":"cancelled"}` for a rejection), placed right after
   * the call, as CopilotKit's own client does. Some frameworks
   * feed the decision to the model inside the run and emit no result
   * (CopilotKit's interrupt tools), and the next run would then carry a call
   * without a result, which providers reject. A framework that emits the
   * result itself (Mastra) has it kept as it is. Not after a reset.
   */
  private closeResumedToolCalls(resumed: readonly PendingInterrupt[], resets: number): void {
    if (this.conversation.resetCount !== resets) return;
    const messages = [...this.conversation.messages];
    let changed = false;
    for (const { interrupt, decision } of resumed) {
      const { toolCallId } = interrupt;
      if (toolCallId === undefined || messages.some((message) => message.role === "tool" && message.toolCallId === toolCallId)) continue;
      const at = messages.findIndex((message) => message.role === "assistant" && message.toolCalls?.some((call) => call.id === toolCallId));
      if (at < 0) continue;
      let position = at + 1;
      while (messages[position]?.role === "tool") position++;
      const entry = toResumeEntry(interrupt.id, decision ?? { type: "reject" });
      const content = JSON.stringify(entry.status === "cancelled" ? { status: "cancelled" } : entry.payload);
      messages.splice(position, 0, { id: `${toolCallId}-decision`, role: "tool", toolCallId, content });
      changed = true;
    }
    if (changed) this.conversation.replaceMessages(messages);
  }

  /** The interrupt a decision is for, by the rules of `respondToInterrupt`. */
  private interruptToAnswer(interruptId: string | undefined): PendingInterrupt {
    const pending = this.conversation.pendingInterrupts;
    if (interruptId !== undefined) {
      const named = pending.find((entry) => entry.interrupt.id === interruptId);
      if (!named) throw new AgUiInterruptError(`There is no pending interrupt '${interruptId}'`, interruptId);
      return named;
    }
    const undecided = pending.find((entry) => !entry.decision);
    if (undecided) return undecided;
    if (pending.length === 1) return pending[0]!;
    throw new AgUiInterruptError(
      pending.length === 0 ? "There is no pending interrupt to answer" : `All ${pending.length} pending interrupts already have a decision; name the one to change`,
    );
  }

  /**
   * Streams a run into Carbon, then, while it ends waiting on frontend tools,
   * answers them and streams the follow-up run, each its own Carbon turn.
   */
  private async converse(input: RunAgentInput, signal: AbortSignal, instance: CarbonChatInstance, options: TurnOptions): Promise<void> {
    const { maxFrontendToolRounds = 5 } = this.options;
    let outcome = await this.runTurn(input, signal, instance, options);
    for (let round = 1; !signal.aborted; round++) {
      const calls = this.frontendToolCalls(outcome);
      if (calls.length === 0) return;
      if (round > maxFrontendToolRounds) {
        throw new AgUiFrontendToolError(`The agent asked for frontend tools more than ${maxFrontendToolRounds} times in one turn; stopped`);
      }
      const prelude = await Promise.all(calls.map((call) => this.answerToolCall(call)));
      outcome = await this.runTurn(this.runInput([...this.conversation.messages], []), signal, instance, { prelude: prelude.flat() });
    }
  }

  /** The pending tool calls of a finished run that a frontend tool handles, with their parsed arguments. */
  private frontendToolCalls(outcome: RunFinishedOutcome | undefined) {
    if (outcome?.type !== "success" || !outcome.pendingToolCallIds) return [];
    const calls = [];
    for (const toolCallId of outcome.pendingToolCallIds) {
      const found = this.conversation.findToolCall(toolCallId);
      const tool = found && this.options.tools?.find((candidate) => candidate.name === found.call.function.name && candidate.handler);
      if (found && tool?.handler) calls.push({ ...found, handler: tool.handler });
    }
    return calls;
  }

  /** Runs a frontend tool, records its result, and returns the events that show the call in the next turn. */
  private async answerToolCall({ call, messageId, handler }: { call: ToolCall; messageId: string; handler: NonNullable<FrontendTool["handler"]> }) {
    const { id: toolCallId, function: fn } = call;
    let content: string;
    let error: string | undefined;
    try {
      const result = await handler(parseToolArguments(fn.arguments), { toolCallId, name: fn.name });
      content = typeof result === "string" ? result : JSON.stringify(result ?? null);
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
      content = error;
    }
    const resultId = randomId();
    this.conversation.upsertMessage({ id: resultId, role: "tool", toolCallId, content, ...(error !== undefined && { error }) });
    return [
      { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: fn.name, parentMessageId: messageId },
      { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: fn.arguments },
      { type: EventType.TOOL_CALL_END, toolCallId },
      { type: EventType.TOOL_CALL_RESULT, messageId: resultId, toolCallId, content, ...(error !== undefined && { error }) },
    ] as BaseEvent[];
  }

  /**
   * Streams one run into Carbon; settles once Carbon has the final response (with the run's outcome), rejecting with the run's error.
   *
   * Chunks go to Carbon one at a time, and a long queue drains a frame's
   * budget at a time so the page paints and the stop button works meanwhile.
   * After each wait, the deltas of one item still queued are joined, so the
   * queue never backs up behind the stream.
   * Once stopped, partial chunks still queued are skipped: the stopped
   * items' complete chunks and the final response that follow carry all
   * their text, so the stop shows within a frame and nothing is lost.
   */
  private runTurn(input: RunAgentInput, signal: AbortSignal, instance: CarbonChatInstance, options: TurnOptions): Promise<RunFinishedOutcome | undefined> {
    return new Promise<RunFinishedOutcome | undefined>((resolve, reject) => {
      const abort$ = abortReason(signal).pipe(share());
      const stop$ = abort$.pipe(filter((reason) => !isRestart(reason)));
      const restart$ = abort$.pipe(filter(isRestart), tap(() => this.reset()));
      let stopped = false;
      let failure: unknown;
      let outcome: RunFinishedOutcome | undefined;
      const renderCost = renderCostMeter(this.scheduler);
      // A chunk Carbon refuses (a throw, a rejection) must not keep the chunks after it, the final response
      // above all, from Carbon: its queue would wait forever. The first refusal rejects the turn at the end.
      const deliver = (chunk: CarbonStreamChunk): Promise<void> => {
        const refused = (error: unknown) => void (failure ??= error);
        try {
          renderCost.handedOver();
          return Promise.resolve(instance.messaging.addMessageChunk(chunk)).then(undefined, refused);
        } catch (error) {
          refused(error);
          return Promise.resolve();
        }
      };
      const subscription = this.streamTurn(input, stop$, options, (finished) => (outcome = finished ?? { type: "success" }), renderCost.cost$)
        .pipe(
          // Keep the error until every chunk, the final response last, has reached Carbon.
          catchError((error: unknown) => {
            failure = error;
            return EMPTY;
          }),
          // A queue that fell behind joins its deltas, so it hands Carbon a few chunks per frame, never a backlog.
          concatMapInFrames((chunk) => (stopped && "partial_item" in chunk ? EMPTY : deliver(chunk)), this.scheduler, FRAME_BUDGET_MS, joinConsecutiveDeltas),
          takeUntil(restart$),
        )
        .subscribe({
          // Whatever failed (a callback, Carbon refusing a chunk), the rejection is one of ours: Carbon logs it with JSON.stringify.
          complete: () => {
            return failure === undefined ? resolve(outcome) : reject(asCarbonAgUiError(failure));
          },
          error: (error: unknown) => reject(asCarbonAgUiError(error)),
        });
      // The pipeline lets go of the stop once its turn has ended; chunks may still be queued then.
      subscription.add(stop$.subscribe(() => (stopped = true)));
      subscription.add(() => renderCost.stop());
      // Settles the promise if the turn is dropped some other way, so Carbon's queue never waits on it.
      subscription.add(() => resolve(undefined));
    });
  }

  private get scheduler(): SchedulerLike {
    return this.options.scheduler ?? frameScheduler();
  }

  /**
   * Records the user's message and builds the run input from the conversation.
   * A message sent while interrupts are pending answers them as cancelled:
   * the agent needs every open interrupt answered to go on with the thread.
   */
  private startTurn(request: CarbonMessageRequest): RunAgentInput {
    const cancelled = this.conversation.takePendingInterrupts().map(({ interrupt }) => ({ interrupt, decision: { type: "reject" as const } }));
    // Their calls' results go before the new message: CopilotKit's runtime would add them after it, where the model cannot take them.
    this.closeResumedToolCalls(cancelled, this.conversation.resetCount);
    const userMessage: Message = { id: request.id ?? randomId(), role: "user", content: request.input.text ?? "" };
    this.conversation.upsertMessage(userMessage);
    return this.runInput([...this.conversation.messages], cancelled.map(({ interrupt, decision }) => toResumeEntry(interrupt.id, decision)));
  }

  private runInput(messages: Message[], resume: ResumeEntry[]): RunAgentInput {
    // `state` and `forwardedProps` are required fields for Python AG-UI servers.
    const { tools = [], context = [], forwardedProps = {} } = this.options;
    return {
      threadId: this.conversation.threadId,
      runId: randomId(),
      messages,
      tools: tools.map(({ handler: _handler, ...tool }) => tool),
      context,
      state: this.conversation.state,
      forwardedProps,
      ...(resume.length > 0 && { resume }),
    };
  }

  private streamTurn(
    input: RunAgentInput,
    stop: Observable<unknown>,
    { requestId, onFirstEvent, prelude }: TurnOptions,
    onFinished: (outcome: RunFinishedOutcome | undefined) => void,
    renderCost: Observable<number>,
  ) {
    const { run, onEvent, operators, validate, coalesce = true, onInvalidEvent, onWarning, onInvalidItem, onToolCall, onActivity, onRunFinished, detectClarification, onClarification } =
      this.options;
    const describe = this.options.describeError === false ? undefined : (this.options.describeError ?? describeError);
    const ownCoalesce = coalesce === true || coalesce === false ? {} : coalesce;
    return defer(() => {
      // The run's own signal: aborted once the turn no longer needs it, after the pipeline has let go of it.
      const runController = new AbortController();
      let events = from(run(input, { signal: runController.signal })).pipe(
        // A runner that fails with an error of its own (in-process MastraAgent, instead of RUN_ERROR) fails the run.
        catchError((error: unknown) => throwError(() => asCarbonAgUiError(error, (message, options) => new AgUiRunError(message, undefined, options)))),
        // An answer of no events at all (CopilotKit's runtime while the thread is still busy) is no answer: the turn fails, saying so.
        throwIfEmpty(() => new AgUiEmptyRunError()),
        finalize(() => runController.abort()),
      );
      if (onFirstEvent) events = events.pipe(tap(onFirstEvent));
      if (prelude?.length) events = events.pipe(mergeMap((event, index) => (index === 0 && event.type === EventType.RUN_STARTED ? [event, ...prelude] : [event])));
      return events;
    }).pipe(
      // One stream may carry several runs: each streams into Carbon as its own response, in turn.
      eachRun(stop, this.scheduler, () => agUiToCarbon({
        conversation: this.conversation,
        stop,
        ...(requestId !== undefined && { requestId }),
        ...(onEvent && { onEvent }),
        ...(operators && { operators }),
        ...(validate !== undefined && { validate }),
        // Deltas merge at the adapter's pace unless `coalesce` names a scheduler of its own, in windows that follow Carbon's render cost.
        coalesce: coalesce === false ? false : { ...ownCoalesce, scheduler: ownCoalesce.scheduler ?? this.scheduler, renderCost: ownCoalesce.renderCost ?? renderCost },
        ...(onInvalidEvent && { onInvalidEvent }),
        ...(onWarning && { onWarning }),
        ...(onInvalidItem && { onInvalidItem }),
        ...(onToolCall && { onToolCall }),
        // Calls of the tools the run was given are handed to the browser when the run ends without their results.
        clientTools: (this.options.tools ?? []).map((tool) => tool.name),
        ...(onActivity && { onActivity }),
        onRunFinished: (finished) => {
          onFinished(finished.outcome);
          onRunFinished?.(finished);
        },
        ...(detectClarification && { detectClarification }),
        ...(onClarification && { onClarification }),
        ...(this.options.html !== undefined && { html: this.options.html }),
        ...(this.options.allowHttp !== undefined && { allowHttp: this.options.allowHttp }),
        ...(this.options.allowUrl && { allowUrl: this.options.allowUrl }),
        describeError: (error) => {
          const reason = describe?.(error);
          if (reason && typeof error === "object" && error !== null) this.shownErrors.add(error);
          return reason;
        },
      })),
    );
  }
}

/** `customSendMessage` for Carbon from the same options as `CarbonAgUiAdapter`, when you need no handle on the conversation. */
export function createAgUiSendMessage(options: CarbonAgUiAdapterOptions): CustomSendMessage {
  return new CarbonAgUiAdapter(options).sendMessage;
}

