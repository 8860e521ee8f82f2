import { EventType, type ToolCall } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { CarbonChainOfThoughtStep, CarbonItem } from "../carbon";
import { AgUiInvalidItemError } from "../errors";
import { isEventOfType, type PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";
import { TextBuffer } from "../internal/textBuffer";
import { parseToolArguments } from "../internal/toolArguments";
import { warnSkippedItem } from "../internal/warnings";
import { carbonItemProblems } from "../itemAllowlist";
import type { CarbonItemsOptions } from "./carbonItems";

/** A finished tool call, as `onToolCall` sees it. */
export interface AgUiToolCall {
  toolCallId: string;
  name: string;
  /** The parsed JSON arguments, or the raw string when they do not parse. */
  args: unknown;
  parentMessageId?: string;
}

export interface ToolCallStepsOptions extends CarbonItemsOptions {
  /** Called once a tool call's arguments are complete; may return a Carbon item to show at once (checked like custom items). */
  onToolCall?: (call: AgUiToolCall) => CarbonItem | void | undefined;
}

interface CallInProgress {
  name: string;
  messageId: string;
  arguments: TextBuffer;
  /** Position of its step in the chain of thought. */
  step: number;
}

/**
 * Shows tool calls as Carbon chain-of-thought steps, live: TOOL_CALL_START adds
 * a step (`tool_name`, `status: "processing"`), TOOL_CALL_END sets
 * `request.args` (parsed JSON, or the raw string when it does not parse), and
 * TOOL_CALL_RESULT sets `response.content` and `status: "success"`
 * (`"failure"` when the result carries an `error`). Each change sends the
 * whole chain as an `options` instruction. The calls join the history as the
 * `toolCalls` of their assistant message (the parent message, or one named
 * after the call) as each call starts (arguments still empty) and again once
 * they are complete, and results as `tool` messages. A START for a call that
 * ended goes on with it (a chunk stream split by another event); a call cut
 * short stays in the history with its arguments so far. When the run fails, is
 * stopped or breaks off, steps still processing are marked `"failure"`, so
 * the finished message shows no spinner that never ends.
 *
 * ```
 * source: --S--a--E--R--|    S/a/E: a tool call "search" and its arguments; R: its result
 * result: --o-----(oh)(oh)|  o: options { chain_of_thought }; h: history.message
 * ```
 */
export function toolCallSteps(options: ToolCallStepsOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onToolCall, onInvalidItem = warnSkippedItem } = options;
  return createOperator<PipelineElement, PipelineElement>((out) => {
    const calls = new Map<string, CallInProgress>();
    /** Calls started and not ended: cut short, they are kept with their arguments so far. */
    const open = new Set<string>();

    /**
     * Records the call in the history, with these arguments, as a tool call of its assistant message
     * (the history merges an assistant message's tool calls by id, after any it already holds).
     */
    const remember = (toolCallId: string, call: CallInProgress, args: string) => {
      const toolCalls: ToolCall[] = [{ id: toolCallId, type: "function", function: { name: call.name, arguments: args } }];
      out.next({ kind: "history.message", message: { id: call.messageId, role: "assistant", toolCalls } });
    };
    const keepCutCalls = () => {
      for (const toolCallId of open) {
        const call = calls.get(toolCallId)!;
        if (!call.arguments.isEmpty) remember(toolCallId, call, call.arguments.toString());
      }
      open.clear();
    };
    let chain: CarbonChainOfThoughtStep[] = [];

    const setStep = (index: number, step: CarbonChainOfThoughtStep) => {
      chain = chain.map((existing, at) => (at === index ? step : existing));
      out.next({ kind: "options", options: { chain_of_thought: chain } });
    };

    const showToolCallItem = (toolCallId: string, item: CarbonItem | void | undefined) => {
      if (item === undefined) return;
      const problems = carbonItemProblems(item);
      if (problems.length > 0) return onInvalidItem(item, new AgUiInvalidItemError(problems));
      out.next({ kind: "item.complete", itemId: item.streaming_metadata?.id ?? `tool-call-${toolCallId}`, item });
    };

    const failUnfinished = () => {
      if (!chain.some((step) => step.status === "processing")) return;
      chain = chain.map((step) => (step.status === "processing" ? { ...step, status: "failure" } : step));
      out.next({ kind: "options", options: { chain_of_thought: chain } });
    };

    return {
      next(element) {
        if (isEventOfType(element, EventType.RUN_ERROR) || ("kind" in element && element.kind === "turn.end" && element.how !== "finished")) {
          keepCutCalls();
          failUnfinished();
          return out.next(element);
        }
        if (isEventOfType(element, EventType.TOOL_CALL_START)) {
          const { toolCallId, toolCallName, parentMessageId } = element;
          open.add(toolCallId);
          // A START for a call that ended goes on with it (a chunk stream split by another event).
          if (calls.has(toolCallId)) return;
          const call = { name: toolCallName, messageId: parentMessageId ?? toolCallId, arguments: new TextBuffer(), step: chain.length };
          calls.set(toolCallId, call);
          chain = [...chain, { tool_name: toolCallName, status: "processing" }];
          out.next({ kind: "options", options: { chain_of_thought: chain } });
          // The call joins the history as it starts, as in @ag-ui/client, so the history keeps the order calls began in.
          return remember(toolCallId, call, "");
        }
        if (isEventOfType(element, EventType.TOOL_CALL_ARGS)) {
          return calls.get(element.toolCallId)?.arguments.append(element.delta);
        }
        if (isEventOfType(element, EventType.TOOL_CALL_END)) {
          const call = calls.get(element.toolCallId);
          if (!call) return;
          open.delete(element.toolCallId);
          // onToolCall sees a call once, at its first END.
          const endedBefore = "request" in chain[call.step]!;
          const raw = call.arguments.toString();
          const args = parseToolArguments(raw);
          setStep(call.step, { ...chain[call.step], request: { args } });
          remember(element.toolCallId, call, raw);
          if (onToolCall && !endedBefore) {
            const parentMessageId = call.messageId === element.toolCallId ? undefined : call.messageId;
            showToolCallItem(element.toolCallId, onToolCall({ toolCallId: element.toolCallId, name: call.name, args, ...(parentMessageId !== undefined && { parentMessageId }) }));
          }
          return;
        }
        if (isEventOfType(element, EventType.TOOL_CALL_RESULT)) {
          const { messageId, toolCallId, content } = element;
          const error = (element as { error?: unknown }).error;
          const failed = typeof error === "string" && error !== "";
          const call = calls.get(toolCallId);
          if (call) setStep(call.step, { ...chain[call.step], response: { content }, status: failed ? "failure" : "success" });
          return out.next({ kind: "history.message", message: { id: messageId, role: "tool", toolCallId, content, ...(failed && { error }) } });
        }
        out.next(element);
      },
      complete: keepCutCalls,
      error: () => {
        keepCutCalls();
        failUnfinished();
      },
    };
  }, [EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END, EventType.TOOL_CALL_RESULT, EventType.RUN_ERROR, "turn.end"]);
}
