import { EventType, type BaseEvent, type Context, type Message, type ResumeEntry, type RunAgentInput, type RunFinishedOutcome, type Tool, type ToolCall } from "@ag-ui/core";
import {
  BehaviorSubject,
  catchError,
  defer,
  EMPTY,
  expand,
  filter,
  finalize,
  from,
  ignoreElements,
  lastValueFrom,
  mergeMap,
  of,
  reduce,
  skip,
  switchMap,
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
import { concatMapInFrames, FRAME_BUDGET_MS } from "./internal/concatMapInFrames";
import { frameScheduler } from "./internal/frameScheduler";
import { randomId } from "./internal/ids";
import { joinConsecutiveDeltas } from "./internal/joinedDeltas";
import { renderCostMeter } from "./internal/renderCost";
import { eachRun } from "./internal/splitRuns";
import { parseToolArguments } from "./internal/toolArguments";
import { Turn } from "./internal/turn";
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

/** How one run of a turn is started and watched. */
interface RunOptions {
  requestId?: string;
  /** Called on the run's first event. */
  onFirstEvent?: () => void;
  /** Events to show right after the run's RUN_STARTED (frontend tool calls already answered). */
  prelude?: readonly BaseEvent[];
}

export interface RespondOptions {
  /** Aborting it stops the resume, like Carbon's stop button (which stops it too). */
  signal?: AbortSignal;
}

const isRestart = (reason: unknown) => reason === CancellationReason.CONVERSATION_RESTARTED;

/**
 * Connects Carbon AI Chat to an AG-UI agent. Pass `adapter.sendMessage` as
 * Carbon's `messaging.customSendMessage`: each user message runs the agent
 * with the whole conversation and streams its answer into the chat.
 *
 * Every run belongs to a turn (a user message, or the decisions a resume
 * carries, with the frontend-tool rounds that follow): turns take their turn
 * one after another, and each ends early on one signal that Carbon's stop
 * button, its restart and `reset()` all reach. See docs/hitl.md.
 */
export class CarbonAgUiAdapter {
  /** The conversation of this thread; `reset()` replaces it, and a turn keeps the one it began on. */
  private readonly conversations: BehaviorSubject<Conversation>;
  /** The Carbon instance of the latest message, where a resume streams when none is given. */
  private lastInstance: CarbonChatInstance | undefined;
  /** Errors the chat has shown to the person (as an inline error); a send that fails with one of them resolves. */
  private readonly shownErrors = new WeakSet<object>();
  /** Carbon instances whose stop button and restart the adapter follows. */
  private readonly followed = new WeakSet<object>();
  /** Turns begun and not yet over, the one playing and those waiting for it. */
  private readonly liveTurns = new Set<Turn>();
  /** The turn whose runs are playing now. */
  private playing: Turn | undefined;
  /** Settles once the last turn queued is over: the next one starts then. */
  private lastTurnDone: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: CarbonAgUiAdapterOptions) {
    this.conversations = new BehaviorSubject(
      this.newConversation({
        ...(options.threadId !== undefined && { threadId: options.threadId }),
        ...(options.initialMessages !== undefined && { messages: options.initialMessages }),
      }),
    );
    // Lives as long as the adapter: the conversations are its own.
    if (options.onStateChange) this.conversations.pipe(switchMap((conversation) => conversation.state$), skip(1)).subscribe(options.onStateChange);
  }

  private get conversation(): Conversation {
    return this.conversations.value;
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
    return this.conversations.pipe(switchMap((conversation) => conversation.messages$));
  }

  /** The shared state (frozen), sent with the next run. */
  get state(): unknown {
    return this.conversation.state;
  }

  get state$(): Observable<unknown> {
    return this.conversations.pipe(switchMap((conversation) => conversation.state$));
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
    return this.conversations.pipe(switchMap((conversation) => conversation.pendingInterrupts$));
  }

  /** The thread's activities (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA), by message id. */
  get activities(): ReadonlyMap<string, Activity> {
    return this.conversation.activities;
  }

  /**
   * Starts a new thread with no history. Every turn begun on the old one
   * ends (what streams shows "Response stopped"; a turn still waiting never
   * starts), and whatever its runs still do is written into the old
   * conversation, not the new one. Carbon's restart does this by itself when
   * the adapter has seen the instance (its event bus).
   */
  reset(): void {
    this.conversations.next(this.newConversation({}));
    for (const turn of this.liveTurns) turn.end(CancellationReason.CONVERSATION_RESTARTED);
  }

  /**
   * Carbon's `customSendMessage`. Resolves when the turn's final response is
   * in Carbon; a failed turn shows why in the chat and resolves (see
   * `onError`, `rejectOnError`). A message sent while another turn (a resume)
   * is playing waits for it, as Carbon's own queue does. Carbon's stop
   * button ends the turn as stopped; "Conversation restarted" ends it and
   * resets the conversation.
   */
  readonly sendMessage: CustomSendMessage = (request, { signal }, instance) => {
    this.follow(instance);
    if (request.history?.is_welcome_request) return Promise.resolve();
    this.lastInstance = instance;
    const turn = this.beginTurn(instance, [signal]);
    const runOptions = request.id === undefined ? {} : { requestId: request.id };
    // A message whose turn ended before it began (stopped or restarted while it waited) is not sent at all.
    const play = () => (turn.ended ? Promise.resolve() : this.play(this.converse(turn, this.startTurn(turn.conversation, request), runOptions)));
    return this.inTurn(turn, play).catch((thrown: unknown) => {
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
   * one `resume` entry each, in arrival order) and streams into Carbon as a
   * turn of its own: after the turn playing now, stopped by Carbon's stop
   * button (or `options.signal`), ended by a restart or `reset()`. Answering
   * one of several resolves without running anything.
   *
   * A resume that fails before its first event (it threw, it was stopped
   * first, it completed empty) puts the interrupts and their decisions back,
   * so the card can be answered again; the promise still rejects. Once any
   * event came (RUN_ERROR included) the agent has consumed the interrupts:
   * nothing is put back. A resume ended by a reset resolves: its thread is gone.
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
    this.follow(instance);
    const turn = this.beginTurn(instance, [options.signal]);
    await this.inTurn(turn, () => this.resume(turn));
  }

  /** Plays a resume turn: the decided interrupts, taken as the turn begins, go to the agent in one run. */
  private async resume(turn: Turn): Promise<void> {
    const { conversation } = turn;
    // Ended by a restart or reset: its thread is gone, so nothing is put back and there is nothing to retry.
    const threadGone = () => turn.ended && isRestart(turn.signal.reason);
    const answered = conversation.takePendingInterrupts();
    if (!answered.some((entry) => entry.decision)) {
      if (threadGone()) return;
      throw new AgUiInterruptError("The decision came too late: a message sent before it had answered the interrupt as cancelled");
    }
    let sawEvent = false;
    const putBack = (error: unknown) => {
      // Into the turn's own conversation: after a reset, nobody reads it.
      if (!sawEvent) conversation.restorePendingInterrupts(answered);
      // A resume that ended before any event is the decision not taken, as the card should say.
      throw error instanceof AgUiEmptyRunError ? new AgUiInterruptError(error.message) : error;
    };
    const input = this.runInput(conversation, [], answered.map((entry) => toResumeEntry(entry.interrupt.id, entry.decision ?? { type: "reject" })));
    await this.play(this.converse(turn, input, { onFirstEvent: () => (sawEvent = true) }))
      .finally(() => sawEvent && this.closeResumedToolCalls(conversation, answered))
      .catch(putBack);
    if (sawEvent || threadGone()) return;
    putBack(turn.ended ? new AgUiInterruptError("Stopped before the agent took the decision; it can be sent again") : new AgUiEmptyRunError());
  }

  /** A turn on the current conversation, ending with any of `signals`; a restart among them resets the conversation. */
  private beginTurn(instance: CarbonChatInstance, signals: readonly (AbortSignal | undefined)[]): Turn {
    const turn = new Turn(this.conversation, instance, signals);
    this.liveTurns.add(turn);
    turn.ended$.pipe(filter(isRestart)).subscribe(() => {
      // Once per restart: a reset that came first already replaced the turn's conversation.
      if (this.conversation === turn.conversation) this.reset();
    });
    return turn;
  }

  /**
   * Plays `work` once every turn queued before `turn` is over, so that two
   * turns never run on the thread at once (a message sent while a resume
   * streams waits for it, as Carbon's queue does for its own requests).
   */
  private inTurn<T>(turn: Turn, work: () => Promise<T>): Promise<T> {
    const done = this.lastTurnDone.then(async () => {
      this.playing = turn;
      try {
        return await work();
      } finally {
        this.playing = undefined;
        this.liveTurns.delete(turn);
        turn.close();
      }
    });
    this.lastTurnDone = done.catch(() => undefined);
    return done;
  }

  /** Follows Carbon's stop button (any turn, a resume too) and its restart (before it cancels requests), once per instance. */
  private follow(instance: CarbonChatInstance): void {
    if (!instance.on || this.followed.has(instance)) return;
    this.followed.add(instance);
    instance.on([
      { type: "stopStreaming", handler: () => this.playing?.end(CancellationReason.STOP_STREAMING) },
      { type: "pre:restartConversation", handler: () => this.reset() },
    ]);
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
   * result itself (Mastra) has it kept as it is.
   */
  private closeResumedToolCalls(conversation: Conversation, resumed: readonly PendingInterrupt[]): void {
    const messages = [...conversation.messages];
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
    if (changed) conversation.replaceMessages(messages);
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

  /** Settles once the turn's runs are over: resolves, or rejects with the turn's typed error. */
  private play(runs: Observable<unknown>): Promise<void> {
    return lastValueFrom(runs.pipe(ignoreElements()), { defaultValue: undefined });
  }

  /**
   * A turn's runs: the first, then, while a run ends waiting on frontend
   * tools, the tools' answers and the follow-up run, each its own Carbon
   * response. Emits each run's outcome. Once the turn has ended no further
   * run starts, and a handler still running has its result kept in the
   * history (the call needs one) but starts nothing.
   *
   * ```
   * runs:   --o1       o1 ends waiting on a frontend tool; h: its handler; o2 the follow-up's outcome
   *             h--o2|
   * result: --o1---o2|
   * ```
   */
  private converse(turn: Turn, input: RunAgentInput, options: RunOptions): Observable<RunFinishedOutcome | undefined> {
    const { maxFrontendToolRounds = 5 } = this.options;
    const { conversation } = turn;
    return this.playRun(turn, input, options).pipe(
      expand((outcome, round) => {
        const calls = this.frontendToolCalls(conversation, outcome);
        if (calls.length === 0) return EMPTY;
        if (round + 1 > maxFrontendToolRounds) {
          return throwError(() => new AgUiFrontendToolError(`The agent asked for frontend tools more than ${maxFrontendToolRounds} times in one turn; stopped`));
        }
        return from(Promise.all(calls.map((call) => this.answerToolCall(conversation, call)))).pipe(
          mergeMap((prelude) => this.playRun(turn, this.runInput(conversation, [...conversation.messages], []), { prelude: prelude.flat() })),
        );
      }),
    );
  }

  /** The pending tool calls of a finished run that a frontend tool handles, with their parsed arguments. */
  private frontendToolCalls(conversation: Conversation, outcome: RunFinishedOutcome | undefined) {
    if (outcome?.type !== "success" || !outcome.pendingToolCallIds) return [];
    const calls = [];
    for (const toolCallId of outcome.pendingToolCallIds) {
      const found = conversation.findToolCall(toolCallId);
      const tool = found && this.options.tools?.find((candidate) => candidate.name === found.call.function.name && candidate.handler);
      if (found && tool?.handler) calls.push({ ...found, handler: tool.handler });
    }
    return calls;
  }

  /** Runs a frontend tool, records its result, and returns the events that show the call in the next turn. */
  private async answerToolCall(conversation: Conversation, { call, messageId, handler }: { call: ToolCall; messageId: string; handler: NonNullable<FrontendTool["handler"]> }) {
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
    conversation.upsertMessage({ id: resultId, role: "tool", toolCallId, content, ...(error !== undefined && { error }) });
    return [
      { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: fn.name, parentMessageId: messageId },
      { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: fn.arguments },
      { type: EventType.TOOL_CALL_END, toolCallId },
      { type: EventType.TOOL_CALL_RESULT, messageId: resultId, toolCallId, content, ...(error !== undefined && { error }) },
    ] as BaseEvent[];
  }

  /**
   * Streams one run into Carbon; emits the run's outcome once Carbon has the
   * final response, or fails with the run's error (after it). A turn that
   * has ended starts no run: nothing to show, and Carbon waits on nothing.
   *
   * Chunks go to Carbon one at a time, and a long queue drains a frame's
   * budget at a time so the page paints and the stop button works meanwhile.
   * After each wait, the deltas of one item still queued are joined, so the
   * queue never backs up behind the stream. Once the turn has ended, partial
   * chunks still queued are skipped: the stopped items' complete chunks and
   * the final response that follow carry all their text, so the stop shows
   * within a frame and nothing is lost.
   *
   * A chunk Carbon refuses (a throw, a rejection) must not keep the chunks
   * after it, the final response above all, from Carbon: its queue would
   * wait forever. The run's error, else the first refusal, fails the run at
   * the end.
   */
  private playRun(turn: Turn, input: RunAgentInput, options: RunOptions): Observable<RunFinishedOutcome | undefined> {
    return defer(() => {
      if (turn.ended) return EMPTY;
      let outcome: RunFinishedOutcome | undefined;
      let runError: { error: unknown } | undefined;
      const renderCost = renderCostMeter(this.scheduler);
      const deliver = (chunk: CarbonStreamChunk): Observable<{ refusal: unknown }> =>
        defer(() => {
          renderCost.handedOver();
          return Promise.resolve(turn.instance.messaging.addMessageChunk(chunk));
        }).pipe(
          ignoreElements(),
          catchError((refusal: unknown) => of({ refusal })),
        );
      return this.streamRun(turn, input, options, (finished) => (outcome = finished ?? { type: "success" }), renderCost.cost$).pipe(
        // Keep the error until every chunk, the final response last, has reached Carbon.
        catchError((error: unknown) => ((runError = { error }), EMPTY)),
        // A queue that fell behind joins its deltas, so it hands Carbon a few chunks per frame, never a backlog.
        concatMapInFrames((chunk) => (turn.ended && "partial_item" in chunk ? EMPTY : deliver(chunk)), this.scheduler, FRAME_BUDGET_MS, joinConsecutiveDeltas),
        reduce<{ refusal: unknown }, { refusal: unknown } | undefined>((first, refused) => first ?? refused, undefined),
        // Whatever failed (a callback, Carbon refusing a chunk), the error is one of ours: Carbon logs it with JSON.stringify.
        mergeMap((refused) => {
          const failure = runError ?? (refused && { error: refused.refusal });
          return failure ? throwError(() => asCarbonAgUiError(failure.error)) : of(outcome);
        }),
        finalize(() => renderCost.stop()),
      );
    });
  }

  private get scheduler(): SchedulerLike {
    return this.options.scheduler ?? frameScheduler();
  }

  private newConversation(thread: { threadId?: string; messages?: readonly Message[] }): Conversation {
    return new Conversation({
      ...thread,
      // Python AG-UI servers (pydantic) require `state` in every run input, as HttpAgent always sends it.
      state: this.options.initialState === undefined ? {} : this.options.initialState,
      ...(this.options.scheduler && { scheduler: this.options.scheduler }),
    });
  }

  /**
   * Records the user's message and builds the run input from the conversation.
   * A message sent while interrupts are pending answers them as cancelled:
   * the agent needs every open interrupt answered to go on with the thread.
   */
  private startTurn(conversation: Conversation, request: CarbonMessageRequest): RunAgentInput {
    const cancelled = conversation.takePendingInterrupts().map(({ interrupt }) => ({ interrupt, decision: { type: "reject" as const } }));
    // Their calls' results go before the new message: CopilotKit's runtime would add them after it, where the model cannot take them.
    this.closeResumedToolCalls(conversation, cancelled);
    const userMessage: Message = { id: request.id ?? randomId(), role: "user", content: request.input.text ?? "" };
    conversation.upsertMessage(userMessage);
    return this.runInput(conversation, [...conversation.messages], cancelled.map(({ interrupt, decision }) => toResumeEntry(interrupt.id, decision)));
  }

  private runInput(conversation: Conversation, messages: Message[], resume: ResumeEntry[]): RunAgentInput {
    // `state` and `forwardedProps` are required fields for Python AG-UI servers.
    const { tools = [], context = [], forwardedProps = {} } = this.options;
    return {
      threadId: conversation.threadId,
      runId: randomId(),
      messages,
      tools: tools.map(({ handler: _handler, ...tool }) => tool),
      context,
      state: conversation.state,
      forwardedProps,
      ...(resume.length > 0 && { resume }),
    };
  }

  /** One run's chunks for Carbon: its events through `agUiToCarbon()`, writing into the turn's conversation, stopped with the turn. */
  private streamRun(
    turn: Turn,
    input: RunAgentInput,
    { requestId, onFirstEvent, prelude }: RunOptions,
    onFinished: (outcome: RunFinishedOutcome | undefined) => void,
    renderCost: Observable<number>,
  ) {
    const { run, onEvent, operators, validate, coalesce = true, onInvalidEvent, onWarning, onInvalidItem, onToolCall, onActivity, onRunFinished, detectClarification, onClarification } =
      this.options;
    const describe = this.options.describeError === false ? undefined : (this.options.describeError ?? describeError);
    const ownCoalesce = coalesce === true || coalesce === false ? {} : coalesce;
    const stop = turn.ended$;
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
        conversation: turn.conversation,
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

