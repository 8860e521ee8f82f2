import { EventType, type Interrupt, type ToolCall } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../conversation";
import type { InterruptDecisionData } from "../hitl";
import { isEventOfType, type PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";
import { isRecord } from "../internal/isRecord";
import { parseToolArguments } from "../internal/toolArguments";

/**
 * A RUN_FINISHED whose outcome is an interrupt becomes one decision card per
 * interrupt, in order: a Carbon `user_defined` item carrying
 * `InterruptDecisionData` (with the name and parsed arguments of the tool call
 * it concerns, found in the history), then the turn ends as usual. A card
 * always says what it asks: an interrupt without a `message` gets the
 * question from its metadata (Mastra's `metadata.mastra.suspendPayload`; its
 * tool name and arguments stand in for a call the history lacks), else
 * "Allow <tool>?" for its tool call. Mastra streams no events for the call it
 * suspended: from its metadata, the call joins the history (as an assistant
 * message named after it), so the result Mastra sends on resume answers a
 * call the next run carries. The
 * interrupts join the conversation's pending interrupts, which
 * `respondToInterrupt` answers.
 *
 * It reads the history for tool calls, so it goes after `toolCallSteps()`
 * (whose calls reach the history before the run finishes).
 *
 * ```
 * source: --F--|    F: RUN_FINISHED { outcome: { type: "interrupt", interrupts: [i1, i2] } }
 * result: --(abF)|  a, b: item.complete user_defined { kind: "interrupt", interruptId: "i1" / "i2", … }
 * ```
 */
export function interruptCards(conversation: Conversation): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => ({
    next(element) {
      if (isEventOfType(element, EventType.RUN_FINISHED) && element.outcome?.type === "interrupt") {
        const { interrupts } = element.outcome;
        for (const interrupt of interrupts) {
          const missingCall = callFromMetadata(interrupt, conversation);
          if (missingCall) out.next({ kind: "history.message", message: { id: missingCall.id, role: "assistant", toolCalls: [missingCall] } });
          out.next({ kind: "item.complete", itemId: `interrupt-${interrupt.id}`, item: { response_type: "user_defined", user_defined: decisionData(interrupt, conversation) } });
        }
        conversation.addPendingInterrupts(interrupts);
      }
      out.next(element);
    },
  }), [EventType.RUN_FINISHED]);
}

function decisionData(interrupt: Interrupt, conversation: Conversation): InterruptDecisionData {
  const { id, reason, toolCallId, responseSchema, expiresAt } = interrupt;
  const found = toolCallId === undefined ? undefined : conversation.findToolCall(toolCallId)?.call;
  const suspension = mastraSuspension(interrupt.metadata);
  const call = found ? { action: found.function.name, args: parseToolArguments(found.function.arguments) } : suspension?.toolName !== undefined ? { action: suspension.toolName, args: suspension.args } : undefined;
  const message = interrupt.message ?? suspension?.question ?? (call ? `Allow ${call.action}?` : undefined);
  return {
    kind: "interrupt",
    interruptId: id,
    reason,
    ...(message !== undefined && { message }),
    ...(toolCallId !== undefined && { toolCallId }),
    ...(call && { action: call.action, ...(call.args !== undefined && { args: call.args }) }),
    ...(responseSchema !== undefined && { responseSchema }),
    ...(expiresAt !== undefined && { expiresAt }),
  };
}

/** The tool call an interrupt's Mastra metadata describes, when the history does not hold it yet. */
function callFromMetadata(interrupt: Interrupt, conversation: Conversation): ToolCall | undefined {
  const { toolCallId } = interrupt;
  const suspension = mastraSuspension(interrupt.metadata);
  if (toolCallId === undefined || suspension?.toolName === undefined || conversation.findToolCall(toolCallId)) return undefined;
  return { id: toolCallId, type: "function", function: { name: suspension.toolName, arguments: JSON.stringify(suspension.args ?? {}) } };
}

/** The keys under which a suspend payload usually carries its question, in order of preference. */
const QUESTION_KEYS = ["message", "question", "prompt", "reason", "title", "description"];

/**
 * What `@ag-ui/mastra` puts in a suspended tool's interrupt: `metadata.mastra`
 * with the tool's name, its arguments, and the payload the tool suspended
 * with, whose text (the payload itself, or its first string under one of
 * `QUESTION_KEYS`) is the question for the person.
 */
function mastraSuspension(metadata: unknown): { toolName?: string; args?: unknown; question?: string } | undefined {
  const mastra = isRecord(metadata) ? metadata.mastra : undefined;
  if (!isRecord(mastra)) return undefined;
  const { toolName, args, suspendPayload } = mastra;
  const question = typeof suspendPayload === "string" ? suspendPayload : isRecord(suspendPayload) ? QUESTION_KEYS.map((key) => suspendPayload[key]).find((value) => typeof value === "string") : undefined;
  return {
    ...(typeof toolName === "string" && { toolName }),
    ...(args !== undefined && { args }),
    ...(typeof question === "string" && question !== "" && { question }),
  };
}
