import { EventType, type BaseEvent } from "@ag-ui/core";
import type { SnapshotVersion1 } from "../../src/persistence/migrateVersion1";
import { SNAPSHOT_VERSION, type ConversationSnapshot } from "../../src/persistence/snapshot";

export const TIME = "2026-12-01T10:00:00.000Z";

const event = (type: EventType, fields: object = {}) => ({ type, ...fields }) as BaseEvent;

/** A small log with one of everything: a question, a run with reasoning (an encrypted value), a tool call, text, state, an activity and an interrupt, the decision taken on it, feedback. */
export function aSnapshot(overrides: Partial<ConversationSnapshot> = {}): ConversationSnapshot {
  return {
    version: SNAPSHOT_VERSION,
    threadId: "thread-1",
    savedAt: TIME,
    entries: [
      { kind: "act", id: "e1", time: TIME, act: { type: "message", message: { id: "user-1", role: "user", content: "Weather in Oslo?" } } },
      {
        kind: "run",
        id: "e2",
        parent: "e1",
        runId: "run-1",
        responseId: "response-1",
        requestId: "user-1",
        time: TIME,
        events: [
          event(EventType.RUN_STARTED, { threadId: "thread-1", runId: "run-1" }),
          event(EventType.REASONING_START, { messageId: "reasoning-1" }),
          event(EventType.REASONING_MESSAGE_START, { messageId: "reasoning-1", role: "reasoning" }),
          event(EventType.REASONING_MESSAGE_CONTENT, { messageId: "reasoning-1", delta: "Call the tool." }),
          event(EventType.REASONING_MESSAGE_END, { messageId: "reasoning-1" }),
          event(EventType.REASONING_ENCRYPTED_VALUE, { subtype: "message", entityId: "reasoning-1", encryptedValue: "opaque-provider-blob" }),
          event(EventType.REASONING_END, { messageId: "reasoning-1" }),
          event(EventType.TOOL_CALL_START, { toolCallId: "call-1", toolCallName: "weather", parentMessageId: "assistant-1" }),
          event(EventType.TOOL_CALL_ARGS, { toolCallId: "call-1", delta: '{"city":"Oslo"}' }),
          event(EventType.TOOL_CALL_END, { toolCallId: "call-1" }),
          event(EventType.TOOL_CALL_RESULT, { messageId: "result-1", toolCallId: "call-1", content: "9 °C" }),
          event(EventType.TEXT_MESSAGE_START, { messageId: "assistant-2", role: "assistant" }),
          event(EventType.TEXT_MESSAGE_CONTENT, { messageId: "assistant-2", delta: "Mild." }),
          event(EventType.TEXT_MESSAGE_END, { messageId: "assistant-2" }),
          event(EventType.STATE_SNAPSHOT, { snapshot: { city: "Oslo" } }),
          event(EventType.ACTIVITY_SNAPSHOT, { messageId: "activity-1", activityType: "plan", content: { done: 1 } }),
          event(EventType.RUN_FINISHED, { threadId: "thread-1", runId: "run-1", outcome: { type: "interrupt", interrupts: [{ id: "int-1", reason: "tool_approval", message: "Send it?", expiresAt: "2026-12-01T11:00:00.000Z" }] } }),
        ],
        ended: "finished",
        responded: true,
      },
      { kind: "act", id: "e3", parent: "e2", time: TIME, act: { type: "decision", interruptId: "int-1", decision: { type: "approve" } } },
      { kind: "act", id: "e4", parent: "e3", time: TIME, act: { type: "feedback", responseId: "response-1", feedbackId: "fb-1", feedback: { is_positive: true } } },
    ],
    head: "e4",
    ...overrides,
  };
}

/** The same conversation as version 1 stored it: each view kept apart (the history, the transcript of what the chat showed, the cards). */
export function aVersion1Snapshot(overrides: Partial<SnapshotVersion1> = {}): SnapshotVersion1 {
  return {
    version: 1,
    threadId: "thread-1",
    savedAt: TIME,
    messages: [
      { id: "user-1", role: "user", content: "Weather in Oslo?" },
      { id: "reasoning-1", role: "reasoning", content: "Call the tool.", encryptedValue: "opaque-provider-blob" },
      { id: "assistant-1", role: "assistant", content: "Mild.", toolCalls: [{ id: "call-1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] },
      { id: "result-1", role: "tool", toolCallId: "call-1", content: "9 °C" },
    ],
    state: { city: "Oslo" },
    activities: [{ messageId: "activity-1", activityType: "plan", content: { done: 1 }, requestId: "user-1" }],
    pendingInterrupts: [{ interrupt: { id: "int-1", reason: "tool_approval", message: "Send it?", expiresAt: "2026-12-01T11:00:00.000Z" }, decision: { type: "approve" } }],
    transcript: [
      { kind: "request", id: "user-1", text: "Weather in Oslo?", time: TIME },
      {
        kind: "response",
        id: "response-1",
        requestId: "user-1",
        time: TIME,
        items: [{ response_type: "text", text: "Mild.", streaming_metadata: { id: "assistant-1" } }],
        messageOptions: { chain_of_thought: [{ tool_name: "weather", status: "success" }], reasoning: { steps: [{ title: "Reasoning", content: "Call the tool." }] } },
        feedback: { "fb-1": { is_positive: true } },
      },
    ],
    ...overrides,
  };
}
