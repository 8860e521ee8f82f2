import { SNAPSHOT_VERSION, type ConversationSnapshot } from "../../src/persistence/snapshot";

export const TIME = "2026-12-01T10:00:00.000Z";

/** A small snapshot with one of everything: a turn with reasoning, a tool call, an activity, a decided interrupt, feedback. */
export function aSnapshot(overrides: Partial<ConversationSnapshot> = {}): ConversationSnapshot {
  return {
    version: SNAPSHOT_VERSION,
    threadId: "thread-1",
    savedAt: TIME,
    messages: [
      { id: "user-1", role: "user", content: "Weather in Oslo?" },
      { id: "reasoning-1", role: "reasoning", content: "Call the tool.", encryptedValue: "opaque-provider-blob" },
      { id: "assistant-1", role: "assistant", content: "Mild.", toolCalls: [{ id: "call-1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] },
      { id: "result-1", role: "tool", toolCallId: "call-1", content: "9 °C" },
    ],
    state: { city: "Oslo" },
    activities: [{ messageId: "activity-1", activityType: "plan", content: { done: 1 } }],
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

