import type { Interrupt, ResumeEntry, Tool } from "@ag-ui/core";

/** What a decision card shows: the `user_defined` payload of the Carbon item for one interrupt. */
export interface InterruptDecisionData {
  kind: "interrupt";
  interruptId: string;
  reason: string;
  /** What the card asks: the interrupt's message; without one, the question in its metadata (Mastra's suspend payload), else "Allow <action>?". */
  message?: string;
  /** The tool call the interrupt is about, when there is one. */
  toolCallId?: string;
  /** That tool call's name. */
  action?: string;
  /** That tool call's arguments, parsed (the raw string when they do not parse). */
  args?: unknown;
  /** A JSON Schema the answer's payload should match. */
  responseSchema?: object;
  /** After this moment (ISO 8601) the interrupt can only be rejected. */
  expiresAt?: string;
  /** The subagent that asks, when a subagent raised the interrupt (as its step is titled; else its `subagentRunId`). */
  subagent?: string;
}

/** What a clarification card shows: the `user_defined` payload when `detectClarification` finds the agent asking. */
export interface ClarificationData {
  kind: "clarification";
  question?: string;
  threadId: string;
}

/**
 * A person's answer to an interrupt: approve, approve with edited arguments,
 * reject (with a `reason`, which a tool server's approval keeps), or answer
 * with a value of the app's own (`answer`: the payload a `responseSchema`
 * asks for, or the result of a tool the app declared without a handler, see
 * `respondToToolCall`).
 */
export type InterruptDecision = { type: "approve" } | { type: "edit"; args: unknown } | { type: "reject"; reason?: string } | { type: "answer"; result: unknown };

/** The `reason` of the interrupt the adapter makes for a call of a tool the app declared without a handler: the person answers it. */
export const CLIENT_TOOL_REASON = "client_tool";

/**
 * The interrupt that holds a call of a tool the app declared without a
 * handler: answered like any decision card, its answer becomes the call's
 * result in the history and the agent goes on in a run that carries it (no
 * `resume`: the agent never asked for one). The card checks edited arguments
 * against the tool's JSON Schema.
 */
export function clientToolInterrupt(toolCallId: string, tool: Tool): Interrupt {
  return { id: `client-tool-${toolCallId}`, reason: CLIENT_TOOL_REASON, toolCallId, message: tool.description || `Answer ${tool.name}`, responseSchema: tool.parameters };
}

/** The `reason` of the interrupt that holds a call waiting for a tool server's approval. */
export const TOOL_SERVER_APPROVAL_REASON = "tool_server_approval";

/** The approval id of a tool result that says the call waits for a reviewer: `{ "pending_approval": "apr_…" }`, as the tool client's framework adapters return it. */
export function pendingApprovalOf(content: unknown): string | undefined {
  if (typeof content !== "string" || !content.includes("pending_approval")) return undefined;
  try {
    const parsed: unknown = JSON.parse(content);
    const id = typeof parsed === "object" && parsed !== null ? (parsed as { pending_approval?: unknown }).pending_approval : undefined;
    return typeof id === "string" && id !== "" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The interrupt that holds a call waiting for a tool server's approval:
 * answered like any decision card, its answer goes to the tool server
 * (the tool client's `decide`), whose answer becomes the call's result, and the
 * agent goes on in a run that carries it. The card checks edited arguments
 * against the tool's `inputSchema` when the adapter knows it.
 */
export function toolServerApprovalInterrupt(call: { toolCallId: string; name: string }, approvalId: string, inputSchema?: object): Interrupt {
  return {
    id: `approval-${approvalId}`,
    reason: TOOL_SERVER_APPROVAL_REASON,
    toolCallId: call.toolCallId,
    message: `Allow ${call.name}?`,
    ...(inputSchema && { responseSchema: inputSchema }),
    metadata: { approvalId, tool: call.name },
  };
}

/** The tool server's approval id an interrupt holds (`toolServerApprovalInterrupt`), if it is one. */
export function approvalIdOf(interrupt: Interrupt): string | undefined {
  const metadata = interrupt.metadata as { approvalId?: unknown } | undefined;
  return interrupt.reason === TOOL_SERVER_APPROVAL_REASON && typeof metadata?.approvalId === "string" ? metadata.approvalId : undefined;
}

/** Whether the chat answers this interrupt itself (a tool without a handler, a tool server's approval) rather than the agent in a resume. */
export function isAnsweredByChat(interrupt: Interrupt): boolean {
  return isClientToolInterrupt(interrupt) || approvalIdOf(interrupt) !== undefined;
}

/** Whether the adapter made this interrupt for a tool call (`clientToolInterrupt`), rather than the agent. */
export function isClientToolInterrupt(interrupt: Interrupt): interrupt is Interrupt & { toolCallId: string } {
  return interrupt.reason === CLIENT_TOOL_REASON && interrupt.toolCallId !== undefined && interrupt.id === `client-tool-${interrupt.toolCallId}`;
}

/** An interrupt awaiting its resume, with the decision taken so far. */
export interface PendingInterrupt {
  readonly interrupt: Interrupt;
  readonly decision?: InterruptDecision;
}

/** How a decision travels to the agent in the resume run. */
export function toResumeEntry(interruptId: string, decision: InterruptDecision): ResumeEntry {
  switch (decision.type) {
    case "approve":
      return { interruptId, status: "resolved", payload: { approved: true } };
    case "edit":
      return { interruptId, status: "resolved", payload: { approved: true, args: decision.args } };
    case "answer":
      return { interruptId, status: "resolved", payload: decision.result };
    case "reject":
      // No payload: AG-UI 1.0's schema rejects an explicit null on an optional field (an echo of this input would fail it).
      return { interruptId, status: "cancelled" };
  }
}

/** Whether the interrupt's `expiresAt` has passed at `now` (milliseconds since the epoch). */
export function isExpired(interrupt: Interrupt, now: number): boolean {
  return interrupt.expiresAt !== undefined && Date.parse(interrupt.expiresAt) <= now;
}

/** A decision as the result of the tool call it answers: the resume entry's payload (`{"status":"cancelled"}` for a rejection), as CopilotKit's own client records it. */
export function decisionResultContent(decision: InterruptDecision): string {
  return resumeResultContent(toResumeEntry("", decision));
}

/** What a resume entry carries, as the result of the call its interrupt held (see `decisionResultContent`). */
export function resumeResultContent(entry: ResumeEntry): string {
  if (entry.status === "cancelled") return JSON.stringify({ status: "cancelled" });
  return typeof entry.payload === "string" ? entry.payload : JSON.stringify(entry.payload ?? null);
}
