import { EventType, type BaseEvent } from "@ag-ui/core";
import { SNAPSHOT_VERSION, type ConversationSnapshot } from "../src/persistence/snapshot";
import type { LogEntry } from "../src/thread/log";

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
 * A realistic long conversation, as the thread's log keeps it: `turns`
 * turns, each a question and the run that answered it (a reasoning step, a
 * weather tool call with its result, a markdown answer of ~1,000 characters
 * with a table and a code block, ~600 without `tables`); a custom card every
 * 50th turn; the state; the last run ends on an approval card still pending.
 */
export function longConversation(turns: number, { tables = true } = {}): ConversationSnapshot {
  const entries: LogEntry[] = [];
  const start = Date.parse("2026-12-01T09:00:00.000Z");
  const threadId = "thread-long";
  let parent: string | undefined;
  const add = (entry: LogEntry) => {
    entries.push({ ...entry, ...(parent !== undefined && { parent }) } as LogEntry);
    parent = entry.id;
  };
  for (let turn = 1; turn <= turns; turn++) {
    const time = new Date(start + turn * 60_000).toISOString();
    const question = `What is the weather in Oslo today? (question ${turn})`;
    const callId = `call-${turn}`;
    const runId = `run-${turn}`;
    const result = JSON.stringify({ city: "Oslo", high: 9, low: 4, sky: ["cloudy", "rain", "clear"], wind: { from: "SW", speed: [5, 8] } });
    const last = turn === turns;
    const event = (type: EventType, fields: object = {}) => ({ type, ...fields }) as BaseEvent;
    add({ kind: "act", id: `asked-${turn}`, time, act: { type: "message", message: { id: `user-${turn}`, role: "user", content: question } } });
    add({
      kind: "run",
      id: `answer-${turn}`,
      runId,
      responseId: `response-${turn}`,
      requestId: `user-${turn}`,
      time,
      ended: "finished",
      responded: true,
      events: [
        event(EventType.RUN_STARTED, { threadId, runId }),
        event(EventType.REASONING_START, { messageId: `reasoning-${turn}` }),
        event(EventType.REASONING_MESSAGE_START, { messageId: `reasoning-${turn}`, role: "reasoning" }),
        event(EventType.REASONING_MESSAGE_CONTENT, { messageId: `reasoning-${turn}`, delta: reasoning(turn) }),
        event(EventType.REASONING_MESSAGE_END, { messageId: `reasoning-${turn}` }),
        event(EventType.REASONING_ENCRYPTED_VALUE, { subtype: "message", entityId: `reasoning-${turn}`, encryptedValue: `enc-${"x".repeat(200)}-${turn}` }),
        event(EventType.REASONING_END, { messageId: `reasoning-${turn}` }),
        event(EventType.TOOL_CALL_START, { toolCallId: callId, toolCallName: "weather", parentMessageId: `assistant-${turn}` }),
        event(EventType.TOOL_CALL_ARGS, { toolCallId: callId, delta: '{"city":"Oslo"}' }),
        event(EventType.TOOL_CALL_END, { toolCallId: callId }),
        event(EventType.TOOL_CALL_RESULT, { messageId: `result-${turn}`, toolCallId: callId, content: result }),
        event(EventType.TEXT_MESSAGE_START, { messageId: `assistant-${turn}`, role: "assistant" }),
        event(EventType.TEXT_MESSAGE_CONTENT, { messageId: `assistant-${turn}`, delta: paragraph(turn, tables) }),
        event(EventType.TEXT_MESSAGE_END, { messageId: `assistant-${turn}` }),
        ...(turn % 50 === 0 ? [event(EventType.CUSTOM, { name: "carbon.item", value: { response_type: "user_defined", user_defined: { kind: "forecast", city: "Oslo", days: [4, 5, 6, 7, 8] } } })] : []),
        ...(last ? [event(EventType.STATE_SNAPSHOT, { snapshot: { city: "Oslo", units: "metric", turns } }), event(EventType.ACTIVITY_SNAPSHOT, { messageId: "activity-plan", activityType: "plan", content: { steps: ["ask", "call", "answer"], done: 3 } })] : []),
        event(EventType.RUN_FINISHED, { threadId, runId, ...(last && { outcome: { type: "interrupt", interrupts: [{ id: "approve-1", reason: "tool_approval", message: "Send the forecast to the team?", toolCallId: callId }] } }) }),
      ],
    });
  }
  return { version: SNAPSHOT_VERSION, threadId, savedAt: new Date(start + (turns + 2) * 60_000).toISOString(), entries, ...(parent !== undefined && { head: parent }) };
}
