/**
 * The demo agent's meetings: asked to book a meeting, and offered `schedule_meeting` in the run's `tools`, it calls
 * that tool and ends the run without a result, as an agent does with a tool the client answers. The page declared
 * the tool without a handler, so the person answers it on a decision card; the run that follows carries the whole
 * history with the answer as the call's result, and the agent says what it booked (the arguments as approved or
 * edited) or that it booked nothing. Everything else goes to the agent it wraps.
 */
import type { Message, RunAgentInput } from "@ag-ui/core";
import type { AgentScript, SseResponse } from "carbon-agui-rx/testing";
import { SCHEDULE_MEETING, type Meeting } from "./meetingTool";

export function withMeetings(agent: AgentScript): AgentScript {
  return async (input, sse) => {
    // A real agent calls only the tools the client offered: without `schedule_meeting` (the terminal demo, another page), no meetings.
    if (!input.resume?.length && input.tools?.some((tool) => tool.name === SCHEDULE_MEETING.name)) {
      const answered = answeredMeeting(input.messages);
      if (answered) return reportBooking(sse, input, answered.proposed, answered.result);
      const last = input.messages.at(-1);
      if (last?.role === "user" && typeof last.content === "string" && /\bmeeting\b/i.test(last.content)) return proposeMeeting(sse, input, meetingIn(last.content));
    }
    return agent(input, sse);
  };
}

/** The meeting a request describes: "book a meeting with Ana about the roadmap tomorrow at 10" is "Roadmap with Ana", tomorrow 10:00. */
export function meetingIn(text: string, now = new Date()): Meeting {
  const about = /\babout\s+(?:the\s+|an?\s+)?(.+?)(?=\s+(?:today|tomorrow|at\s+\d|with\s)|[.!?]*$)/i.exec(text)?.[1];
  const who = /\bwith\s+(\p{Lu}[\p{L}'’-]*(?:\s+(?:and\s+)?\p{Lu}[\p{L}'’-]*)*)/u.exec(text)?.[1];
  const subject = about ? `${about.charAt(0).toUpperCase()}${about.slice(1)}` : "Meeting";
  const title = who ? `${subject} with ${who}` : subject;
  const at = /\bat\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\b/i.exec(text);
  const clock = Number(at?.[1] ?? 10);
  const hour = !at?.[3] ? Math.min(clock, 23) : (clock % 12) + (at[3].toLowerCase() === "pm" ? 12 : 0);
  const day = new Date(now);
  if (!/\btoday\b/i.test(text)) day.setDate(day.getDate() + 1);
  const two = (value: number) => String(value).padStart(2, "0");
  return { title, time: `${day.getFullYear()}-${two(day.getMonth() + 1)}-${two(day.getDate())} ${two(hour)}:${at?.[2] ?? "00"}` };
}

/** Says what it will book, calls `schedule_meeting`, and ends the run handing the call to the client. */
async function proposeMeeting(sse: SseResponse, input: RunAgentInput, meeting: Meeting) {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  const messageId = `answer-${runId}`;
  const toolCallId = `meeting-${runId}`;
  send({ type: "RUN_STARTED", threadId, runId });
  send({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" });
  send({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: "I'll book it once you have checked it." });
  send({ type: "TEXT_MESSAGE_END", messageId });
  send({ type: "TOOL_CALL_START", toolCallId, toolCallName: SCHEDULE_MEETING.name, parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(meeting) });
  send({ type: "TOOL_CALL_END", toolCallId });
  send({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success", pendingToolCallIds: [toolCallId] } });
  sse.end();
}

/** The `schedule_meeting` call the last message answers (a tool result), with what the agent proposed and the result. */
function answeredMeeting(messages: readonly Message[]): { proposed: Meeting | undefined; result: string } | undefined {
  const last = messages.at(-1);
  if (last?.role !== "tool") return undefined;
  const call = messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).find((candidate) => candidate.id === last.toolCallId);
  if (call?.function.name !== SCHEDULE_MEETING.name) return undefined;
  return { proposed: asMeeting(parsed(call.function.arguments)), result: typeof last.content === "string" ? last.content : "" };
}

/**
 * Answers from the call's result: the card's `{"approved":true}` books what was proposed, `{"approved":true,"args":…}`
 * what the person edited, `{"status":"cancelled"}` nothing; an app's own result (`respondToToolCall`) that is a
 * meeting is booked as it is.
 */
async function reportBooking(sse: SseResponse, input: RunAgentInput, proposed: Meeting | undefined, content: string) {
  const result = (parsed(content) ?? {}) as { approved?: unknown; args?: unknown; status?: unknown };
  const declined = result.status === "cancelled" || result.approved === false;
  const meeting = declined ? undefined : result.args !== undefined ? asMeeting(result.args) : result.approved === true ? proposed : asMeeting(result);
  const changed = meeting !== undefined && proposed !== undefined && (meeting.title !== proposed.title || meeting.time !== proposed.time);
  const text = declined ? "Not booked." : meeting ? `Booked “${meeting.title}” for ${meeting.time}${changed ? ", as you changed it" : ""}.` : "Not booked: the answer had no title and time I could use.";
  const { threadId, runId } = input;
  const messageId = `answer-${runId}`;
  sse.send({ type: "RUN_STARTED", threadId, runId } as never);
  sse.send({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" } as never);
  sse.send({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: text } as never);
  sse.send({ type: "TEXT_MESSAGE_END", messageId } as never);
  sse.send({ type: "RUN_FINISHED", threadId, runId } as never);
  sse.end();
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

function asMeeting(value: unknown): Meeting | undefined {
  const { title, time } = (value ?? {}) as Partial<Record<keyof Meeting, unknown>>;
  return typeof title === "string" && typeof time === "string" ? { title, time } : undefined;
}
