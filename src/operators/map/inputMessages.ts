import { EventType, type Message } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { isRecord } from "../../internal/isRecord";
import { createOperator } from "../fusion";

/**
 * What a run was given, as its RUN_STARTED echoes it (`input`, as
 * CopilotKit's runtime sends it, and every run a connect replays): its
 * messages become a `history.input` write, which adds those the history
 * does not hold, in order, as `@ag-ui/client` applies them. So a message of
 * the person's sent from another device joins the history of a thread
 * replayed here. The RUN_STARTED goes on.
 *
 * ```
 * source: --s--x--|    s: RUN_STARTED { input: { messages: [u1, u2] } }; x: anything else
 * result: --(is)x--|   i: history.input [u1, u2]
 * ```
 */
export function inputMessages(): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => ({
      next(element) {
        if (isEventOfType(element, EventType.RUN_STARTED)) {
          const input: unknown = (element as { input?: unknown }).input;
          const messages = isRecord(input) && Array.isArray(input.messages) ? (input.messages as unknown[]).filter(isMessage) : [];
          if (messages.length > 0) out.next({ kind: "history.input", messages });
        }
        out.next(element);
      },
    }),
    [EventType.RUN_STARTED],
  );
}

/** A message as the history can hold it: an id and a role at least (the schema checked the rest where validation is on). */
function isMessage(message: unknown): message is Message {
  return isRecord(message) && typeof message.id === "string" && typeof message.role === "string";
}
