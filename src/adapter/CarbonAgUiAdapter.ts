import { EMPTY, skip, Subscription, type Observable } from "rxjs";
import type { ContentPart } from "@ag-ui/core";
import { CancellationReason, type CarbonChatInstance, type CarbonEditInstance, type CarbonSendInstance, type CustomSendMessage } from "../carbon";
import { describeContent } from "../contentParts";
import { AgUiInterruptError, AgUiMcpAppError, AgUiSurfaceError, CarbonAgUiError } from "../errors";
import { isClientToolInterrupt, type InterruptDecision } from "../hitl";
import { randomId } from "../internal/ids";
import type { A2uiUserAction } from "../operators/map/a2uiSurfaces";
import type { Thread } from "../thread/thread";
import type { ApprovalRuns, ApprovalRunStep } from "./approvals/approvalRuns";
import { followDecisionsElsewhere } from "./approvals/decidedElsewhere";
import type { ServerBranches } from "./answerVersions";
import { Branches } from "./branches";
import { CarbonEvents } from "./carbonEvents";
import { ContentOutbox } from "./contentOutbox";
import { ConversationThreads } from "./conversationThreads";
import { feedbackOf, type CarbonFeedbackEvent } from "./feedback";
import { KeptThreads } from "./keptThreads";
import { proxiedMcpRequest, type McpProxiedRequest } from "./mcpRequests";
import type { RunningRun } from "./loadThread";
import { resolveOptions, type CarbonAgUiAdapterOptions, type ResolvedOptions } from "./options";
import { SurfaceActions } from "./surfaceActions";
import { Delivery } from "./turns/delivery";
import { ErrorPolicy } from "./turns/errorPolicy";
import { messageTurn } from "./turns/message";
import { editTurn } from "./turns/edit";
import { whenHydrated } from "./hydrated";
import { rejoinTurn } from "./turns/rejoin";
import { decideCard, resumeTurn } from "./turns/resume";
import { surfaceActionTurn } from "./turns/surfaceAction";
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
 * The adapter is the Carbon-facing face of one stream of turns (`Turns`):
 * each thing the person or the host asks for (a message, the answer to a
 * card, an action on a surface, a regenerate) is a turn that plays after
 * the ones before it, writing into the thread's log, of which every view
 * is a projection. Stop and reset act at once. See docs/architecture.md.
 */
export class CarbonAgUiAdapter extends ConversationThreads {
  private readonly options: ResolvedOptions;
  private readonly errors: ErrorPolicy;
  private readonly turns: Turns;
  private readonly delivery: Delivery;
  protected readonly branches: Branches;
  protected readonly kept: KeptThreads;
  protected readonly carbonEvents: CarbonEvents;
  protected readonly keptOnServer: boolean;
  /** What the adapter holds on to until `dispose()`. */
  private readonly held = new Subscription();
  /** With `toolClient`: its approvals' runs, followed on the tool server. */
  private readonly approvalRuns: ApprovalRuns | undefined;
  private disposed = false;
  /** Messages in parts sent through Carbon, until Carbon hands them back. */
  private readonly outbox = new ContentOutbox();
  private readonly surfaceActions = new SurfaceActions();

  constructor(options: CarbonAgUiAdapterOptions) {
    const resolved = resolveOptions(options);
    super(resolved);
    this.options = resolved;
    this.keptOnServer = resolved.threads !== undefined;
    this.errors = new ErrorPolicy(resolved.describe, resolved.onError, resolved.rejectOnError);
    this.turns = new Turns({ errors: this.errors, current: () => this.thread, restarted: (thread) => thread === this.thread && this.reset() });
    this.delivery = new Delivery(resolved, this.errors.describeError, this.turns);
    const follow = (instance: CarbonChatInstance) => this.carbonEvents.follow((this.lastInstance = instance));
    this.branches = new Branches({ turns: this.turns, delivery: this.delivery, threads: this.threads, current: () => this.thread, server: () => this.serverBranches(), follow, disposed: () => this.disposed });
    this.kept = new KeptThreads(options.persistence, resolved.threads, { current: () => this.thread, threadOf: (log, replayed) => this.makeThread(undefined, undefined, { log, replayed }), busy: () => this.turns.busy, stopAll: () => this.turns.endAll(CancellationReason.STOP_STREAMING) }, resolved);
    this.kept.keep(this.thread);
    const { onStateChange, toolClient } = resolved;
    this.carbonEvents = new CarbonEvents({ stop: () => this.stopPlaying(), restart: () => this.reset(), feedback: (event) => this.feedback(event) });
    // Lives as long as the adapter: the threads are its own.
    if (onStateChange) this.held.add(this.state$.pipe(skip(1)).subscribe(onStateChange));
    if (toolClient) {
      const runs = followDecisionsElsewhere(toolClient, this.threads, { turns: this.turns, delivery: this.delivery, current: () => this.thread, instance: () => (this.disposed ? undefined : this.lastInstance), onWarning: resolved.onWarning });
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
    this.delivery.dispose();
    this.turns.endAll(CancellationReason.STOP_STREAMING);
    this.carbonEvents.unfollowAll();
    this.kept.dispose();
    this.held.unsubscribe();
  }

  /** Resolves once no turn plays or waits and no stream of an earlier turn is open. */
  async whenIdle(): Promise<void> {
    do {
      await this.turns.idle();
      await this.delivery.tails.over();
    } while (this.turns.busy);
  }

  /**
   * Carbon's `customSendMessage`. Resolves when the turn's final response is
   * in Carbon; a failed turn shows why in the chat and resolves (see
   * `onError`, `rejectOnError`). A message sent while another turn is
   * playing waits for it, as Carbon's own queue does. Carbon's stop button
   * ends the turn as stopped; "Conversation restarted" ends it and resets
   * the conversation.
   */
  readonly sendMessage: CustomSendMessage = (request, { signal }, instance) => {
    if (this.disposed) return Promise.reject(new CarbonAgUiError("This adapter was disposed: it sends no more messages"));
    this.carbonEvents.follow(instance);
    if (request.history?.is_welcome_request) return Promise.resolve();
    this.lastInstance = instance;
    // The person goes on: the streams of earlier turns start no further run.
    this.delivery.closeStreams();
    const message = { id: request.id ?? randomId(), content: this.outbox.take(request.id) ?? request.input.text ?? "" };
    const edited = this.branches.takeEdit();
    return this.turns.play(edited ? editTurn(message, edited, instance as CarbonEditInstance, signal, this.serverBranches(), this.delivery) : messageTurn(message, request.id, instance, signal, this.delivery));
  };

  /**
   * Sends a message of the host's in AG-UI content parts (images, audio, video, documents), as from an upload button:
   * Carbon shows it as the person's (`describeContent`) and queues it; the agent gets the parts. Resolves as `send` does.
   */
  sendContent(content: readonly ContentPart[], instance: CarbonSendInstance): Promise<void> {
    if (this.disposed) return Promise.reject(new CarbonAgUiError("This adapter was disposed: it sends no more messages"));
    return instance.send({ id: this.outbox.put(content), input: { text: describeContent(content) } });
  }

  /**
   * Sends a person's action on an A2UI surface (a button's event) to the
   * agent: a run with `forwardedProps.a2uiAction.userAction` and no message,
   * after the turn playing now. The surface is `activityId`, else the
   * thread's latest that created `action.surfaceId`. Rejects with
   * `AgUiSurfaceError`, sending nothing, for a surface the thread does not
   * hold, one of an earlier answer, one whose action is on its way, and while a card waits.
   */
  async sendSurfaceAction(action: A2uiUserAction, instance: CarbonChatInstance | undefined = this.lastInstance, options: RespondOptions & { activityId?: string } = {}): Promise<void> {
    if (this.disposed) throw new CarbonAgUiError("This adapter was disposed: it sends no more actions");
    const taken = this.surfaceActions.take(this.conversation, action, options.activityId);
    try {
      if (!instance) throw new AgUiSurfaceError("sendSurfaceAction needs the Carbon instance to stream the answer into", taken.activityId);
      this.carbonEvents.follow(instance);
      await this.turns.play(surfaceActionTurn(action, taken.activityId, instance, options.signal, this.delivery));
    } finally {
      taken.sent();
    }
  }

  /**
   * Answers a pending interrupt (a decision card); `interruptId` defaults as
   * `decisionTarget` says. Once every pending interrupt has a decision, one
   * resume turn carries them all, after the turn playing now (see `resume`);
   * answering one of several resolves without running anything.
   */
  async respondToInterrupt(decision: InterruptDecision, instance: CarbonChatInstance | undefined = this.lastInstance, options: RespondOptions = {}, interruptId?: string): Promise<void> {
    if (this.disposed) throw new AgUiInterruptError("This adapter was disposed: it answers no more interrupts");
    const { thread } = this;
    const decided = decideCard(thread, decision, interruptId, this.now());
    if (decided.ready && !instance) throw new AgUiInterruptError("respondToInterrupt needs the Carbon instance to stream the continuation into", decided.interruptId);
    thread.act({ type: "decision", interruptId: decided.interruptId, decision });
    if (!decided.ready || !instance) return;
    this.carbonEvents.follow(instance);
    await this.turns.play(resumeTurn(instance, options.signal, this.delivery));
  }

  /**
   * Sends an MCP App's request to its server through the agent (`@ag-ui/mcp-apps-middleware`'s proxied run): resolves
   * with the server's answer; nothing of it enters the conversation. `carbon-agui-rx/mcp-apps` calls it for the apps it draws.
   */
  mcpRequest(request: McpProxiedRequest, activityId: string, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    if (this.disposed) return Promise.reject(new AgUiMcpAppError("This adapter was disposed: it sends no more requests of apps", activityId));
    return proxiedMcpRequest(this.options.run, request, { threadId: this.threadId, activityId, scheduler: this.options.scheduler, ...(options.signal && { signal: options.signal }) });
  }

  /** Answers a call of a tool declared without a `handler` with `result` (a string as it is, anything else as JSON), as `respondToInterrupt` answers its card. */
  respondToToolCall(toolCallId: string, result: unknown, instance: CarbonChatInstance | undefined = this.lastInstance, options: RespondOptions = {}): Promise<void> {
    const waiting = this.conversation.pendingInterrupts.find((entry) => isClientToolInterrupt(entry.interrupt) && entry.interrupt.toolCallId === toolCallId);
    if (!waiting) return Promise.reject(new AgUiInterruptError(`No call '${toolCallId}' of a tool without a handler waits for an answer`));
    return this.respondToInterrupt({ type: "answer", result }, instance, options, waiting.interrupt.id);
  }

  protected adopt(thread: Thread): void {
    this.kept.keep(thread);
    this.threads.next(thread);
    this.delivery.cutAll();
    this.turns.endAll(CancellationReason.CONVERSATION_RESTARTED);
  }

  /** A run still going on the restored `thread`, as a turn of its own: after what is queued, once Carbon has laid the restored history in. */
  protected rejoin(thread: Thread, run: RunningRun, instance: CarbonChatInstance): void {
    if (thread !== this.thread || this.disposed) return;
    this.carbonEvents.follow((this.lastInstance = instance));
    void this.turns.play(rejoinTurn(run, thread.conversation.lastRequestId, instance, whenHydrated(instance), this.delivery));
  }

  /** Carbon's stop button: the turn playing ends, and so does what its stream still brings. */
  private stopPlaying(): void {
    this.delivery.tails.stop(CancellationReason.STOP_STREAMING);
    this.turns.stopPlaying();
  }

  /** Feedback given with Carbon's thumbs: into the thread's log (restored with its answer), and to `onFeedback`. */
  private feedback(event: CarbonFeedbackEvent): void {
    const given = feedbackOf(this.thread, event);
    if (given) this.options.onFeedback?.(given);
  }

  private serverBranches(): ServerBranches {
    return { branches: this.options.threads?.branches, callOptions: this.kept.callOptions() };
  }
}

/** `customSendMessage` for Carbon from the same options as `CarbonAgUiAdapter`, when you need no handle on the conversation. */
export function createAgUiSendMessage(options: CarbonAgUiAdapterOptions): CustomSendMessage {
  return new CarbonAgUiAdapter(options).sendMessage;
}
