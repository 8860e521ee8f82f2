import { EventType, type Message } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { CarbonReasoningStep } from "../../carbon";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";
import { TextBuffer } from "../../internal/textBuffer";

/** A reasoning message being read: the agent's has its step in the panel; a subagent's belongs to the subagent. */
type ReasoningMessage = { step: number; text: TextBuffer } | { subagentRunId: string; text: TextBuffer };

/**
 * Shows the agent's reasoning in Carbon's reasoning panel, live: each
 * reasoning message (REASONING_MESSAGE_START / CONTENT / END) is a step
 * titled "Reasoning" ("Reasoning (2)", … after the first) whose markdown
 * content grows with each delta, sent as an `options` instruction with all
 * steps so far. Reasoning messages join the history (their text so far when
 * cut short), and REASONING_ENCRYPTED_VALUE becomes a
 * `history.encryptedValue`: kept with its message or tool call for later
 * runs, never shown. REASONING_START / END only frame the messages. A START
 * for a message that ended reopens it (its step and text go on), and each
 * new START holds the message's place in the history (`history.reserve`):
 * an encrypted-only reasoning message (no text) is kept there once its value
 * arrives. A subagent's reasoning (its START carries `subagentRunId`) is not
 * the agent's: it joins the history with its `subagentRunId` and goes whole
 * to `subagentSteps()` as `subagent.said`, not to the panel.
 *
 * ```
 * source: --S--a--E--|    S/a/E: a reasoning message "Let me think"
 * result: --o--o--h--|    o: options { reasoning: { steps } }; h: history.message (role reasoning)
 * ```
 */
export function reasoningSteps(): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => {
    const open = new Map<string, ReasoningMessage>();
    /** The messages ended so far: a START for one of them goes on with its step and text. */
    const ended = new Map<string, ReasoningMessage>();
    let steps: CarbonReasoningStep[] = [];

    const show = () => out.next({ kind: "options", options: { reasoning: { steps } } });
    const start = (messageId: string, subagentRunId: string | undefined) => {
      const reopened = ended.get(messageId);
      if (reopened) {
        ended.delete(messageId);
        open.set(messageId, reopened);
        return reopened;
      }
      out.next({ kind: "history.reserve", messageId, role: "reasoning", ...(subagentRunId !== undefined && { subagentRunId }) });
      if (subagentRunId !== undefined) {
        const message = { subagentRunId, text: new TextBuffer() };
        open.set(messageId, message);
        return message;
      }
      const message = { step: steps.length, text: new TextBuffer() };
      open.set(messageId, message);
      steps = [...steps, { title: steps.length === 0 ? "Reasoning" : `Reasoning (${steps.length + 1})` }];
      show();
      return message;
    };
    const remember = (id: string, message: ReasoningMessage) => {
      if (message.text.isEmpty) return;
      const content = message.text.toString();
      if ("step" in message) return out.next({ kind: "history.message", message: { id, role: "reasoning", content } as Message });
      const { subagentRunId } = message;
      out.next({ kind: "history.message", message: { id, role: "reasoning", content, subagentRunId } as Message });
      out.next({ kind: "subagent.said", subagentRunId, said: "reasoning", text: content });
    };
    const keepCutMessages = () => {
      for (const [id, message] of open) remember(id, message);
      open.clear();
    };

    return {
      next(element) {
        if (isEventOfType(element, EventType.REASONING_MESSAGE_START)) {
          start(element.messageId, element.subagentRunId);
        } else if (isEventOfType(element, EventType.REASONING_MESSAGE_CONTENT)) {
          if (element.delta === "") return;
          const message = open.get(element.messageId) ?? start(element.messageId, element.subagentRunId);
          message.text.append(element.delta);
          if (!("step" in message)) return;
          const content = message.text.toString();
          steps = steps.map((step, index) => (index === message.step ? { ...step, content } : step));
          show();
        } else if (isEventOfType(element, EventType.REASONING_MESSAGE_END)) {
          const message = open.get(element.messageId);
          open.delete(element.messageId);
          if (message) {
            ended.set(element.messageId, message);
            remember(element.messageId, message);
          }
        } else if (isEventOfType(element, EventType.REASONING_ENCRYPTED_VALUE)) {
          const { subtype, entityId, encryptedValue } = element;
          out.next({ kind: "history.encryptedValue", subtype, entityId, encryptedValue });
        } else if (!isEventOfType(element, EventType.REASONING_START) && !isEventOfType(element, EventType.REASONING_END)) {
          if ("kind" in element ? element.kind === "turn.end" : element.type === EventType.RUN_ERROR || element.type === EventType.RUN_FINISHED) keepCutMessages();
          out.next(element);
        }
      },
      complete: keepCutMessages,
      error: keepCutMessages,
    };
  }, [EventType.REASONING_START, EventType.REASONING_MESSAGE_START, EventType.REASONING_MESSAGE_CONTENT, EventType.REASONING_MESSAGE_END, EventType.REASONING_END, EventType.REASONING_ENCRYPTED_VALUE, EventType.RUN_ERROR, EventType.RUN_FINISHED, "turn.end"]);
}
