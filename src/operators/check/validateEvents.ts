import type { AGUIEvent, BaseEvent } from "@ag-ui/core";
import { EventSchemas } from "@ag-ui/core/schemas";
import type { OperatorFunction } from "rxjs";
import { AgUiInvalidEventError } from "../../errors";
import { warnSkippedEvent } from "../../internal/warnings";
import { createOperator } from "../fusion";

export interface ValidateEventsOptions {
  /** Called with each event that fails its schema (and, through `agUiToCarbon()`, each stray event `verifySequence()` skips); the event is skipped. Default: `console.warn`. */
  onInvalidEvent?: (event: unknown, error: AgUiInvalidEventError) => void;
}

/**
 * The streamed events, nearly every event of a long run, whose schemas hold
 * only string fields: each field, and whether it is required.
 */
const STRING_FIELD_EVENTS: Readonly<Record<string, Readonly<Record<string, boolean>>>> = {
  TEXT_MESSAGE_CONTENT: { messageId: true, delta: true },
  TOOL_CALL_ARGS: { toolCallId: true, delta: true },
  REASONING_MESSAGE_CONTENT: { messageId: true, delta: true },
  TEXT_MESSAGE_CHUNK: { messageId: false, delta: false },
  TOOL_CALL_CHUNK: { toolCallId: false, toolCallName: false, parentMessageId: false, delta: false },
  REASONING_MESSAGE_CHUNK: { messageId: false, delta: false },
};

/**
 * True for a streamed event made of nothing but its type and string fields
 * its schema declares, required ones present: the schema accepts exactly
 * that, so zod need not be asked (zod copies every event it checks, which
 * costs more than the rest of the pipeline). Anything else, an extra field
 * included, goes to zod.
 */
export function isPlainStreamedEvent(event: BaseEvent): boolean {
  const fields = STRING_FIELD_EVENTS[event.type];
  if (fields === undefined) return false;
  for (const key in event) if (key !== "type" && (!Object.hasOwn(fields, key) || typeof event[key] !== "string")) return false;
  for (const field in fields) if (fields[field] && typeof event[field] !== "string") return false;
  return true;
}

const KNOWN_OUTCOMES = new Set(["success", "interrupt", "cancelled"]);

/**
 * A RUN_FINISHED whose outcome is an object of a type this version does not
 * know (a later protocol version's), without that outcome: the run's end is
 * kept, as AG-UI's conformance corpus asks (`unknown-outcome-stripped`). A
 * malformed outcome (not an object, no string type) stays invalid.
 */
function withoutUnknownOutcome(event: BaseEvent): BaseEvent | undefined {
  if (event.type !== "RUN_FINISHED") return undefined;
  const outcome = (event as { outcome?: unknown }).outcome;
  if (typeof outcome !== "object" || outcome === null || Array.isArray(outcome)) return undefined;
  const outcomeType = (outcome as { type?: unknown }).type;
  if (typeof outcomeType !== "string" || KNOWN_OUTCOMES.has(outcomeType)) return undefined;
  const { outcome: _stripped, ...rest } = event as BaseEvent & { outcome: unknown };
  return rest as BaseEvent;
}

/**
 * Checks every event against its AG-UI 1.0 schema (`@ag-ui/core/schemas`),
 * so one bad event cannot break the turn: an event that fails (a wrong field
 * type, a missing field, an unknown event type, an explicit `null` where a
 * field is optional) goes to `onInvalidEvent` and is skipped. A valid event
 * passes through as it came, unknown extra fields included. One exception: a
 * RUN_FINISHED whose `outcome.type` this version does not know goes on
 * without its outcome (so the run still ends), and `onInvalidEvent` is told.
 *
 * ```
 * source: --a--x--b--|    x: { type: "TEXT_MESSAGE_CONTENT", messageId: 5 }
 * result: --a-----b--|    onInvalidEvent(x, AgUiInvalidEventError)
 * ```
 */
export function validateEvents(options: ValidateEventsOptions = {}): OperatorFunction<BaseEvent, AGUIEvent> {
  const { onInvalidEvent = warnSkippedEvent } = options;
  return createOperator<BaseEvent, AGUIEvent>((out) => ({
    next(event) {
      if (isPlainStreamedEvent(event)) return out.next(event as AGUIEvent);
      const result = EventSchemas.safeParse(event);
      if (result.success) return out.next(event as AGUIEvent);
      const type = typeof (event as { type?: unknown } | null)?.type === "string" ? (event as { type: string }).type : undefined;
      const withoutOutcome = withoutUnknownOutcome(event);
      if (withoutOutcome && EventSchemas.safeParse(withoutOutcome).success) {
        const outcomeType = (event as BaseEvent & { outcome: { type: string } }).outcome.type;
        onInvalidEvent(event, new AgUiInvalidEventError(type, [`outcome.type: '${outcomeType}' is not an outcome AG-UI 1.0 knows; the outcome was stripped and the run's end kept`]));
        return out.next(withoutOutcome as AGUIEvent);
      }
      const problems = result.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message));
      onInvalidEvent(event, new AgUiInvalidEventError(type, problems));
    },
  }));
}
