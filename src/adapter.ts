import type { Context, Message, RunAgentInput, Tool } from "@ag-ui/core";
import { catchError, concatMap, defer, EMPTY, filter, finalize, from, share, skip, takeUntil, tap, type Observable, type SchedulerLike } from "rxjs";
import { CancellationReason, type CarbonMessageRequest, type CustomSendMessage } from "./carbon";
import { Conversation, type Activity } from "./conversation";
import { abortReason } from "./internal/abort";
import { randomId } from "./internal/ids";
import { agUiToCarbon, type AgUiToCarbonOptions } from "./operators/agUiToCarbon";
import type { RunAgent } from "./runners/runAgent";

export interface CarbonAgUiAdapterOptions extends Pick<AgUiToCarbonOptions, "onEvent" | "operators" | "validate" | "onInvalidEvent" | "onWarning" | "onInvalidItem" | "onToolCall" | "onActivity" | "onRunFinished"> {
  /** Starts a run: `createSseRunner({ url })`, `fromAgent(new HttpAgent({ url }))`, or your own. */
  run: RunAgent;
  /** AG-UI tool definitions sent with every run. */
  tools?: Tool[];
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
  /** Paces `state$` and `onStateChange`. Default: animation frames in a browser, else the async scheduler. */
  scheduler?: SchedulerLike;
}

const isRestart = (reason: unknown) => reason === CancellationReason.CONVERSATION_RESTARTED;

/**
 * Connects Carbon AI Chat to an AG-UI agent. Pass `adapter.sendMessage` as
 * Carbon's `messaging.customSendMessage`: each user message runs the agent
 * with the whole conversation and streams its answer into the chat.
 */
export class CarbonAgUiAdapter {
  private readonly conversation: Conversation;

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
    const input = this.startTurn(request);
    return new Promise<void>((resolve, reject) => {
      const abort$ = abortReason(signal).pipe(share());
      const restart$ = abort$.pipe(filter(isRestart), tap(() => this.reset()));
      let failure: unknown;
      const subscription = this.streamTurn(input, request, abort$.pipe(filter((reason) => !isRestart(reason))))
        .pipe(
          // Keep the error until every chunk, the final response last, has reached Carbon.
          catchError((error: unknown) => {
            failure = error;
            return EMPTY;
          }),
          concatMap((chunk) => instance.messaging.addMessageChunk(chunk) ?? EMPTY),
          takeUntil(restart$),
        )
        .subscribe({
          complete: () => (failure === undefined ? resolve() : reject(failure)),
          error: reject,
        });
      // Settles the promise if the turn is dropped some other way, so Carbon's queue never waits on it.
      subscription.add(() => resolve());
    });
  };

  /** Records the user's message and builds the run input from the conversation. */
  private startTurn(request: CarbonMessageRequest): RunAgentInput {
    const userMessage: Message = { id: request.id ?? randomId(), role: "user", content: request.input.text ?? "" };
    this.conversation.upsertMessage(userMessage);
    // `forwardedProps` too is a required field for Python AG-UI servers.
    const { tools = [], context = [], forwardedProps = {} } = this.options;
    return {
      threadId: this.conversation.threadId,
      runId: randomId(),
      messages: [...this.conversation.messages],
      tools,
      context,
      state: this.conversation.state,
      forwardedProps,
    };
  }

  private streamTurn(input: RunAgentInput, request: CarbonMessageRequest, stop: Observable<unknown>) {
    const { run, onEvent, operators, validate, onInvalidEvent, onWarning, onInvalidItem, onToolCall, onActivity, onRunFinished } = this.options;
    return defer(() => {
      // The run's own signal: aborted once the turn no longer needs it, after the pipeline has let go of it.
      const runController = new AbortController();
      return from(run(input, { signal: runController.signal })).pipe(finalize(() => runController.abort()));
    }).pipe(
      agUiToCarbon({
        conversation: this.conversation,
        stop,
        ...(request.id !== undefined && { requestId: request.id }),
        ...(onEvent && { onEvent }),
        ...(operators && { operators }),
        ...(validate !== undefined && { validate }),
        ...(onInvalidEvent && { onInvalidEvent }),
        ...(onWarning && { onWarning }),
        ...(onInvalidItem && { onInvalidItem }),
        ...(onToolCall && { onToolCall }),
        ...(onActivity && { onActivity }),
        ...(onRunFinished && { onRunFinished }),
      }),
    );
  }
}

/** `customSendMessage` for Carbon from the same options as `CarbonAgUiAdapter`, when you need no handle on the conversation. */
export function createAgUiSendMessage(options: CarbonAgUiAdapterOptions): CustomSendMessage {
  return new CarbonAgUiAdapter(options).sendMessage;
}

