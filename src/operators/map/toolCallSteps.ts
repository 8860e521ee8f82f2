import { EventType, type Message, type ToolCall } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { CarbonChainOfThoughtStep, CarbonItem } from "../../carbon";
import { AgUiInvalidItemError } from "../../errors";
import { isEventOfType, type PipelineElement, type RunToolCall } from "../../instructions";
import { createOperator } from "../fusion";
import { TextBuffer } from "../../internal/textBuffer";
import { parseToolArguments } from "../../internal/toolArguments";
import { warnSkippedItem } from "../../internal/warnings";
import { carbonItemProblems } from "../../itemAllowlist";
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
  /**
   * The names of the tools the client runs (the run input's `tools`): a run
   * that finishes with one of their calls unanswered hands it to the client
   * (see `toolCallSteps`). Given, it is the whole list: a call the run's
   * outcome hands to the client for a tool not in it has nobody to answer it,
   * and fails. Default: none, and any call the outcome names is handed over.
   */
  clientTools?: readonly string[];
  /** The client tools the person answers (declared without a handler): a call of one waits for that answer. Default: none. */
  askedTools?: readonly { name: string }[];
}

/** The result recorded for a call the agent ended without answering. */
export const NO_TOOL_RESULT = "The tool call ended without a result";

/** The description of the step of a call an interrupt holds. */
export const AWAITING_DECISION = "Waiting for a decision";

/** The description of the step of a call the person answers (a client tool without a handler). */
export const AWAITING_ANSWER = "Waiting for your answer";

/** The result recorded for a call the run's outcome hands to the client, which has no tool of that name. */
export const NO_CLIENT_TOOL = "The agent handed this call to the chat, which has no tool of that name";

interface CallInProgress {
  name: string;
  messageId: string;
  arguments: TextBuffer;
  /** Position of its step in the chain of thought. */
  step: number;
  /** What became of it; `open` while it waits for its result. */
  status: RunToolCall["status"] | "open";
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
 * short stays in the history with its arguments so far.
 *
 * No step is left processing once the run has ended, but for a call that
 * waits for a person. A call still without a result when the run finishes is
 * either handed over, or failed:
 * - handed over when the run's outcome names it (`pendingToolCallIds`, an
 *   interrupt's `toolCallId`) or it calls one of `clientTools`: its answer
 *   comes with the run that follows. A call handed to the client shows
 *   `"success"` (the call was made; the client answers it at once); a call an
 *   interrupt holds stays `"processing"`, described as waiting for a
 *   decision, and a call of one of `askedTools` as waiting for the person's
 *   answer: nobody has answered it yet;
 * - failed with the response "The agent handed this call to the chat, which
 *   has no tool of that name" when the outcome names a call of a tool that is
 *   not among the `clientTools` given;
 * - otherwise it shows `"failure"` with the response "The tool call ended
 *   without a result", and that becomes its `tool` message (with `error`) in
 *   the history: frameworks hand a tool's exception to the model and emit no
 *   result, and the next run must not carry a call without one (providers
 *   reject it: "Tool result is missing for tool call …").
 * When the run fails, is stopped or breaks off, every unanswered call fails
 * that way. Just before the RUN_FINISHED, `run.toolCalls` tells the stages
 * after it what became of each call of the run: the one place that decides it.
 *
 * ```
 * source: --S--a--E--R--F|      S/a/E: a tool call "search" and its arguments; R: its result; F: RUN_FINISHED
 * result: --o-----(oh)(oh)(cF)|  o: options { chain_of_thought }; h: history.message; c: run.toolCalls
 * ```
 */
export function toolCallSteps(options: ToolCallStepsOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onToolCall, onInvalidItem = warnSkippedItem, clientTools, askedTools = [], ...policy } = options;
  const asked = new Set(askedTools.map((tool) => tool.name));
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
      const problems = carbonItemProblems(item, "item", policy);
      if (problems.length > 0) return onInvalidItem(item, new AgUiInvalidItemError(problems));
      out.next({ kind: "item.complete", itemId: item.streaming_metadata?.id ?? `tool-call-${toolCallId}`, item });
    };

    /**
     * Ends every step still processing: calls handed to the client as success, calls an interrupt holds as waiting,
     * the others as failed with no result (also in the history).
     */
    const closeUnanswered = (handedOver: (toolCallId: string, call: CallInProgress) => boolean | typeof NO_CLIENT_TOOL, held: ReadonlySet<string | undefined> = new Set()) => {
      const unanswered = [...calls].filter(([, call]) => call.status === "open");
      if (unanswered.length === 0) return;
      const failed: [toolCallId: string, why: string][] = [];
      chain = chain.slice();
      for (const [toolCallId, call] of unanswered) {
        const handed = !held.has(toolCallId) && handedOver(toolCallId, call);
        if (held.has(toolCallId)) {
          call.status = "held";
          chain[call.step] = { ...chain[call.step], description: AWAITING_DECISION };
        } else if (handed === true) {
          call.status = "handedOver";
          chain[call.step] = asked.has(call.name) ? { ...chain[call.step], description: AWAITING_ANSWER } : { ...chain[call.step], status: "success" };
        } else {
          const why = handed || NO_TOOL_RESULT;
          call.status = "failed";
          chain[call.step] = { ...chain[call.step], response: { content: why }, status: "failure" };
          // Every call is in the history from its START, so each needs a result there.
          failed.push([toolCallId, why]);
        }
      }
      out.next({ kind: "options", options: { chain_of_thought: chain } });
      for (const [toolCallId, why] of failed) {
        out.next({ kind: "history.message", message: { id: `${toolCallId}-no-result`, role: "tool", toolCallId, content: why, error: why } });
      }
    };
    const failUnfinished = () => closeUnanswered(() => false);

    /**
     * Takes the calls of the run's assistant messages as a MESSAGES_SNAPSHOT has them, where the events got them
     * wrong: `@ag-ui/langgraph` streams a message's second call into its first (its arguments too), so the snapshot
     * is the only place the second call and the first's own arguments are found.
     */
    const takeFromSnapshot = (messages: readonly Message[]) => {
      const next = chain.slice();
      const found: AgUiToolCall[] = [];
      let results: Map<string, { content: string; error?: string }> | undefined;
      /** A call's first result in the snapshot (a result the run sent before the call was known); the snapshot read once. */
      const resultOf = (toolCallId: string) => {
        if (!results) {
          results = new Map();
          for (const message of messages) if (message.role === "tool" && !results.has(message.toolCallId)) results.set(message.toolCallId, message as { content: string; error?: string });
        }
        return results.get(toolCallId);
      };
      for (const message of messages) {
        if (message.role !== "assistant" || !message.toolCalls?.some((toolCall) => calls.has(toolCall.id))) continue;
        for (const { id, function: { name, arguments: raw } } of message.toolCalls) {
          const call = calls.get(id);
          if (call && (open.has(id) || sameArguments(call.arguments.toString(), raw))) continue;
          const args = parseToolArguments(raw);
          if (call) {
            call.arguments = TextBuffer.of(raw);
            next[call.step] = { ...next[call.step], request: { args } };
            continue;
          }
          const result = resultOf(id);
          calls.set(id, { name, messageId: message.id, arguments: TextBuffer.of(raw), step: next.length, status: result ? "answered" : "open" });
          const status = result ? (result.error ? "failure" : "success") : "processing";
          next.push({ tool_name: name, request: { args }, ...(result && { response: { content: result.content } }), status });
          found.push({ toolCallId: id, name, args, parentMessageId: message.id });
        }
      }
      if (next.length === chain.length && next.every((step, at) => step === chain[at])) return;
      chain = next;
      out.next({ kind: "options", options: { chain_of_thought: chain } });
      if (onToolCall) for (const toolCall of found) showToolCallItem(toolCall.toolCallId, onToolCall(toolCall));
    };

    return {
      next(element) {
        if (isEventOfType(element, EventType.RUN_ERROR) || ("kind" in element && element.kind === "turn.end" && element.how !== "finished")) {
          keepCutCalls();
          failUnfinished();
          return out.next(element);
        }
        if (isEventOfType(element, EventType.RUN_FINISHED)) {
          const { outcome } = element;
          const pending = new Set(outcome?.type === "success" ? outcome.pendingToolCallIds : []);
          const held = new Set(outcome?.type === "interrupt" ? outcome.interrupts.map((interrupt) => interrupt.toolCallId) : []);
          closeUnanswered((toolCallId, call) => {
            if (clientTools === undefined) return pending.has(toolCallId);
            if (clientTools.includes(call.name)) return true;
            return pending.has(toolCallId) ? NO_CLIENT_TOOL : false;
          }, held);
          const runCalls: RunToolCall[] = [];
          for (const [toolCallId, call] of calls) {
            if (call.status !== "open") runCalls.push({ toolCallId, name: call.name, arguments: call.arguments.toString(), status: call.status });
          }
          out.next({ kind: "run.toolCalls", calls: runCalls });
          return out.next(element);
        }
        if (isEventOfType(element, EventType.MESSAGES_SNAPSHOT)) {
          takeFromSnapshot(element.messages);
          return out.next(element);
        }
        if (isEventOfType(element, EventType.TOOL_CALL_START)) {
          const { toolCallId, toolCallName, parentMessageId } = element;
          open.add(toolCallId);
          // A START for a call that ended goes on with it (a chunk stream split by another event).
          if (calls.has(toolCallId)) return;
          const call: CallInProgress = { name: toolCallName, messageId: parentMessageId ?? toolCallId, arguments: new TextBuffer(), step: chain.length, status: "open" };
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
          if (call) call.status = "answered";
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
  }, [EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END, EventType.TOOL_CALL_RESULT, EventType.MESSAGES_SNAPSHOT, EventType.RUN_FINISHED, EventType.RUN_ERROR, "turn.end"]);
}

/** Whether two argument strings say the same, however their JSON is spaced. */
function sameArguments(streamed: string, snapshot: string): boolean {
  return streamed === snapshot || JSON.stringify(parseToolArguments(streamed)) === JSON.stringify(parseToolArguments(snapshot));
}
