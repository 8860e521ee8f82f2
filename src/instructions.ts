import type { AGUIEvent as AgUiEvent, BaseEvent, Interrupt, Message, RunFinishedOutcome, TokenUsage } from "@ag-ui/core";
import type { CarbonChainOfThoughtStep, CarbonItem, CarbonItemDelta, CarbonMessageOptions } from "./carbon";

export type { AgUiEvent };

/** A streamed piece of an item: Carbon joins `text` deltas. */
export interface ItemDeltaInstruction {
  kind: "item.delta";
  itemId: string;
  item: CarbonItemDelta;
}

/** A finished item; it replaces whatever was streamed for the same id. */
export interface ItemCompleteInstruction {
  kind: "item.complete";
  itemId: string;
  item: CarbonItem;
}

/** A message for the conversation history (sent to the agent with the next run). */
export interface HistoryMessageInstruction {
  kind: "history.message";
  message: Message;
}

/**
 * A message has started (its START event): its place in the history is held,
 * so the history keeps the order in which messages began. Nothing shows until
 * a `history.message` (or encrypted value) for it arrives.
 */
export interface HistoryReserveInstruction {
  kind: "history.reserve";
  messageId: string;
  role: "assistant" | "user" | "system" | "developer" | "reasoning";
  /** The subagent invocation that says the message, when one does. */
  subagentRunId?: string;
}

/** A provider's encrypted reasoning artefact for a message or a tool call: kept in the history, never shown. */
export interface HistoryEncryptedValueInstruction {
  kind: "history.encryptedValue";
  subtype: "message" | "tool-call";
  entityId: string;
  encryptedValue: string;
}

/**
 * Message options (chain of thought, reasoning) that changed: each key given
 * holds its whole new value, as Carbon merges arrays by index.
 */
export interface MessageOptionsInstruction {
  kind: "options";
  options: CarbonMessageOptions;
}

/** A step of the chain of thought that began or changed, by its key (unique in the run: `tool:<toolCallId>`, `subagent:<subagentRunId>`). */
export interface ChainStepChange {
  key: string;
  step: CarbonChainOfThoughtStep;
  /** For a new step: the key of the step it belongs under (the call that started a subagent, the subagent that made a call); it goes after that step and the steps already under it, else last. */
  under?: string;
}

/** Steps of the chain of thought that began or changed together: `chainOfThought()` puts them in the one chain Carbon shows. */
export interface ChainStepsInstruction {
  kind: "chain.steps";
  changes: readonly ChainStepChange[];
}

/** Words a subagent said (its text, or its reasoning) in a message now complete: they belong to its step, not to the answer. */
export interface SubagentSaidInstruction {
  kind: "subagent.said";
  subagentRunId: string;
  said: "text" | "reasoning";
  text: string;
}

/** The tokens a run used, as its RUN_FINISHED or RUN_ERROR reported them: the conversation keeps them. */
export interface RunUsageInstruction {
  kind: "run.usage";
  runId: string;
  usage: readonly TokenUsage[];
}

/**
 * The end of the turn. `finished`: the run is done. `stopped`: cut short on
 * purpose (open items show "Response stopped"). `failed`: the run failed with
 * `error`, which the pipeline raises after the final response.
 */
export type TurnEndInstruction =
  | { kind: "turn.end"; how: "finished" | "stopped" }
  | { kind: "turn.end"; how: "failed"; error: Error };

/** A MESSAGES_SNAPSHOT: the history becomes these messages, reconciled by id (see `Conversation.replaceMessages`). */
export interface HistorySnapshotInstruction {
  kind: "history.snapshot";
  messages: readonly Message[];
}

/** The messages a RUN_STARTED echoes in its `input`: those the history does not hold join it, in order (as `@ag-ui/client` applies them). */
export interface HistoryInputInstruction {
  kind: "history.input";
  messages: readonly Message[];
}

/** The shared state becomes `snapshot` (a STATE_SNAPSHOT). */
export interface StateSnapshotInstruction {
  kind: "state.snapshot";
  snapshot: unknown;
}

/** An RFC 6902 patch to the shared state, applied all or nothing (a STATE_DELTA). */
export interface StateDeltaInstruction {
  kind: "state.delta";
  delta: readonly unknown[];
}

/** An activity is set (ACTIVITY_SNAPSHOT); with `replace: false` only when it does not exist yet. */
export interface ActivitySnapshotInstruction {
  kind: "activity.snapshot";
  messageId: string;
  activityType: string;
  content: Record<string, unknown>;
  replace: boolean;
}

/** An RFC 6902 patch to an activity's content, applied all or nothing (ACTIVITY_DELTA). */
export interface ActivityDeltaInstruction {
  kind: "activity.delta";
  messageId: string;
  activityType: string;
  patch: readonly unknown[];
}

/** Interrupts that now await a resume, after those already pending. */
export interface PendingInterruptsInstruction {
  kind: "interrupts.pending";
  interrupts: readonly Interrupt[];
}

/** A clarification card for `question` was shown, for the shared state as it is now. */
export interface ClarificationShownInstruction {
  kind: "clarification.shown";
  question: string;
}

/** Everything the conversation records: `applyToConversation()` is the one stage that writes these into it. */
export type ConversationWrite =
  | HistoryMessageInstruction
  | HistoryReserveInstruction
  | HistoryEncryptedValueInstruction
  | HistorySnapshotInstruction
  | HistoryInputInstruction
  | StateSnapshotInstruction
  | StateDeltaInstruction
  | ActivitySnapshotInstruction
  | ActivityDeltaInstruction
  | PendingInterruptsInstruction
  | ClarificationShownInstruction
  | RunUsageInstruction;

/** One tool call of a run, as the run left it. */
export interface RunToolCall {
  toolCallId: string;
  name: string;
  /** The arguments as streamed (JSON text, possibly cut short). */
  arguments: string;
  /**
   * `answered`: it has a result. `handedOver`: the run's outcome names it, or
   * it calls a client tool: the client answers it, and the answer comes with
   * the next run. `held`: an interrupt holds it, or a tool server's approval
   * (`approvalId`); the decision answers it.
   * `failed`: it ended without a result.
   */
  status: "answered" | "handedOver" | "held" | "failed";
  /** The tool server's approval that holds the call (its result was `{ "pending_approval": … }`). */
  approvalId?: string;
}

/**
 * The run's tool calls as it finished, sent by `toolCallSteps()` just before
 * the RUN_FINISHED it decided them on: the one place that tells which calls
 * are answered, handed over, held or failed, for the stages that read the
 * end of the run (`runOutcome()`, `interruptCards()`).
 */
export interface RunToolCallsInstruction {
  kind: "run.toolCalls";
  calls: readonly RunToolCall[];
}

/**
 * The run finished (RUN_FINISHED), as `runOutcome()` read it: `outcome`
 * (absent: a success), with the `pendingToolCallIds` derived when the agent
 * listed none, and its `result`.
 */
export interface RunFinishedInstruction {
  kind: "run.finished";
  outcome?: RunFinishedOutcome;
  result?: unknown;
}

/** What the mapping operators produce for `toStreamChunks()` to turn into Carbon chunks, and for `applyToConversation()` to record. */
export type CarbonInstruction =
  | ItemDeltaInstruction
  | ItemCompleteInstruction
  | MessageOptionsInstruction
  | ChainStepsInstruction
  | SubagentSaidInstruction
  | RunUsageInstruction
  | TurnEndInstruction
  | ConversationWrite
  | RunToolCallsInstruction
  | RunFinishedInstruction;

/**
 * What flows between the mapping operators: AG-UI events not yet mapped, and
 * the instructions mapped so far. An operator takes what it owns and passes
 * everything else along unchanged.
 */
export type PipelineElement = AgUiEvent | CarbonInstruction;

/** Tells events (which always have a `type`) from instructions (which never do). */
export function isAgUiEvent(element: PipelineElement | BaseEvent): element is AgUiEvent {
  return "type" in element;
}

/** Narrows a pipeline element to an event of one type. */
export function isEventOfType<T extends AgUiEvent["type"]>(
  element: PipelineElement,
  type: T,
): element is Extract<AgUiEvent, { type: T }> {
  return "type" in element && element.type === type;
}
