import { EMPTY, of, skip, Subscription, type Observable } from "rxjs";
import type { ContentPart } from "@ag-ui/core";
import { CancellationReason, type CarbonChatInstance, type CarbonSendInstance, type CarbonVersionsInstance, type CustomSendMessage } from "../carbon";
import { describeContent } from "../contentParts";
import { ContentOutbox } from "./contentOutbox";
import type { Conversation } from "../conversation";
import { AgUiInterruptError, AgUiRegenerateError, AgUiSurfaceError, CarbonAgUiError } from "../errors";
import type { AnswerVersionsState } from "./answerVersions";
import { feedbackOf } from "./feedback";
import { regenerateTurn } from "./turns/regenerate";
import type { A2uiUserAction } from "../operators/map/a2uiSurfaces";
import { SurfaceActions } from "./surfaceActions";
import { surfaceActionTurn } from "./turns/surfaceAction";
import type { ApprovalRuns, ApprovalRunStep } from "./approvals/approvalRuns";
import { isClientToolInterrupt, isExpired, type InterruptDecision } from "../hitl";
import { CarbonEvents } from "./carbonEvents";
import { resolveOptions, type CarbonAgUiAdapterOptions, type ResolvedOptions } from "./options";
import { decisionTarget } from "./turns/resume";
import { decide } from "./turnEdges";
import { ConversationThreads } from "./conversationThreads";
import { randomId } from "../internal/ids";
import { chatPersistenceOf, type ChatPersistence, type CarbonFeedbackEvent, type RunningRun } from "./chatPersistence";
import { followDecisionsElsewhere } from "./approvals/decidedElsewhere";
import { LateApprovals } from "./approvals/lateApprovals";
import type { Turn } from "./turns/turn";
import { ErrorPolicy } from "./turns/errorPolicy";
import { followOnTurn } from "./turns/followOn";
import { messageTurn, type TurnDelivery } from "./turns/message";
import { rejoinTurn } from "./turns/rejoin";
import { resumeTurn } from "./turns/resume";
import { StreamTails } from "./turns/streamTails";
import { Turns } from "./turns/turnPath";

export interface RespondOptions {
  /** Aborting it stops the resume, like Carbon's stop button (which stops it too). */
  signal?: AbortSignal;
}

/**
 * Connects Carbon AI Chat to an AG-UI agent. Pass `adapter.sendMessage` as
 * Carbon's `messaging.customSendMessage`: each user message runs the agent
 * with the whole conversation and streams its answer into the chat.
 *
 * Every run belongs to a turn (a user message, the decisions a resume
 * carries, a run rejoined or begun by the agent itself, with the
 * frontend-tool rounds that follow): turns take their turn one after
 * another on one path (`Turns`), and each ends early on one signal that
 * Carbon's stop button, its restart and `reset()` all reach. See
 * docs/hitl.md.
 */
export class CarbonAgUiAdapter extends ConversationThreads {
  private readonly options: ResolvedOptions;
  private readonly turns: Turns;
  /** The later runs of streams whose turns are over, each a turn of its own. */
  private readonly tails: StreamTails;
  private readonly delivery: TurnDelivery;
  protected readonly carbonEvents: CarbonEvents;
  protected readonly persisted: ChatPersistence | undefined;
  /** What the adapter holds on to until `dispose()`. */
  private readonly held = new Subscription();
  /** With `toolClient`: its approvals' runs, followed on the tool server. */
  private readonly approvalRuns: ApprovalRuns | undefined;
  /** With `toolClient`: the runs of ours followed on the tool server for approvals their streams did not show. */
  private readonly lateApprovals: LateApprovals | undefined;
  private disposed = false;
  /** Messages in parts sent through Carbon, until Carbon hands them back. */
  private readonly outbox = new ContentOutbox();
  private readonly surfaceActions = new SurfaceActions();

  constructor(options: CarbonAgUiAdapterOptions) {
    const resolved = resolveOptions(options);
    super(resolved);
    this.persisted = chatPersistenceOf(options.persistence, resolved, {
      current: () => this.conversation,
      adopt: (next?: Conversation) => this.adopt(next ?? this.newConversation({})),
      newConversation: (id: string) => this.newConversation({ threadId: id }),
      busy: () => this.turns.busy,
      stopAll: () => this.turns.endAll(CancellationReason.STOP_STREAMING),
      clear: (instance) => this.carbonEvents.clear(instance),
      rejoin: (conversation, run, instance) => this.rejoin(conversation, run, instance),
    });
    const persisted = this.persisted;
    this.options = persisted ? { ...resolved, recording: (conversation, requestId, runId) => persisted.recording(conversation, requestId, runId) } : resolved;
    const { onFeedback } = resolved;
    const feedback = (event: CarbonFeedbackEvent) => {
      const given = feedbackOf(event, this.threadId, persisted?.keepFeedback(event));
      if (given) onFeedback?.(given);
    };
    this.carbonEvents = new CarbonEvents({ stop: () => this.stopPlaying(), restart: () => this.reset(), ...((persisted || onFeedback) && { feedback }) });
    const { describe, onError, rejectOnError, onStateChange, toolClient } = this.options;
    const errors = new ErrorPolicy(describe, onError, rejectOnError);
    this.turns = new Turns({ errors, record: persisted, current: () => this.conversation, restarted: (conversation) => conversation === this.conversation && this.reset() });
    this.tails = new StreamTails((run, origin, requestId, stop) => this.turns.play(followOnTurn(run, origin, requestId, stop, this.delivery)));
    const late = toolClient && new LateApprovals({ client: toolClient, turns: this.turns, delivery: () => this.delivery, onWarning: this.options.onWarning, maxFollowed: this.options.maxFollowedRuns });
    this.lateApprovals = late;
    this.delivery = {
      options: this.options,
      describeError: errors.describeError,
      follow: this.tails.follow,
      closeStreams: () => this.tails.close(),
      ...(late && { finished: (runId: string, turn: Turn) => late.follow(runId, turn) }),
    };
    // Lives as long as the adapter: the conversations are its own.
    if (onStateChange) this.held.add(this.state$.pipe(skip(1)).subscribe(onStateChange));
    if (toolClient) {
      const runs = followDecisionsElsewhere(toolClient, this.conversations, {
        turns: this.turns,
        record: persisted,
        delivery: this.delivery,
        current: () => this.conversation,
        instance: () => (this.disposed ? undefined : this.lastInstance),
        onWarning: this.options.onWarning,
      });
      this.approvalRuns = runs;
      this.held.add(() => runs.dispose());
    }
  }

  /** The steps of the tool run a tool server's approval holds (`toolClient`), from its run's events: what its decision card shows. */
  approvalRun$(interruptId: string): Observable<ApprovalRunStep> {
    return this.approvalRuns?.steps$(interruptId) ?? EMPTY;
  }

  /**
   * Lets go of everything the adapter holds outside itself, for an app that
   * makes an adapter per page or route: what plays stops ("Response
   * stopped"), the Carbon instances it followed are left alone, and with
   * `persistence` the `pagehide` save and the other tabs' notices end. Later
   * messages and answers are refused.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.tails.cut();
    this.lateApprovals?.cutAll();
    this.turns.endAll(CancellationReason.STOP_STREAMING);
    this.carbonEvents.unfollowAll();
    this.persisted?.dispose();
    this.held.unsubscribe();
  }

  protected adopt(conversation: Conversation): void {
    this.conversations.next(conversation);
    this.tails.cut();
    this.lateApprovals?.cutAll();
    this.turns.endAll(CancellationReason.CONVERSATION_RESTARTED);
  }

  /** A run still going on the restored `conversation`, as a turn of its own: after what is queued, once Carbon shows the restored history. */
  private rejoin(conversation: Conversation, run: RunningRun, instance: CarbonChatInstance): void {
    if (conversation !== this.conversation || this.disposed) return;
    this.carbonEvents.follow((this.lastInstance = instance));
    const requestId = [...conversation.messages].reverse().find((message) => message.role === "user")?.id;
    // Carbon shows what `loadHistory` returned once its promise has settled: the answer goes after it.
    const shown = new Promise<void>((resolve) => this.options.scheduler.schedule(resolve));
    void this.turns.play(rejoinTurn(run, requestId, instance, shown, this.delivery));
  }

  /** Carbon's stop button: the turn playing ends, and so does what its stream still brings. */
  private stopPlaying(): void {
    this.tails.stop(CancellationReason.STOP_STREAMING);
    this.turns.stopPlaying();
  }

  /**
   * Resolves once nothing is under way: no turn plays or waits, and no
   * stream of an earlier turn is still open (a stream may bring later runs,
   * each a turn of its own, until it ends: one that never ends keeps the
   * adapter busy until the next message, a reset or `dispose()`).
   */
  async whenIdle(): Promise<void> {
    do {
      await this.turns.idle();
      await this.tails.over();
    } while (this.turns.busy);
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
    if (this.disposed) return Promise.reject(new CarbonAgUiError("This adapter was disposed: it sends no more messages"));
    this.carbonEvents.follow(instance);
    if (request.history?.is_welcome_request) return Promise.resolve();
    this.lastInstance = instance;
    // The person goes on: the streams of earlier turns start no further run.
    this.tails.close();
    const message = { id: request.id ?? randomId(), content: this.outbox.take(request.id) ?? request.input.text ?? "" };
    return this.turns.play(messageTurn(message, request.id, instance, signal, this.delivery));
  };

  /**
   * Sends a message of the host's in parts (text, images, audio, video,
   * documents: AG-UI content parts), as from an upload button beside
   * Carbon's input. Carbon shows it as the person's message (the text, then
   * a line for each other part, see `describeContent`) and queues it as a
   * typed one; the agent gets the parts as they are. Resolves as Carbon's
   * `send` does.
   */
  sendContent(content: readonly ContentPart[], instance: CarbonSendInstance): Promise<void> {
    if (this.disposed) return Promise.reject(new CarbonAgUiError("This adapter was disposed: it sends no more messages"));
    return instance.send({ id: this.outbox.put(content), input: { text: describeContent(content) } });
  }

  /**
   * Sends a person's action on an A2UI surface (a button's event) to the
   * agent, as `renderA2uiSurfaces` does for its buttons: a run with
   * `forwardedProps.a2uiAction.userAction` and no message of the person's,
   * after the turn playing now, its answer streaming into Carbon. The surface
   * is `activityId`, else the thread's latest that created
   * `action.surfaceId`. Rejects with `AgUiSurfaceError`, sending nothing, for
   * a surface the thread does not hold, one of an earlier answer, one whose
   * action is already on its way, and while a card waits for its answer.
   */
  async sendSurfaceAction(action: A2uiUserAction, instance: CarbonChatInstance | undefined = this.lastInstance, options: RespondOptions & { activityId?: string } = {}): Promise<void> {
    if (this.disposed) throw new CarbonAgUiError("This adapter was disposed: it sends no more actions");
    const taken = this.surfaceActions.take(this.conversation, action, options.activityId);
    try {
      if (!instance) throw new AgUiSurfaceError("sendSurfaceAction needs the Carbon instance to stream the answer into", taken.activityId);
      this.carbonEvents.follow(instance);
      await this.turns.play(surfaceActionTurn(action, instance, options.signal, this.delivery));
    } finally {
      taken.sent();
    }
  }

  /** The versions bar of the latest answer (`answerVersions`): under which response, which version of how many, whether it may be asked again. */
  get answerVersions$(): Observable<AnswerVersionsState | undefined> {
    return this.persisted && this.options.answerVersions ? this.persisted.versions.state$(this.conversations, this.pendingInterrupts$) : of(undefined);
  }

  /**
   * Asks the latest question again (the versions bar's Regenerate): after
   * the turn playing now, the answer shown is set aside as a version, out of
   * the history and the chat, and the agent answers anew on the same thread
   * (`parentRunId`: the run before the question). The new answer is what the
   * next message, a reload and the saved thread build on. Rejects with
   * `AgUiRegenerateError` when there is no answer to ask again, while a card
   * waits for its answer, and without a transcript to keep versions in
   * (`persistence` or `threads`).
   */
  async regenerate(instance: CarbonVersionsInstance, options: RespondOptions = {}): Promise<void> {
    const persisted = this.versionsKept();
    // A turn playing is waited for, as a message waits; the answer it comes to is the one asked again.
    const refusal = this.turns.busy ? undefined : persisted.versions.refusal(this.conversation);
    if (refusal) throw new AgUiRegenerateError(refusal);
    this.carbonEvents.follow((this.lastInstance = instance));
    this.tails.close();
    await this.turns.play(regenerateTurn(persisted.versions, instance, options.signal, this.delivery));
  }

  /** Shows version `index` (from 0) of the latest answer in its place, the one the next run builds on. Rejects with `AgUiRegenerateError` for no such version, and while a card waits. */
  async switchVersion(index: number, instance: CarbonVersionsInstance): Promise<void> {
    await this.turns.idle();
    await this.versionsKept().versions.switchTo(this.conversation, index, instance);
  }

  private versionsKept(): ChatPersistence {
    if (this.disposed) throw new CarbonAgUiError("This adapter was disposed: it asks nothing again");
    if (!this.persisted) throw new AgUiRegenerateError("Versions of an answer are kept in the adapter's transcript: give it `persistence`, or an agent that keeps threads");
    return this.persisted;
  }

  /** Reports a warning of the host's or a renderer's (a surface's refused URL, a limit) where the adapter's own go: `onWarning`. */
  warn(warning: CarbonAgUiError): void {
    this.options.onWarning(warning);
  }

  /** Whether an A2UI surface of this thread can still be acted on: it is of the latest answer (see `Conversation.isActivityCurrent`). */
  isSurfaceCurrent(activityId: string): boolean {
    return this.conversation.isActivityCurrent(activityId);
  }

  /**
   * Answers a pending interrupt (a decision card); `interruptId` defaults as
   * `decisionTarget` says. Once every pending interrupt has a decision,
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
    if (this.disposed) throw new AgUiInterruptError("This adapter was disposed: it answers no more interrupts");
    const { conversation } = this;
    const target = decisionTarget(conversation.pendingInterrupts, interruptId);
    if (decision.type !== "reject" && isExpired(target.interrupt, this.options.scheduler.now())) {
      throw new AgUiInterruptError(`Interrupt '${target.interrupt.id}' expired at ${target.interrupt.expiresAt}; it can only be rejected`, target.interrupt.id);
    }
    const othersUndecided = conversation.pendingInterrupts.some((entry) => !entry.decision && entry.interrupt.id !== target.interrupt.id);
    if (!othersUndecided && !instance) throw new AgUiInterruptError("respondToInterrupt needs the Carbon instance to stream the continuation into", target.interrupt.id);
    decide(conversation, target.interrupt.id, decision);
    this.persisted?.save(conversation);
    if (othersUndecided || !instance) return;
    this.carbonEvents.follow(instance);
    await this.turns.play(resumeTurn(instance, options.signal, this.delivery));
  }

  /**
   * Answers a call of a tool declared without a `handler` with `result` (a
   * string as it is, anything else as JSON): the call's result in the history,
   * and the agent goes on in a run that carries it, as for a handler's result.
   * Its card shows it answered. Rejects as `respondToInterrupt` does.
   */
  respondToToolCall(toolCallId: string, result: unknown, instance: CarbonChatInstance | undefined = this.lastInstance, options: RespondOptions = {}): Promise<void> {
    const waiting = this.conversation.pendingInterrupts.find((entry) => isClientToolInterrupt(entry.interrupt) && entry.interrupt.toolCallId === toolCallId);
    if (!waiting) return Promise.reject(new AgUiInterruptError(`No call '${toolCallId}' of a tool without a handler waits for an answer`));
    return this.respondToInterrupt({ type: "answer", result }, instance, options, waiting.interrupt.id);
  }
}

/** `customSendMessage` for Carbon from the same options as `CarbonAgUiAdapter`, when you need no handle on the conversation. */
export function createAgUiSendMessage(options: CarbonAgUiAdapterOptions): CustomSendMessage {
  return new CarbonAgUiAdapter(options).sendMessage;
}
