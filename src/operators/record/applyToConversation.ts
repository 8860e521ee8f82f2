import type { TokenUsage } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { Activity, Conversation } from "../../conversation";
import { AgUiPatchError, type CarbonAgUiError } from "../../errors";
import type { PipelineElement } from "../../instructions";
import { patchWarning } from "../../internal/jsonPatch";
import { createOperator } from "../fusion";
import { warnOnConsole } from "../../internal/warnings";

export interface ApplyToConversationOptions {
  /** Told about a state or activity patch that was rolled back or had operations skipped. Default: `console.warn`. A throw fails the turn. */
  onWarning?: (warning: CarbonAgUiError) => void;
  /** Called with each activity after it changes. A throw fails the turn. */
  onActivity?: (activity: Activity) => void;
  /** Called with the tokens each run reports it used (its RUN_FINISHED's or RUN_ERROR's `usage`), once the conversation has added them to its totals. A throw fails the turn. */
  onUsage?: (usage: readonly TokenUsage[], run: { threadId: string; runId: string }) => void;
}

/** The instruction kinds this stage records; they go no further. */
const WRITES = [
  "history.message",
  "history.reserve",
  "history.encryptedValue",
  "history.snapshot",
  "history.input",
  "state.snapshot",
  "state.delta",
  "activity.snapshot",
  "activity.delta",
  "interrupts.pending",
  "clarification.shown",
  "run.usage",
] as const;

/**
 * The one stage that writes the conversation, as `@ag-ui/client`'s apply
 * stage is for its agent: every `ConversationWrite` the mapping operators
 * emit is recorded here, in stream order, and goes no further. A state or
 * activity patch applies all or nothing; one that fails, or an activity
 * delta for an activity that does not exist, goes to `onWarning`. A run's
 * usage joins the conversation's totals, then goes to `onUsage`.
 *
 * ```
 * source: --h--d--s--a--|    h: history.message; s: state.delta; a: item.delta
 * result: -----d-----a--|    the conversation records h and s
 * ```
 */
export function applyToConversation(conversation: Conversation, options: ApplyToConversationOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onWarning = warnOnConsole, onActivity, onUsage } = options;
  return createOperator<PipelineElement, PipelineElement>(
    (out) => ({
      next(element) {
        if (!("kind" in element)) return out.next(element);
        switch (element.kind) {
          case "history.message":
            return conversation.upsertMessage(element.message);
          case "history.reserve":
            return conversation.reserveMessage(element.messageId, element.role, element.subagentRunId);
          case "history.encryptedValue":
            return conversation.attachEncryptedValue(element.subtype, element.entityId, element.encryptedValue);
          case "history.snapshot":
            return conversation.replaceMessages(element.messages);
          case "history.input":
            return conversation.addMissingMessages(element.messages);
          case "state.snapshot":
            return conversation.replaceState(element.snapshot);
          case "state.delta": {
            const warning = patchWarning(conversation.patchState(element.delta), "STATE_DELTA", "state", element.delta);
            return warning && onWarning(warning);
          }
          case "activity.snapshot": {
            const { messageId, activityType, content, replace } = element;
            if (!replace && conversation.activities.has(messageId)) return;
            const activity = conversation.setActivity(messageId, activityType, content);
            return onActivity?.(activity);
          }
          case "activity.delta": {
            const { messageId, activityType, patch } = element;
            const target = `activity ${messageId}`;
            const result = conversation.patchActivity(messageId, activityType, patch);
            if (!result) return onWarning(new AgUiPatchError(`An ACTIVITY_DELTA for the ${target} came before any ACTIVITY_SNAPSHOT of it, and was skipped`, target, patch));
            const warning = patchWarning(result.outcome, "ACTIVITY_DELTA", target, patch);
            if (warning) onWarning(warning);
            return result.outcome.error === undefined ? onActivity?.(result.activity) : undefined;
          }
          case "interrupts.pending":
            return conversation.addPendingInterrupts(element.interrupts);
          case "clarification.shown":
            return conversation.noteClarificationShown(element.question);
          case "run.usage":
            conversation.addUsage(element.usage);
            return onUsage?.(element.usage, { threadId: conversation.threadId, runId: element.runId });
          default:
            return out.next(element);
        }
      },
    }),
    WRITES,
  );
}
