import type { AGUIEvent, BaseEvent, Tool } from "@ag-ui/core";
import { defer, type MonoTypeOperatorFunction, type Observable, type ObservableInput, type OperatorFunction, type SchedulerLike } from "rxjs";
import type { CarbonStreamChunk } from "../carbon";
import { Conversation } from "../conversation";
import type { CarbonInstruction, PipelineElement } from "../instructions";
import { createOperator, pipeFused } from "./fusion";
import { activities } from "./map/activities";
import { a2uiSurfaces } from "./map/a2uiSurfaces";
import { mcpApps } from "./map/mcpApps";
import { applyToConversation, type ApplyToConversationOptions } from "./record/applyToConversation";
import { carbonItems, itemOptionsOf } from "./map/carbonItems";
import { clarification, type ClarificationOptions } from "./end/clarification";
import { coalesceDeltas, type AdaptiveWindow } from "./render/coalesceDeltas";
import { escapeHtml } from "./render/escapeHtml";
import { legacyInterrupt } from "./end/legacyInterrupt";
import { interruptCards } from "./end/interruptCards";
import { expandChunks } from "./check/expandChunks";
import { messagesSnapshot } from "./map/messagesSnapshot";
import { chainOfThought } from "./map/chainOfThought";
import { reasoningSteps } from "./map/reasoningSteps";
import { subagentSteps } from "./map/subagentSteps";
import { runOutcome, type RunOutcomeOptions } from "./end/runOutcome";
import { usageNote, type DescribeUsage } from "./end/usageNote";
import { inputMessages } from "./map/inputMessages";
import { sharedState } from "./map/sharedState";
import { predictState } from "./map/predictState";
import { stopWhen } from "./check/stopWhen";
import { textMessages } from "./map/textMessages";
import { toolCallSteps, type ToolCallStepsOptions } from "./map/toolCallSteps";
import { toStreamChunksKeeping, type ToStreamChunksOptions } from "./render/toStreamChunks";
import { validateEvents, type ValidateEventsOptions } from "./check/validateEvents";
import { verifySequence } from "./check/verifySequence";

export interface AgUiToCarbonOptions
  extends ToStreamChunksOptions,
    ValidateEventsOptions,
    ApplyToConversationOptions,
    Omit<ToolCallStepsOptions, "askedTools" | "approvals">,
    RunOutcomeOptions,
    Partial<ClarificationOptions> {
  /**
   * The client tools the person answers (declared without a handler): a run
   * that finishes handing over a call of one shows its step waiting and a
   * decision card for it (see `toolCallSteps()`, `interruptCards()`).
   */
  askedTools?: readonly Tool[];
  /**
   * Take a tool result `{ "pending_approval": "apr_…" }` (a tool server's
   * reviewer decides) as holding its call: its step waits, and the run ends
   * with a decision card for it (see `toolCallSteps()`, `interruptCards()`);
   * `inputSchemas`, the tools' input schemas by name, check an edit. The
   * adapter sets it when given a `toolClient`.
   */
  approvals?: { inputSchemas?: ReadonlyMap<string, object> };
  /** Check each event against its AG-UI schema, skipping invalid ones (see `validateEvents()`). Default `true`. */
  validate?: boolean;
  /**
   * When this emits, the turn stops (Carbon's stop button): the source is
   * unsubscribed, which aborts its request, open items show "Response
   * stopped", and the final response goes out.
   */
  stop?: ObservableInput<unknown>;
  /**
   * Where the turn's messages and shared state are kept for the next run.
   * Default: a new conversation for each subscription, with the state `{}`,
   * which forgets them (and so cannot tell a MESSAGES_SNAPSHOT's earlier turns
   * from new ones).
   */
  conversation?: Conversation;
  /** Sees every event after chunk expansion and sequence checks, before any mapping. A throw fails the turn. */
  onEvent?: (event: AGUIEvent) => void;
  /**
   * The calls whose results the thread held before this run, as it held
   * them (a later run that announces one again replays it: see
   * `toolCallSteps()`). Default: those the conversation's history has held.
   */
  answeredCalls?: ReadonlyMap<string, { name: string; arguments: string }>;
  /**
   * The interrupts this run answers (its resume): they wait no more once it
   * begins, so one it raises again gets its card. Default: none.
   */
  answering?: readonly string[];
  /**
   * In a resume, the words of the messages the run it resumes showed that
   * the agent's record has dropped since: one streamed again under a new id
   * shows nothing (see `textMessages()`). Default: none.
   */
  saidBeforeResume?: readonly string[];
  /** Your own operators, run in order on the checked events before the built-in mappings. */
  operators?: readonly MonoTypeOperatorFunction<PipelineElement>[];
  /**
   * Merge consecutive text deltas of an item (and the reasoning and
   * chain-of-thought updates riding on them) into one chunk per 100 ms, and
   * at most one per frame (see `coalesceDeltas()`). Default `true`, paced by
   * animation frames in a browser, else by macrotasks; `{ scheduler,
   * intervalMs }` changes either; `{ renderCost }` widens each window with
   * what Carbon's redraws cost (the adapter measures it); `false` sends one
   * chunk per delta.
   */
  coalesce?: boolean | CoalesceOptions;
  /**
   * Let HTML in the agent's markdown through to Carbon as it is: only for an
   * agent you trust as you trust your own page (Carbon renders it raw unless
   * its `shouldSanitizeHTML` is set, see docs/security.md). Default `false`:
   * it displays as text, and markdown images as links (`escapeHtml()`).
   */
  html?: boolean;
  /**
   * Show the tokens each run reports it used as a quiet line under its
   * answer (see `usageNote()`): `true` for "150 tokens (120 in, 30 out)", or
   * a function that says it your way. Default `false`.
   */
  showUsage?: boolean | DescribeUsage;
}

export interface CoalesceOptions {
  /** One merged chunk at most per task of this scheduler. Default: animation frames in a browser, else the async scheduler. */
  scheduler?: SchedulerLike;
  /** One merged chunk at most per this many milliseconds; 0 for one per task of the scheduler. Default 100, how often Carbon's markdown view refreshes. The shortest window when it adapts. */
  intervalMs?: number;
  /**
   * What each chunk handed over cost to render, in ms: each window then lasts
   * the latest cost divided by `renderShare`, between `intervalMs` and
   * `maxIntervalMs` (see `coalesceDeltas()`). `CarbonAgUiAdapter` measures it
   * for you (from `addMessageChunk` to the next animation frame).
   */
  renderCost?: Observable<number>;
  /** The longest adaptive window. Default 1,000 ms. */
  maxIntervalMs?: number;
  /** The share of the time Carbon's redraws may take, which sets an adaptive window's length. Default 0.2. */
  renderShare?: number;
}

/**
 * Turns an AG-UI event stream into Carbon AI Chat stream chunks for one turn,
 * in four groups of stages:
 *
 * - check: `validateEvents → expandChunks → verifySequence → stopWhen → onEvent → …operators`
 * - map: `inputMessages → sharedState → predictState → activities → textMessages → reasoningSteps → subagentSteps → toolCallSteps → carbonItems → messagesSnapshot → a2uiSurfaces → mcpApps → chainOfThought`
 * - end of run: `legacyInterrupt → interruptCards → clarification → runOutcome → usageNote`
 * - record and render: `applyToConversation → escapeHtml → toStreamChunks → coalesceDeltas`
 *
 * The mapping stages read only the stream (and what the conversation held
 * when the run began); `applyToConversation` is the one that writes it.
 *
 * ```
 * source: --R--S--a--b--E---F|     R: RUN_STARTED; S/a/b/E: a text message "Hel" "lo"; F: RUN_FINISHED
 * result: --------p-----(qc)(f|)   p: the first delta, at once; q: the next, held (up to 100 ms) until c, the complete_item "Hello"; f: final_response
 * ```
 */
export function agUiToCarbon(options: AgUiToCarbonOptions = {}): OperatorFunction<BaseEvent, CarbonStreamChunk> {
  return (source) =>
    defer(() => {
      // Without a conversation, each subscription gets one of its own.
      const conversation = options.conversation ?? new Conversation();
      // Consecutive stages of ours run fused as one rxjs operator: see pipeFused.
      return pipeFused(source, agUiToCarbonStages(options, conversation)) as Observable<CarbonStreamChunk>;
    });
}

/**
 * The stages of `agUiToCarbon(options)`, in order, for one subscription:
 * what the conversation holds is read now, as the run begins (internal: the
 * adapter and the fused runtime's property spec compose them).
 */
export function agUiToCarbonStages(options: AgUiToCarbonOptions, conversation: Conversation, keep: (instruction: CarbonInstruction) => boolean = () => false): OperatorFunction<unknown, unknown>[] {
  const { stop, onEvent, operators = [], answering = [], validate = true, coalesce = true, onInvalidEvent, onWarning, onToolCall, clientTools, askedTools, approvals, onActivity, onUsage, onRunFinished, detectClarification, onClarification, html = false, showUsage = false } =
    options;
  const itemOptions = itemOptionsOf(options);
  const history = conversation.messages;
  // What the person has seen so far: a run that streams it again replays it (copies: the history goes on growing).
  const shown = new Map(conversation.heldTexts);
  const answeredCalls = options.answeredCalls ?? conversation.answeredCalls();
  const clarificationContext = {
    threadId: conversation.threadId,
    state: conversation.state,
    ...(conversation.clarificationShownForState !== undefined && { shownForState: conversation.clarificationShownForState }),
  };
  const stages: OperatorFunction<never, unknown>[] = [
    // check
    ...(validate ? [validateEvents(onInvalidEvent ? { onInvalidEvent } : {})] : []),
    expandChunks(),
    verifySequence(onInvalidEvent ? { onStrayEvent: onInvalidEvent } : {}),
    ...(stop ? [stopWhen(stop)] : []),
    ...(onEvent ? [seeEvents(onEvent)] : []),
    ...operators,
    // map
    inputMessages(),
    sharedState(),
    predictState(onInvalidEvent ? { onInvalidEvent } : {}),
    activities(),
    textMessages({ shown, ...(options.saidBeforeResume && { saidBeforeResume: options.saidBeforeResume }) }),
    reasoningSteps(),
    subagentSteps(),
    toolCallSteps({ ...itemOptions, answeredCalls, ...(onToolCall && { onToolCall }), ...(clientTools && { clientTools }), ...(askedTools && { askedTools }), ...(approvals && { approvals: true }) }),
    carbonItems(itemOptions),
    messagesSnapshot({ knownMessageIds: [...history.map((message) => message.id), ...shown.keys()] }),
    a2uiSurfaces({ knownActivityIds: [...conversation.activities.keys()] }),
    mcpApps({ knownActivityIds: [...conversation.activities.keys()] }),
    chainOfThought(),
    // end of run
    legacyInterrupt(onWarning ? { onWarning } : {}),
    interruptCards({ history, waiting: conversation.pendingInterrupts.map(({ interrupt }) => interrupt.id).filter((id) => !answering.includes(id)), ...(askedTools && { askedTools }), ...(approvals && { approvals }) }),
    ...(detectClarification ? [clarification({ detectClarification, ...(onClarification && { onClarification }) }, clarificationContext)] : []),
    runOutcome(onRunFinished ? { onRunFinished } : {}),
    ...(showUsage === false ? [] : [usageNote(showUsage === true ? undefined : showUsage)]),
    // record and render
    applyToConversation(conversation, { ...(onWarning && { onWarning }), ...(onActivity && { onActivity }), ...(onUsage && { onUsage }) }),
    ...(html ? [] : [escapeHtml()]),
    toStreamChunksKeeping(options, keep as (instruction: CarbonInstruction) => instruction is CarbonInstruction),
    ...(coalesce === false ? [] : [coalesce === true ? coalesceDeltas() : coalesceDeltas(coalesce.scheduler, coalesce.intervalMs, adaptiveWindow(coalesce))]),
  ];
  return stages as OperatorFunction<unknown, unknown>[];
}

/** Shows each event to `onEvent`; instructions (such as a stop) pass unseen. */
function seeEvents(onEvent: (event: AGUIEvent) => void): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if ("type" in element) onEvent(element);
      out.next(element);
    },
  }));
}

/** The adaptive part of `coalesce`, when it has a cost to adapt to. */
function adaptiveWindow({ renderCost, maxIntervalMs, renderShare }: CoalesceOptions): AdaptiveWindow | undefined {
  return renderCost && { renderCost, ...(maxIntervalMs !== undefined && { maxIntervalMs }), ...(renderShare !== undefined && { renderShare }) };
}
