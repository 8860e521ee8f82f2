import { EventType, type Message } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { CarbonReasoningStep } from "../../carbon";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";
import { TextBuffer } from "../../internal/textBuffer";

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
 * arrives.
 *
 * ```
 * source: --S--a--E--|    S/a/E: a reasoning message "Let me think"
 * result: --o--o--h--|    o: options { reasoning: { steps } }; h: history.message (role reasoning)
 * ```
 */
export function reasoningSteps(): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => {
    const open = new Map<string, { step: number; text: TextBuffer }>();
    /** The messages ended so far: a START for one of them goes on with its step and text. */
    const ended = new Map<string, { step: number; text: TextBuffer }>();
    let steps: CarbonReasoningStep[] = [];

    const show = () => out.next({ kind: "options", options: { reasoning: { steps } } });
    const start = (messageId: string) => {
      const reopened = ended.get(messageId);
      if (reopened) {
        ended.delete(messageId);
        open.set(messageId, reopened);
        return reopened;
      }
      const message = { step: steps.length, text: new TextBuffer() };
      open.set(messageId, message);
      out.next({ kind: "history.reserve", messageId, role: "reasoning" });
      steps = [...steps, { title: steps.length === 0 ? "Reasoning" : `Reasoning (${steps.length + 1})` }];
      show();
      return message;
    };
    const remember = (id: string, text: TextBuffer) => {
      if (!text.isEmpty) out.next({ kind: "history.message", message: { id, role: "reasoning", content: text.toString() } as Message });
    };
    const keepCutMessages = () => {
      for (const [id, message] of open) remember(id, message.text);
      open.clear();
    };

    return {
      next(element) {
        if (isEventOfType(element, EventType.REASONING_MESSAGE_START)) {
          start(element.messageId);
        } else if (isEventOfType(element, EventType.REASONING_MESSAGE_CONTENT)) {
          if (element.delta === "") return;
          const message = open.get(element.messageId) ?? start(element.messageId);
          message.text.append(element.delta);
          const content = message.text.toString();
          steps = steps.map((step, index) => (index === message.step ? { ...step, content } : step));
          show();
        } else if (isEventOfType(element, EventType.REASONING_MESSAGE_END)) {
          const message = open.get(element.messageId);
          open.delete(element.messageId);
          if (message) {
            ended.set(element.messageId, message);
            remember(element.messageId, message.text);
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
