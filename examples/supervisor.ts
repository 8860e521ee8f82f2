/**
 * The demos' supervisor: asked about the tides, it hands the question to a
 * "researcher" subagent (which thinks, searches and writes its notes) and a
 * "fact_checker" (which runs out of budget), then answers from the notes,
 * reporting the tokens it used. Its events follow AG-UI 1.0's subagents:
 * SUBAGENT_STARTED under the call that delegates, everything the subagent
 * says carrying its `subagentRunId`, then SUBAGENT_FINISHED or
 * SUBAGENT_ERROR.
 */
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";

/** The supervisor's answer, and the words that are the researcher's (never the answer's). */
export const SUPERVISOR = {
  opening: "Let me ask the researcher.",
  notes: "Tidal forces: the moon's pull, and the sun's at about half of it.",
  answer: "The tides are caused by the moon.",
  checkerFailure: "fact_checker ran out of budget",
} as const;

/** The events of one supervisor run answering `input`. */
export function supervisorRun(input: Pick<RunAgentInput, "threadId" | "runId">): BaseEvent[] {
  const { threadId, runId } = input;
  const delegate = `delegate-${runId}`;
  const researcher = `researcher-${runId}`;
  const checker = `checker-${runId}`;
  const search = `search-${runId}`;
  const events: object[] = [
    { type: "RUN_STARTED", threadId, runId },
    { type: "TEXT_MESSAGE_START", messageId: `open-${runId}`, role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: `open-${runId}`, delta: SUPERVISOR.opening },
    { type: "TEXT_MESSAGE_END", messageId: `open-${runId}` },
    { type: "TOOL_CALL_START", toolCallId: delegate, toolCallName: "delegate_research", parentMessageId: `open-${runId}` },
    { type: "TOOL_CALL_ARGS", toolCallId: delegate, delta: JSON.stringify({ question: "Why are there tides?" }) },
    { type: "TOOL_CALL_END", toolCallId: delegate },
    { type: "SUBAGENT_STARTED", subagentRunId: researcher, name: "researcher", description: "Looks things up", parentToolCallId: delegate },
    { type: "REASONING_MESSAGE_START", messageId: `think-${runId}`, role: "reasoning", subagentRunId: researcher },
    { type: "REASONING_MESSAGE_CONTENT", messageId: `think-${runId}`, delta: "Search for tidal forces." },
    { type: "REASONING_MESSAGE_END", messageId: `think-${runId}` },
    { type: "TOOL_CALL_START", toolCallId: search, toolCallName: "search", parentMessageId: `notes-${runId}`, subagentRunId: researcher },
    { type: "TOOL_CALL_ARGS", toolCallId: search, delta: JSON.stringify({ query: "tidal forces" }) },
    { type: "TOOL_CALL_END", toolCallId: search },
    { type: "TOOL_CALL_RESULT", messageId: `found-${runId}`, toolCallId: search, content: "3 sources", subagentRunId: researcher },
    { type: "TEXT_MESSAGE_START", messageId: `notes-${runId}`, role: "assistant", subagentRunId: researcher },
    { type: "TEXT_MESSAGE_CONTENT", messageId: `notes-${runId}`, delta: SUPERVISOR.notes },
    { type: "TEXT_MESSAGE_END", messageId: `notes-${runId}` },
    { type: "SUBAGENT_FINISHED", subagentRunId: researcher, outcome: { type: "success" } },
    { type: "SUBAGENT_STARTED", subagentRunId: checker, name: "fact_checker", parentToolCallId: delegate },
    { type: "SUBAGENT_ERROR", subagentRunId: checker, message: SUPERVISOR.checkerFailure, code: "BUDGET_EXCEEDED" },
    { type: "TOOL_CALL_RESULT", messageId: `delegated-${runId}`, toolCallId: delegate, content: SUPERVISOR.notes },
    { type: "TEXT_MESSAGE_START", messageId: `answer-${runId}`, role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: `answer-${runId}`, delta: SUPERVISOR.answer },
    { type: "TEXT_MESSAGE_END", messageId: `answer-${runId}` },
    { type: "RUN_FINISHED", threadId, runId, usage: [{ provider: "scripted", model: "supervisor", inputTokens: 120, outputTokens: 30, totalTokens: 150 }, { provider: "scripted", model: "researcher", inputTokens: 80, outputTokens: 20, totalTokens: 100 }] },
  ];
  return events as BaseEvent[];
}
