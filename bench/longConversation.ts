import type { Message } from "@ag-ui/core";
import { SNAPSHOT_VERSION, type ConversationSnapshot } from "../src/persistence/snapshot";
import type { TranscriptEntry } from "../src/persistence/transcript";

const paragraph = (turn: number, tables: boolean) =>
  `**Turn ${turn}.** The forecast for Oslo is mild for the season, with light rain in the afternoon and a clearing sky by evening. ` +
  "Temperatures stay between 4 and 9 °C; winds from the south-west at 5–8 m/s.\n\n" +
  (!tables ? "" : "| Time | Sky | °C |\n| --- | --- | --- |\n| 09:00 | cloudy | 5 |\n| 15:00 | rain | 8 |\n| 21:00 | clear | 6 |\n\n") +
  "- Take an umbrella after lunch.\n- Sunset is at 15:40.\n- Tomorrow looks drier.\n\n" +
  (!tables ? "" : "```json\n{\"city\":\"Oslo\",\"high\":9,\"low\":4}\n```\n\n") + "Ask me about another city, or for the week ahead.";
const reasoning = (turn: number) =>
  `The person asks about the weather (turn ${turn}). I should call the weather tool for Oslo, then summarise the result in a short table, ` +
  "mention rain timing, and suggest an umbrella. The tool returns highs and lows in Celsius, which is what they use. ".repeat(4);

/**
 * A realistic long conversation: `turns` turns, each a question, a reasoning
 * step, a weather tool call with its result, a markdown answer (~1,000
 * characters with a table and a code block; ~600 without `tables`); a custom
 * card every 50th turn; the last turn ends on an approval card still pending.
 */
export function longConversation(turns: number, { tables = true } = {}): ConversationSnapshot {
  const messages: Message[] = [];
  const transcript: TranscriptEntry[] = [];
  const start = Date.parse("2026-12-01T09:00:00.000Z");
  for (let turn = 1; turn <= turns; turn++) {
    const time = new Date(start + turn * 60_000).toISOString();
    const question = `What is the weather in Oslo today? (question ${turn})`;
    const callId = `call-${turn}`;
    const result = JSON.stringify({ city: "Oslo", high: 9, low: 4, sky: ["cloudy", "rain", "clear"], wind: { from: "SW", speed: [5, 8] } });
    messages.push(
      { id: `user-${turn}`, role: "user", content: question },
      { id: `reasoning-${turn}`, role: "reasoning", content: reasoning(turn), encryptedValue: `enc-${"x".repeat(200)}-${turn}` } as Message,
      { id: `assistant-${turn}`, role: "assistant", content: paragraph(turn, tables), toolCalls: [{ id: callId, type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] },
      { id: `result-${turn}`, role: "tool", toolCallId: callId, content: result },
    );
    transcript.push(
      { kind: "request", id: `user-${turn}`, text: question, time },
      {
        kind: "response",
        id: `response-${turn}`,
        requestId: `user-${turn}`,
        time,
        items: [
          { response_type: "text", text: paragraph(turn, tables), streaming_metadata: { id: `assistant-${turn}` } },
          ...(turn % 50 === 0 ? [{ response_type: "user_defined", user_defined: { kind: "forecast", city: "Oslo", days: [4, 5, 6, 7, 8] }, streaming_metadata: { id: `card-${turn}` } }] : []),
        ],
        messageOptions: {
          chain_of_thought: [{ tool_name: "weather", request: { args: { city: "Oslo" } }, response: { content: result }, status: "success" }],
          reasoning: { steps: [{ title: "Reasoning", content: reasoning(turn) }] },
        },
      },
    );
  }
  const interrupt = { id: "approve-1", reason: "tool_approval", message: "Send the forecast to the team?", toolCallId: `call-${turns}` };
  transcript.push({
    kind: "response",
    id: "response-card",
    time: new Date(start + (turns + 1) * 60_000).toISOString(),
    items: [{ response_type: "user_defined", user_defined: { kind: "interrupt", interruptId: interrupt.id, reason: interrupt.reason, message: interrupt.message }, streaming_metadata: { id: `interrupt-${interrupt.id}` } }],
  });
  return {
    version: SNAPSHOT_VERSION,
    threadId: "thread-long",
    savedAt: new Date(start + (turns + 2) * 60_000).toISOString(),
    messages,
    state: { city: "Oslo", units: "metric", turns },
    activities: [{ messageId: "activity-plan", activityType: "plan", content: { steps: ["ask", "call", "answer"], done: 3 } }],
    pendingInterrupts: [{ interrupt }],
    transcript,
  };
}
