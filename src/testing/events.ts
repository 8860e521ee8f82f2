import {
  EventType,
  type ActivityDeltaEvent,
  type ActivitySnapshotEvent,
  type AGUIEvent,
  type CustomEvent,
  type Interrupt,
  type JsonPatchOperation,
  type Message,
  type MessagesSnapshotEvent,
  type RawEvent,
  type ReasoningEncryptedValueEvent,
  type ReasoningEndEvent,
  type ReasoningMessageChunkEvent,
  type ReasoningMessageContentEvent,
  type ReasoningMessageEndEvent,
  type ReasoningMessageStartEvent,
  type ReasoningStartEvent,
  type RunErrorEvent,
  type RunFinishedEvent,
  type RunStartedEvent,
  type StateDeltaEvent,
  type StateSnapshotEvent,
  type StepFinishedEvent,
  type StepStartedEvent,
  type SubagentErrorEvent,
  type SubagentFinishedEvent,
  type SubagentStartedEvent,
  type TextMessageChunkEvent,
  type TextMessageContentEvent,
  type TextMessageEndEvent,
  type TextMessageStartEvent,
  type ToolCallArgsEvent,
  type ToolCallChunkEvent,
  type ToolCallEndEvent,
  type ToolCallResultEvent,
  type ToolCallStartEvent,
} from "@ag-ui/core";
import type { CarbonItem } from "carbon-agui-rx";

/** The thread and run ids the builders use unless told otherwise. */
export const TEST_THREAD_ID = "thread-1";
export const TEST_RUN_ID = "run-1";

type Fields<E> = Omit<E, "type">;
const event = <E extends AGUIEvent>(type: E["type"], fields: object): E => ({ type, ...fields }) as E;
/** Leaves out the optional fields that were not given, as a producer would. */
const defined = <T extends object>(fields: T): T => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;

/**
 * Terse, typed AG-UI 1.0 events for tests: one builder per event type, and a
 * few that stand for several events (`message`, `toolCall`, `run`).
 */
export const ev = {
  runStarted: (runId = TEST_RUN_ID, threadId = TEST_THREAD_ID): RunStartedEvent => event(EventType.RUN_STARTED, { threadId, runId }),
  runFinished: (fields: Partial<Fields<RunFinishedEvent>> = {}): RunFinishedEvent =>
    event(EventType.RUN_FINISHED, { threadId: TEST_THREAD_ID, runId: TEST_RUN_ID, ...fields }),
  runError: (message: string, code?: string): RunErrorEvent => event(EventType.RUN_ERROR, defined({ message, code })),
  /** RUN_FINISHED whose outcome asks a person about each interrupt. */
  interrupt: (...interrupts: Interrupt[]): RunFinishedEvent => ev.runFinished({ outcome: { type: "interrupt", interrupts } }),

  textStart: (messageId: string, role?: TextMessageStartEvent["role"]): TextMessageStartEvent => event(EventType.TEXT_MESSAGE_START, defined({ messageId, role })),
  text: (messageId: string, delta: string): TextMessageContentEvent => event(EventType.TEXT_MESSAGE_CONTENT, { messageId, delta }),
  textEnd: (messageId: string): TextMessageEndEvent => event(EventType.TEXT_MESSAGE_END, { messageId }),
  textChunk: (fields: Fields<TextMessageChunkEvent>): TextMessageChunkEvent => event(EventType.TEXT_MESSAGE_CHUNK, fields),
  /** A whole assistant message: START, one CONTENT per delta, END. */
  message: (messageId: string, ...deltas: string[]): AGUIEvent[] => [ev.textStart(messageId), ...deltas.map((delta) => ev.text(messageId, delta)), ev.textEnd(messageId)],

  toolStart: (toolCallId: string, toolCallName: string, parentMessageId?: string): ToolCallStartEvent =>
    event(EventType.TOOL_CALL_START, defined({ toolCallId, toolCallName, parentMessageId })),
  toolArgs: (toolCallId: string, delta: string): ToolCallArgsEvent => event(EventType.TOOL_CALL_ARGS, { toolCallId, delta }),
  toolEnd: (toolCallId: string): ToolCallEndEvent => event(EventType.TOOL_CALL_END, { toolCallId }),
  toolResult: (toolCallId: string, content: string, messageId = `result-${toolCallId}`): ToolCallResultEvent =>
    event(EventType.TOOL_CALL_RESULT, { messageId, toolCallId, content }),
  toolChunk: (fields: Fields<ToolCallChunkEvent>): ToolCallChunkEvent => event(EventType.TOOL_CALL_CHUNK, fields),
  /** A whole tool call: START, its arguments as one ARGS (JSON), END. */
  toolCall: (toolCallId: string, toolCallName: string, args: unknown = {}, parentMessageId?: string): AGUIEvent[] => [
    ev.toolStart(toolCallId, toolCallName, parentMessageId),
    ev.toolArgs(toolCallId, JSON.stringify(args)),
    ev.toolEnd(toolCallId),
  ],

  stateSnapshot: (snapshot: unknown): StateSnapshotEvent => event(EventType.STATE_SNAPSHOT, { snapshot }),
  stateDelta: (...delta: JsonPatchOperation[]): StateDeltaEvent => event(EventType.STATE_DELTA, { delta }),
  messagesSnapshot: (...messages: Message[]): MessagesSnapshotEvent => event(EventType.MESSAGES_SNAPSHOT, { messages }),
  activitySnapshot: (messageId: string, activityType: string, content: Record<string, unknown>, replace?: boolean): ActivitySnapshotEvent =>
    event(EventType.ACTIVITY_SNAPSHOT, defined({ messageId, activityType, content, replace })),
  activityDelta: (messageId: string, activityType: string, ...patch: JsonPatchOperation[]): ActivityDeltaEvent =>
    event(EventType.ACTIVITY_DELTA, { messageId, activityType, patch }),

  raw: (payload: unknown, source?: string): RawEvent => event(EventType.RAW, defined({ event: payload, source })),
  custom: (name: string, value: unknown = null): CustomEvent => event(EventType.CUSTOM, { name, value }),
  /** The generative-UI events: native Carbon items. */
  carbonItem: (item: CarbonItem): CustomEvent => ev.custom("carbon.item", item),
  carbonItems: (...items: CarbonItem[]): CustomEvent => ev.custom("carbon.items", items),

  stepStarted: (stepName: string): StepStartedEvent => event(EventType.STEP_STARTED, { stepName }),
  stepFinished: (stepName: string): StepFinishedEvent => event(EventType.STEP_FINISHED, { stepName }),

  reasoningStart: (messageId: string): ReasoningStartEvent => event(EventType.REASONING_START, { messageId }),
  reasoningMessageStart: (messageId: string): ReasoningMessageStartEvent => event(EventType.REASONING_MESSAGE_START, { messageId, role: "reasoning" }),
  reasoning: (messageId: string, delta: string): ReasoningMessageContentEvent => event(EventType.REASONING_MESSAGE_CONTENT, { messageId, delta }),
  reasoningMessageEnd: (messageId: string): ReasoningMessageEndEvent => event(EventType.REASONING_MESSAGE_END, { messageId }),
  reasoningChunk: (fields: Fields<ReasoningMessageChunkEvent>): ReasoningMessageChunkEvent => event(EventType.REASONING_MESSAGE_CHUNK, fields),
  reasoningEnd: (messageId: string): ReasoningEndEvent => event(EventType.REASONING_END, { messageId }),
  reasoningEncryptedValue: (subtype: ReasoningEncryptedValueEvent["subtype"], entityId: string, encryptedValue: string): ReasoningEncryptedValueEvent =>
    event(EventType.REASONING_ENCRYPTED_VALUE, { subtype, entityId, encryptedValue }),

  subagentStarted: (subagentRunId: string, name: string): SubagentStartedEvent => event(EventType.SUBAGENT_STARTED, { subagentRunId, name }),
  subagentFinished: (subagentRunId: string): SubagentFinishedEvent => event(EventType.SUBAGENT_FINISHED, { subagentRunId }),
  subagentError: (subagentRunId: string, message: string): SubagentErrorEvent => event(EventType.SUBAGENT_ERROR, { subagentRunId, message }),

  /** A whole run: RUN_STARTED, the body (events or lists of them), then RUN_FINISHED unless the body already ends the run. */
  run: (...body: (AGUIEvent | AGUIEvent[])[]): AGUIEvent[] => {
    const events = body.flat();
    const last = events.at(-1)?.type;
    const ended = last === EventType.RUN_FINISHED || last === EventType.RUN_ERROR;
    return [ev.runStarted(), ...events, ...(ended ? [] : [ev.runFinished()])];
  },
};

/** Names the events of a list `a`, `b`, `c`, … and makes the marble that sends them one per frame: for `agent(marble, values)`. */
export function eventMarble(events: readonly AGUIEvent[]): { marble: string; values: Record<string, AGUIEvent> } {
  const names = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  if (events.length > names.length) throw new Error(`eventMarble: at most ${names.length} events`);
  return { marble: `${names.slice(0, events.length)}|`, values: Object.fromEntries(events.map((value, index) => [names[index]!, value])) };
}
