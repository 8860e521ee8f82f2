import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import type { CarbonItem, CarbonMessageOptions, CarbonStreamChunk } from "../../src/carbon";
import { OPTIONS_CARRIER_ID } from "../../src/operators/toStreamChunks";
import type { PipelineElement } from "../../src/instructions";

/** Terse AG-UI events for specs and marble scenarios. */
export const ev = {
  runStarted: (runId = "run-1", threadId = "thread-1"): BaseEvent => ({ type: EventType.RUN_STARTED, threadId, runId }),
  runFinished: (extra: Record<string, unknown> = {}): BaseEvent => ({ type: EventType.RUN_FINISHED, threadId: "thread-1", runId: "run-1", ...extra }),
  runError: (message: string, code?: string): BaseEvent => ({ type: EventType.RUN_ERROR, message, ...(code !== undefined && { code }) }),
  textStart: (messageId: string, role?: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_START, messageId, ...(role && { role }) }),
  text: (messageId: string, delta: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta }),
  textEnd: (messageId: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_END, messageId }),
  textChunk: (fields: { messageId?: string; delta?: string; role?: string }): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CHUNK, ...fields }),
  toolChunk: (fields: { toolCallId?: string; toolCallName?: string; delta?: string }): BaseEvent => ({ type: EventType.TOOL_CALL_CHUNK, ...fields }),
  reasoningChunk: (fields: { messageId?: string; delta?: string }): BaseEvent => ({ type: EventType.REASONING_MESSAGE_CHUNK, ...fields }),
  custom: (name: string, value: unknown = null): BaseEvent => ({ type: EventType.CUSTOM, name, value }),
  stepStarted: (stepName: string): BaseEvent => ({ type: EventType.STEP_STARTED, stepName }),
  stepFinished: (stepName: string): BaseEvent => ({ type: EventType.STEP_FINISHED, stepName }),
  toolStart: (toolCallId: string, toolCallName: string): BaseEvent => ({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName }),
  toolArgs: (toolCallId: string, delta: string): BaseEvent => ({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta }),
  toolEnd: (toolCallId: string): BaseEvent => ({ type: EventType.TOOL_CALL_END, toolCallId }),
};

/** The instructions the mapping operators emit. */
export const instr = {
  textDelta: (itemId: string, text: string): PipelineElement => ({ kind: "item.delta", itemId, item: { response_type: "text", text } }),
  textComplete: (itemId: string, text: string): PipelineElement => ({ kind: "item.complete", itemId, item: { response_type: "text", text } }),
  history: (message: Message): PipelineElement => ({ kind: "history.message", message }),
  finished: (): PipelineElement => ({ kind: "turn.end", how: "finished" }),
  stopped: (): PipelineElement => ({ kind: "turn.end", how: "stopped" }),
  failed: (error: Error): PipelineElement => ({ kind: "turn.end", how: "failed", error }),
};

/** Carbon chunks as the pipeline emits them. */
export const carbon = {
  partialText: (responseId: string, itemId: string, text: string): CarbonStreamChunk => ({
    partial_item: { response_type: "text", text, streaming_metadata: { id: itemId, cancellable: true } },
    streaming_metadata: { response_id: responseId },
  }),
  completeText: (responseId: string, itemId: string, text: string, stopped = false): CarbonStreamChunk => ({
    complete_item: carbon.textItem(itemId, text, stopped),
    streaming_metadata: { response_id: responseId },
  }),
  textItem: (itemId: string, text: string, stopped = false): CarbonItem => ({
    response_type: "text",
    text,
    streaming_metadata: { id: itemId, ...(stopped && { stream_stopped: true }) },
  }),
  /** Message options riding on an empty text delta of `itemId` (by default the carrier item). */
  options: (responseId: string, message_options: CarbonMessageOptions, itemId: string = OPTIONS_CARRIER_ID): CarbonStreamChunk => ({
    partial_item: { response_type: "text", text: "", streaming_metadata: { id: itemId, cancellable: true } },
    partial_response: { message_options },
    streaming_metadata: { response_id: responseId },
  }),
  final: (responseId: string, generic: CarbonItem[], extra: { errorState?: number; requestId?: string } = {}): CarbonStreamChunk => ({
    final_response: {
      id: responseId,
      ...(extra.requestId !== undefined && { request_id: extra.requestId }),
      output: { generic },
      ...(extra.errorState !== undefined && { history: { error_state: extra.errorState } }),
    },
  }),
};
