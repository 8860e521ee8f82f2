import { EventType, type AGUIEvent, type CustomEvent } from "@ag-ui/core";
import { Allow, parse } from "partial-json";
import type { MonoTypeOperatorFunction } from "rxjs";
import { AgUiInvalidEventError } from "../../errors";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { isRecord } from "../../internal/isRecord";
import { TextBuffer } from "../../internal/textBuffer";
import { warnOnConsole } from "../../internal/warnings";
import { createOperator } from "../fusion";

export interface PredictStateOptions {
  /** Told of a `PredictState` whose value is not a list of `{ state_key, tool, tool_argument? }`, which is skipped. Default: a console warning. */
  onInvalidEvent?: (event: AGUIEvent, error: AgUiInvalidEventError) => void;
}

/** What a `PredictState` says: while `tool`'s arguments stream, `state[state_key]` follows `tool_argument` of them (all of them without one). */
export interface StatePrediction {
  state_key: string;
  tool: string;
  tool_argument?: string;
}

/** The partial JSON a prediction reads: an open string, array or object, closed where it stops; a number or literal only once whole. */
const PARTIAL = Allow.STR | Allow.ARR | Allow.OBJ;

/** A call whose arguments a prediction follows. */
interface PredictedCall {
  prediction: StatePrediction;
  args: TextBuffer;
  /** How long the arguments were when last read. */
  read: number;
}

/**
 * Predictive state, as CopilotKit-style agents send it and `@ag-ui/client`'s
 * legacy converter applies it: after a CUSTOM `PredictState` (`[{ state_key,
 * tool, tool_argument }]`), while a call of `tool` streams its arguments,
 * `state[state_key]` follows `tool_argument` of the arguments so far (read as
 * partial JSON: an open string as far as it goes), so a state view shows the
 * document being written. Each reading is a `state.delta` (`add` at
 * `/<state_key>`); the call's END sets the argument whole. The prediction
 * stays until the agent's own STATE_SNAPSHOT or STATE_DELTA says otherwise;
 * a later `PredictState` replaces the list, and STEP_STARTED / STEP_FINISHED
 * end it, as in the converter. The arguments so far are read again only once
 * they have grown by an eighth, so reading costs time linear in their length.
 *
 * ```
 * source: --p--S--a--b--E--|    p: PredictState [{ state_key: "doc", tool: "write", tool_argument: "text" }]; S/a/b/E: a call of write, '{"text":"Hel' 'lo"}'
 * result: --p--S--(da)-(db)-(dE)|  d: state.delta add /doc "Hel", then "Hello", then "Hello"
 * ```
 */
export function predictState(options: PredictStateOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onInvalidEvent = (_event, error) => warnOnConsole(error) } = options;
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      let predictions: readonly StatePrediction[] = [];
      const calls = new Map<string, PredictedCall>();
      const predict = ({ prediction }: PredictedCall, args: unknown) => {
        if (!isRecord(args)) return;
        const { state_key, tool_argument } = prediction;
        if (tool_argument && !(tool_argument in args)) return;
        out.next({ kind: "state.delta", delta: [{ op: "add", path: `/${pointerToken(state_key)}`, value: tool_argument ? args[tool_argument] : args }] });
      };
      return {
        next(element) {
          if (isEventOfType(element, EventType.CUSTOM) && element.name === "PredictState") {
            const read = predictionsOf(element);
            if (read instanceof AgUiInvalidEventError) onInvalidEvent(element, read);
            else predictions = read;
          } else if (isEventOfType(element, EventType.STEP_STARTED) || isEventOfType(element, EventType.STEP_FINISHED)) {
            predictions = [];
            calls.clear();
          } else if (isEventOfType(element, EventType.TOOL_CALL_START)) {
            const prediction = predictions.find((candidate) => candidate.tool === element.toolCallName);
            if (prediction && !calls.has(element.toolCallId)) calls.set(element.toolCallId, { prediction, args: new TextBuffer(), read: 0 });
          } else if (isEventOfType(element, EventType.TOOL_CALL_ARGS)) {
            const call = calls.get(element.toolCallId);
            if (call) {
              call.args.append(element.delta);
              if (call.args.length >= call.read + Math.max(1, call.read / 8)) {
                call.read = call.args.length;
                predict(call, readPartially(call.args.toString()));
              }
            }
          } else if (isEventOfType(element, EventType.TOOL_CALL_END)) {
            const call = calls.get(element.toolCallId);
            calls.delete(element.toolCallId);
            if (call) predict(call, readPartially(call.args.toString()));
          }
          out.next(element);
        },
      };
    },
    [EventType.CUSTOM, EventType.STEP_STARTED, EventType.STEP_FINISHED, EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END],
  );
}

/** A `PredictState`'s list, or what is wrong with it. */
function predictionsOf(event: CustomEvent): StatePrediction[] | AgUiInvalidEventError {
  const { value } = event as { value: unknown };
  const entries = Array.isArray(value) ? value : [value];
  const problems = entries.flatMap((entry, index) =>
    isRecord(entry) && typeof entry.state_key === "string" && typeof entry.tool === "string" && (entry.tool_argument === undefined || typeof entry.tool_argument === "string")
      ? []
      : [`value${Array.isArray(value) ? `[${index}]` : ""}: expected { state_key: string, tool: string, tool_argument?: string }`],
  );
  return problems.length > 0 ? new AgUiInvalidEventError("CUSTOM PredictState", problems) : (entries as StatePrediction[]);
}

/** The arguments so far as JSON, closed where they stop; undefined while nothing of them reads. */
function readPartially(text: string): unknown {
  try {
    return parse(text, PARTIAL);
  } catch {
    return undefined;
  }
}

/** `key` as one token of a JSON Pointer (RFC 6901). */
function pointerToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
