import { EventType, type Interrupt } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Conversation } from "../conversation";
import type { InterruptDecisionData } from "../hitl";
import { isEventOfType, type PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";
import { parseToolArguments } from "../internal/toolArguments";

/**
 * A RUN_FINISHED whose outcome is an interrupt becomes one decision card per
 * interrupt, in order: a Carbon `user_defined` item carrying
 * `InterruptDecisionData` (with the name and parsed arguments of the tool call
 * it concerns, found in the history), then the turn ends as usual. The
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
          out.next({ kind: "item.complete", itemId: `interrupt-${interrupt.id}`, item: { response_type: "user_defined", user_defined: decisionData(interrupt, conversation) } });
        }
        conversation.addPendingInterrupts(interrupts);
      }
      out.next(element);
    },
  }), [EventType.RUN_FINISHED]);
}

function decisionData(interrupt: Interrupt, conversation: Conversation): InterruptDecisionData {
  const { id, reason, message, toolCallId, responseSchema, expiresAt } = interrupt;
  const call = toolCallId === undefined ? undefined : conversation.findToolCall(toolCallId)?.call;
  return {
    kind: "interrupt",
    interruptId: id,
    reason,
    ...(message !== undefined && { message }),
    ...(toolCallId !== undefined && { toolCallId }),
    ...(call && { action: call.function.name, args: parseToolArguments(call.function.arguments) }),
    ...(responseSchema !== undefined && { responseSchema }),
    ...(expiresAt !== undefined && { expiresAt }),
  };
}
