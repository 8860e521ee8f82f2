import { EventType, type AGUIEvent } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { AgUiInvalidEventError, AgUiProtocolError } from "../../errors";
import { createOperator } from "../fusion";
import { warnOnConsole } from "../../internal/warnings";

export interface VerifySequenceOptions {
  /** Told of each stray event (a content, argument or end of nothing open), which is skipped. Default: a console warning. */
  onStrayEvent?: (event: AGUIEvent, error: AgUiInvalidEventError) => void;
}

type RunPhase = "before" | "running" | "finished" | "errored";

/** The things a run opens and must close before RUN_FINISHED, by the name used in error messages. */
interface OpenThings {
  "text message": Set<string>;
  "tool call": Set<string>;
  "reasoning message": Set<string>;
  "reasoning span": Set<string>;
  step: Set<string>;
  subagent: Set<string>;
}

/** Content, arguments and ends: a stray one is skipped; an end closes what it ends. */
const PARTS: Partial<Record<AGUIEvent["type"], { what: "text message" | "tool call" | "reasoning message"; ends: boolean; id: (event: AGUIEvent) => string }>> = {
  [EventType.TEXT_MESSAGE_CONTENT]: { what: "text message", ends: false, id: (event) => (event as { messageId: string }).messageId },
  [EventType.TEXT_MESSAGE_END]: { what: "text message", ends: true, id: (event) => (event as { messageId: string }).messageId },
  [EventType.TOOL_CALL_ARGS]: { what: "tool call", ends: false, id: (event) => (event as { toolCallId: string }).toolCallId },
  [EventType.TOOL_CALL_END]: { what: "tool call", ends: true, id: (event) => (event as { toolCallId: string }).toolCallId },
  [EventType.REASONING_MESSAGE_CONTENT]: { what: "reasoning message", ends: false, id: (event) => (event as { messageId: string }).messageId },
  [EventType.REASONING_MESSAGE_END]: { what: "reasoning message", ends: true, id: (event) => (event as { messageId: string }).messageId },
};

/**
 * Checks the AG-UI protocol's sequence rules, the ones `@ag-ui/client`'s
 * `verifyEvents()` enforces, and errors with `AgUiProtocolError` on the first
 * event that breaks one: the run starts with RUN_STARTED; nothing but a new
 * RUN_STARTED follows RUN_FINISHED or RUN_ERROR; an id is not started twice
 * while open; RUN_FINISHED needs every message, tool call, reasoning span,
 * step and subagent closed. A stray content, argument or end of a message,
 * tool call or reasoning message that is not open (a late event of another
 * run, say) goes to `onStrayEvent` and is skipped, where `verifyEvents()`
 * fails the run: one stray event does not cost the person the whole answer. It also errors when the source completes while a text
 * message, tool call or reasoning message is still open (the answer was
 * cut), or in the middle of a run, after RUN_STARTED and before its
 * RUN_FINISHED or RUN_ERROR (a truncated run has no outcome: not a success).
 *
 * ```
 * source: --s--c--S--|   s: RUN_STARTED; c: TEXT_MESSAGE_CONTENT of a message never started; S: a second RUN_STARTED
 * result: --s-----#      onStrayEvent(c, AgUiInvalidEventError); #: AgUiProtocolError (a run is already active)
 * ```
 */
export function verifySequence(options: VerifySequenceOptions = {}): MonoTypeOperatorFunction<AGUIEvent> {
  const { onStrayEvent = (_event, error) => warnOnConsole(error) } = options;
  return createOperator<AGUIEvent, AGUIEvent>((out) => {
    let phase: RunPhase = "before";
    const open: OpenThings = {
      "text message": new Set(),
      "tool call": new Set(),
      "reasoning message": new Set(),
      "reasoning span": new Set(),
      step: new Set(),
      subagent: new Set(),
    };

    const violation = (event: AGUIEvent, rule: string) => new AgUiProtocolError(`${event.type}: ${rule}`, event.type);
    const start = (event: AGUIEvent, what: keyof OpenThings, id: string) => {
      if (open[what].has(id)) throw violation(event, `${what} '${id}' is already open`);
      open[what].add(id);
    };
    const requireOpen = (event: AGUIEvent, what: keyof OpenThings, id: string) => {
      if (!open[what].has(id)) throw violation(event, `no open ${what} '${id}'`);
    };
    const end = (event: AGUIEvent, what: keyof OpenThings, id: string) => {
      requireOpen(event, what, id);
      open[what].delete(id);
    };
    /** Whether `event` belongs to an open `what`; a stray one is told and skipped. */
    const belongs = (event: AGUIEvent, what: "text message" | "tool call" | "reasoning message", id: string) => {
      if (open[what].has(id)) return true;
      onStrayEvent(event, new AgUiInvalidEventError(event.type, [`no open ${what} '${id}': skipped`]));
      return false;
    };
    const stillOpen = (kinds: (keyof OpenThings)[]) =>
      kinds
        .filter((what) => open[what].size > 0)
        .map((what) => `${what} ${[...open[what]].map((id) => `'${id}'`).join(", ")}`)
        .join("; ");
    const stepKey = (event: { stepName: string; subagentRunId?: string }) => `${event.subagentRunId ?? ""}/${event.stepName}`;

    return {
      next(event) {
        const { type } = event;
        if (phase === "errored" && type !== EventType.RUN_STARTED) {
          throw violation(event, "the run already failed with RUN_ERROR; only a new RUN_STARTED may follow");
        }
        if (phase === "finished" && type !== EventType.RUN_STARTED && type !== EventType.RUN_ERROR) {
          throw violation(event, "the run already finished; only a new RUN_STARTED may follow");
        }
        if (phase === "before" && type !== EventType.RUN_STARTED && type !== EventType.RUN_ERROR) {
          throw violation(event, "the first event of a run must be RUN_STARTED");
        }
        const part = phase === "running" ? PARTS[type] : undefined;
        if (part) {
          const id = part.id(event);
          if (!belongs(event, part.what, id)) return;
          if (part.ends) open[part.what].delete(id);
          return out.next(event);
        }
        switch (event.type) {
          case EventType.RUN_STARTED:
            if (phase === "running") throw violation(event, "a run is already active");
            for (const ids of Object.values(open)) ids.clear();
            phase = "running";
            break;
          case EventType.RUN_FINISHED: {
            const unfinished = stillOpen(Object.keys(open) as (keyof OpenThings)[]);
            if (unfinished) throw violation(event, `still open: ${unfinished}`);
            phase = "finished";
            break;
          }
          case EventType.RUN_ERROR:
            phase = "errored";
            break;
          case EventType.TEXT_MESSAGE_START:
            start(event, "text message", event.messageId);
            break;
          case EventType.TOOL_CALL_START:
            start(event, "tool call", event.toolCallId);
            break;
          case EventType.REASONING_START:
            start(event, "reasoning span", event.messageId);
            break;
          case EventType.REASONING_END:
            end(event, "reasoning span", event.messageId);
            break;
          case EventType.REASONING_MESSAGE_START:
            start(event, "reasoning message", event.messageId);
            break;
          case EventType.STEP_STARTED:
            start(event, "step", stepKey(event));
            break;
          case EventType.STEP_FINISHED:
            end(event, "step", stepKey(event));
            break;
          case EventType.SUBAGENT_STARTED:
            start(event, "subagent", event.subagentRunId);
            break;
          case EventType.SUBAGENT_FINISHED:
          case EventType.SUBAGENT_ERROR:
            end(event, "subagent", event.subagentRunId);
            break;
        }
        out.next(event);
      },
      complete() {
        const cut = stillOpen(["text message", "tool call", "reasoning message"]);
        if (cut) throw new AgUiProtocolError(`The stream ended while ${cut} was still open`);
        // AG-UI 1.0 (transports, truncation): a run cut before its terminal event has no outcome, and is not a success.
        if (phase === "running") throw new AgUiProtocolError("The stream ended before the run's RUN_FINISHED or RUN_ERROR: a truncated run has no outcome");
      },
    };
  });
}
