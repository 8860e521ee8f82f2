import type { Message, RunAgentInput } from "@ag-ui/core";
import { BehaviorSubject, filter, skip, switchMap, type Observable } from "rxjs";
import { CancellationReason, type CarbonChatInstance, type CustomSendMessage } from "../carbon";
import { Conversation, type Activity } from "../conversation";
import { AgUiInterruptError } from "../errors";
import { isExpired, type InterruptDecision, type PendingInterrupt } from "../hitl";
import type { Turn } from "../internal/turn";
import { CarbonEvents } from "./carbonEvents";
import { ErrorPolicy } from "./errorPolicy";
import { converse } from "./frontendTools";
import { resolveOptions, type CarbonAgUiAdapterOptions, type ResolvedOptions } from "./options";
import { interruptToAnswer, resume } from "./resume";
import { cancellationInput, userMessageInput } from "./runInput";
import { playTurn, type TurnOutcome } from "./turnOutcome";
import { TurnQueue } from "./turnQueue";

export interface RespondOptions {
  /** Aborting it stops the resume, like Carbon's stop button (which stops it too). */
  signal?: AbortSignal;
}

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
  private readonly options: ResolvedOptions;
  /** The conversation of this thread; `reset()` replaces it, and a turn keeps the one it began on. */
  private readonly conversations: BehaviorSubject<Conversation>;
  /** The Carbon instance of the latest message, where a resume streams when none is given. */
  private lastInstance: CarbonChatInstance | undefined;
  private readonly turns = new TurnQueue();
  private readonly errors: ErrorPolicy;
  private readonly carbonEvents = new CarbonEvents({ stop: () => this.turns.stopPlaying(), restart: () => this.reset() });

  constructor(options: CarbonAgUiAdapterOptions) {
    this.options = resolveOptions(options);
    const { describe, onError, rejectOnError, threadId, initialMessages, onStateChange } = this.options;
    this.errors = new ErrorPolicy(describe, onError, rejectOnError);
    this.conversations = new BehaviorSubject(this.newConversation({ ...(threadId !== undefined && { threadId }), ...(initialMessages !== undefined && { messages: initialMessages }) }));
    // Lives as long as the adapter: the conversations are its own.
    if (onStateChange) this.state$.pipe(skip(1)).subscribe(onStateChange);
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
    this.turns.endAll(CancellationReason.CONVERSATION_RESTARTED);
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
    this.carbonEvents.follow(instance);
    if (request.history?.is_welcome_request) return Promise.resolve();
    this.lastInstance = instance;
    const turn = this.beginTurn(instance, [signal]);
    // A message whose turn ended before it began (stopped or restarted while it waited) is not sent at all.
    const play = async () => {
      if (turn.ended) return;
      const { runFields } = this.options;
      const cancellation = cancellationInput(turn.conversation, runFields);
      const cancelled = cancellation && (await this.playRuns(turn, cancellation, request.id));
      // After the cancellation's run, whose MESSAGES_SNAPSHOT would leave it out: the message is kept whatever became of that run.
      const input = userMessageInput(turn.conversation, request, runFields);
      if (cancelled?.failure) throw cancelled.failure.error;
      const { failure } = await this.playRuns(turn, input, request.id);
      if (failure) throw failure.error;
    };
    return this.errors.settle(this.turns.play(turn, play));
  };

  /**
   * Answers a pending interrupt (a decision card); `interruptId` defaults as
   * `interruptToAnswer` says. Once every pending interrupt has a decision,
   * one resume run carries them all and streams into Carbon as a turn of its
   * own: after the turn playing now, stopped by Carbon's stop button (or
   * `options.signal`), ended by a restart or `reset()` (see `resume`).
   * Answering one of several resolves without running anything.
   */
  async respondToInterrupt(
    decision: InterruptDecision,
    instance: CarbonChatInstance | undefined = this.lastInstance,
    options: RespondOptions = {},
    interruptId?: string,
  ): Promise<void> {
    const { conversation } = this;
    const target = interruptToAnswer(conversation.pendingInterrupts, interruptId);
    if (decision.type !== "reject" && isExpired(target.interrupt, this.options.scheduler.now())) {
      throw new AgUiInterruptError(`Interrupt '${target.interrupt.id}' expired at ${target.interrupt.expiresAt}; it can only be rejected`, target.interrupt.id);
    }
    const othersUndecided = conversation.pendingInterrupts.some((entry) => !entry.decision && entry.interrupt.id !== target.interrupt.id);
    if (!othersUndecided && !instance) throw new AgUiInterruptError("respondToInterrupt needs the Carbon instance to stream the continuation into", target.interrupt.id);
    conversation.decideInterrupt(target.interrupt.id, decision);
    if (othersUndecided || !instance) return;
    this.carbonEvents.follow(instance);
    const turn = this.beginTurn(instance, [options.signal]);
    await this.turns.play(turn, () => resume(turn, this.options, this.errors.describeError));
  }

  /** Plays a run of a message's turn (with the frontend-tool rounds that follow it) to its end. */
  private playRuns(turn: Turn, input: RunAgentInput, requestId: string | undefined): Promise<TurnOutcome> {
    return playTurn(converse(turn, { input, ...(requestId !== undefined && { requestId }) }, this.options, this.errors.describeError));
  }

  /** A turn on the current conversation, ending with any of `signals`; a restart among them resets the conversation. */
  private beginTurn(instance: CarbonChatInstance, signals: readonly (AbortSignal | undefined)[]): Turn {
    const turn = this.turns.begin(this.conversation, instance, signals);
    turn.ended$.pipe(filter((reason) => reason === CancellationReason.CONVERSATION_RESTARTED)).subscribe(() => {
      // Once per restart: a reset that came first already replaced the turn's conversation.
      if (this.conversation === turn.conversation) this.reset();
    });
    return turn;
  }

  private newConversation(thread: { threadId?: string; messages?: readonly Message[] }): Conversation {
    const { initialState: state, hostScheduler } = this.options;
    return new Conversation({ ...thread, state, ...(hostScheduler && { scheduler: hostScheduler }) });
  }
}

/** `customSendMessage` for Carbon from the same options as `CarbonAgUiAdapter`, when you need no handle on the conversation. */
export function createAgUiSendMessage(options: CarbonAgUiAdapterOptions): CustomSendMessage {
  return new CarbonAgUiAdapter(options).sendMessage;
}
