import type { AGUIEvent as AgUiEvent, BaseEvent, Message } from "@ag-ui/core";
import type { CarbonItem, CarbonItemDelta, CarbonMessageOptions } from "./carbon";

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

/**
 * The end of the turn. `finished`: the run is done. `stopped`: cut short on
 * purpose (open items show "Response stopped"). `failed`: the run failed with
 * `error`, which the pipeline raises after the final response.
 */
export type TurnEndInstruction =
  | { kind: "turn.end"; how: "finished" | "stopped" }
  | { kind: "turn.end"; how: "failed"; error: Error };

/** What the mapping operators produce for `toStreamChunks()` to turn into Carbon chunks. */
export type CarbonInstruction =
  | ItemDeltaInstruction
  | ItemCompleteInstruction
  | HistoryMessageInstruction
  | HistoryReserveInstruction
  | HistoryEncryptedValueInstruction
  | MessageOptionsInstruction
  | TurnEndInstruction;

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
