import { EventType, type Message, type ToolCallStartEvent } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { CarbonItem } from "../../carbon";
import { AgUiInvalidItemError } from "../../errors";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";
import { ChainSteps, subagentStepKey, toolStepKey, waitingStep } from "../../internal/chainSteps";
import { pendingApprovalOf } from "../../hitl";
import { AWAITING_APPROVAL, closeUnanswered, failsWithoutResult, fatesAtFinish } from "../../internal/closeUnanswered";
import { isErrorResult } from "../../internal/errorResult";
import { SubagentTitles } from "../../internal/subagentTitles";
import { takeFromSnapshot } from "../../internal/takeFromSnapshot";
import { parseToolArguments } from "../../internal/toolArguments";
import { ToolCallsInProgress, type AgUiToolCall } from "../../internal/toolCallsInProgress";
import { ReplayedCalls } from "../../internal/replayedCalls";
import { warnSkippedItem } from "../../internal/warnings";
import { carbonItemProblems } from "../../itemAllowlist";
import type { CarbonItemsOptions } from "./carbonItems";

export { AWAITING_ANSWER, AWAITING_APPROVAL, AWAITING_DECISION, NO_CLIENT_TOOL, NO_TOOL_RESULT } from "../../internal/closeUnanswered";
export type { AgUiToolCall } from "../../internal/toolCallsInProgress";

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
  /**
   * Take a result that says a tool server's reviewer must decide (`{
   * "pending_approval": "apr_…" }`, what the tool client's framework adapters
   * return) as holding its call: its step waits ("Waiting for approval") and
   * `run.toolCalls` names the approval. Default `false`: it is a result.
   */
  approvals?: boolean;
  /**
   * The calls whose results the thread held before this run, as it held
   * them. A run that announces one of them again, with its name and
   * arguments, replays it (`@ag-ui/langgraph` re-announces an earlier turn's
   * handoff): it is the call already known, shown and kept as it was, and its
   * events here change nothing. Its step waits for its END to tell: a call
   * under a known id with other arguments is new (an agent that reuses ids).
   * Default: none.
   */
  answeredCalls?: ReadonlyMap<string, { name: string; arguments: string }>;
}

/**
 * Shows the run's tool calls as Carbon chain-of-thought steps, live, and
 * records them in the history.
 *
 * Each change of a step goes out as a `chain.steps` instruction (its key
 * `tool:<toolCallId>`), which `chainOfThought()` puts in the chain Carbon
 * shows. TOOL_CALL_START adds a step (`tool_name`, `status:
 * "processing"`); TOOL_CALL_ARGS emits nothing; TOOL_CALL_END sets
 * `request.args` (parsed JSON, or the raw string when it does not parse), and
 * `onToolCall` sees the call then, once; TOOL_CALL_RESULT sets
 * `response.content` and `status: "success"` (`"failure"` when the result
 * carries an `error`, or its content is an error object: `isErrorResult`). A call joins the history as a tool call of its
 * assistant message (the parent message, or one named after the call) when it
 * starts (arguments still empty) and again once they are complete; a result
 * joins it as a `tool` message. A START for a call that ended goes on with it
 * (a chunk stream split by another event); a call cut short stays in the
 * history with its arguments so far. A MESSAGES_SNAPSHOT corrects the calls
 * the events got wrong (`@ag-ui/langgraph` streams a message's second call
 * into its first): a step gets the snapshot's arguments, a call the run did
 * not stream gets a step of its own.
 *
 * No step is left processing once the run has ended: Carbon cannot change a
 * finished message's steps, so a step that waits for the person says so
 * without spinning (`waitingStep`). At RUN_FINISHED a call still without a result is:
 * - handed over, on a successful run, when its outcome names it
 *   (`pendingToolCallIds`) or it calls one of `clientTools`: its answer comes
 *   with the run that follows.
 *   Its step shows `"success"` (the call was made; the client answers it at
 *   once), or, for one of `askedTools`, waits for the person's answer;
 * - held when an interrupt names it: its step waits for a decision;
 * - failed otherwise: `"failure"`, with the response "The tool call ended
 *   without a result". The call is the agent's, and the history keeps it as
 *   the agent left it, with no result (as `@ag-ui/client` does): the chat
 *   answers only the calls that are its own. A call the outcome hands to the
 *   chat for a tool not among the `clientTools` given is the chat's to
 *   answer, and it cannot: "The agent handed this call to the chat, which
 *   has no tool of that name" is its `tool` message (with `error`).
 * A snapshot that holds the result of a call still waiting for one answers it
 * (LangGraph streams none for a supervisor's `transfer_to_*`). When the run
 * fails, is stopped or breaks off, every unanswered call's step fails so.
 * Just before the RUN_FINISHED, `run.toolCalls` tells the stages after it
 * what became of each call of the run: answered, handed over, held or failed.
 * A call of `answeredCalls` announced again as it was is a replay: nothing of it shows.
 *
 * ```
 * source: --S-----a---E-----R-----F-----|    S/a/E: a tool call "search" and its arguments; R: its result; F: RUN_FINISHED
 * result: --(oh)------(oh)--(oh)--(cF)--|    o: chain.steps; h: history.message; c: run.toolCalls
 * ```
 */
export function toolCallSteps(options: ToolCallStepsOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { onToolCall, onInvalidItem = warnSkippedItem, clientTools, askedTools = [], approvals = false, answeredCalls, ...policy } = options;
  const tools = { clientTools, asked: new Set(askedTools.map((tool) => tool.name)) };
  return createOperator<PipelineElement, PipelineElement>((out) => {
    const send = (element: PipelineElement) => out.next(element);
    const chain = new ChainSteps(send);
    const calls = new ToolCallsInProgress(send);
    /** The subagent invocations of the run: a call one made says whose it is. */
    const subagents = new SubagentTitles();
    /** The calls that started an invocation: each reads as a handoff to the first it started. */
    const handoffs = new Set<string>();

    const showToolCallItem = (toolCallId: string, item: CarbonItem | void | undefined) => {
      if (item === undefined) return;
      const problems = carbonItemProblems(item, "item", policy);
      if (problems.length > 0) return onInvalidItem(item, new AgUiInvalidItemError(problems));
      out.next({ kind: "item.complete", itemId: item.streaming_metadata?.id ?? `tool-call-${toolCallId}`, item });
    };
    /** The calls of `answeredCalls` this run announces again. */
    const replays = new ReplayedCalls(answeredCalls);
    /** A call's result, as its TOOL_CALL_RESULT or the run's snapshot gives it: its step shows it, or waits for a reviewer's approval. */
    const answer = (toolCallId: string, content: unknown, error: unknown) => {
      const failed = typeof error === "string" && error !== "";
      const approvalId = approvals && !failed ? pendingApprovalOf(content) : undefined;
      const call = calls.answer(toolCallId, approvalId);
      // An error the result holds fails the step; the history keeps the result as the agent sent it.
      const status = failed || isErrorResult(content) ? "failure" : "success";
      if (call) chain.set(call.step, approvalId === undefined ? { ...chain.at(call.step)!, response: { content }, status } : waitingStep(chain.at(call.step)!, AWAITING_APPROVAL));
      return failed;
    };
    const breakOff = () => {
      calls.keepCut();
      closeUnanswered(calls, chain, failsWithoutResult, send);
    };

    return {
      next(element) {
        if (isEventOfType(element, EventType.RUN_ERROR) || ("kind" in element && element.kind === "turn.end" && element.how !== "finished")) {
          breakOff();
          return out.next(element);
        }
        if (isEventOfType(element, EventType.RUN_FINISHED)) {
          closeUnanswered(calls, chain, fatesAtFinish(element.outcome, tools), send);
          out.next({ kind: "run.toolCalls", calls: calls.ofRun() });
          return out.next(element);
        }
        if (isEventOfType(element, EventType.MESSAGES_SNAPSHOT)) {
          const found = takeFromSnapshot(element.messages, calls, chain, answer);
          if (onToolCall) for (const toolCall of found) showToolCallItem(toolCall.toolCallId, onToolCall(toolCall));
          return out.next(element);
        }
        if (isEventOfType(element, EventType.SUBAGENT_STARTED)) {
          subagents.started(element);
          const { parentToolCallId } = element;
          const handoff = parentToolCallId === undefined || handoffs.has(parentToolCallId) ? undefined : calls.get(parentToolCallId);
          // The call that started it hands the work to it.
          if (handoff) {
            handoffs.add(parentToolCallId!);
            chain.set(handoff.step, { ...chain.at(handoff.step)!, title: subagents.handoffTo(element.subagentRunId)! });
          }
          return out.next(element);
        }
        if (isEventOfType(element, EventType.TOOL_CALL_START)) {
          // A START for a call that ended goes on with it (a chunk stream split by another event).
          if (calls.reopen(element.toolCallId)) return;
          if (replays.started(element)) return;
          return startCall(element);
        }
        if (isEventOfType(element, EventType.TOOL_CALL_ARGS)) {
          if (replays.arguments(element.toolCallId, element.delta)) return;
          return calls.appendArguments(element.toolCallId, element.delta);
        }
        if (isEventOfType(element, EventType.TOOL_CALL_END)) {
          const ended = replays.ended(element.toolCallId);
          if (ended === "replay") return;
          // Under a known id with other arguments: a new call, shown as any other.
          if (ended) {
            startCall(ended.start);
            calls.appendArguments(element.toolCallId, ended.arguments);
          }
          return endCall(element.toolCallId);
        }
        if (isEventOfType(element, EventType.TOOL_CALL_RESULT)) {
          const { messageId, toolCallId, content } = element;
          if (replays.isReplay(toolCallId)) return;
          const error = (element as { error?: unknown }).error;
          const failed = answer(toolCallId, content, error);
          const subagentRunId = (element as { subagentRunId?: string }).subagentRunId;
          return out.next({ kind: "history.message", message: { id: messageId, role: "tool", toolCallId, content, ...(failed && { error }), ...(subagentRunId !== undefined && { subagentRunId }) } as Message });
        }
        out.next(element);
      },
      complete: () => calls.keepCut(),
      error: breakOff,
    };

    function startCall({ toolCallId, toolCallName, parentMessageId, subagentRunId }: ToolCallStartEvent): void {
      const step = toolStepKey(toolCallId);
      // A subagent's call is a step under the subagent's, saying whose it is.
      const by = subagents.of(subagentRunId);
      chain.add(step, { tool_name: toolCallName, ...(by !== undefined && { title: `${by}: ${toolCallName}` }), status: "processing" }, subagentRunId === undefined ? undefined : subagentStepKey(subagentRunId));
      calls.start(toolCallId, toolCallName, parentMessageId ?? toolCallId, step, subagentRunId);
    }

    function endCall(toolCallId: string): void {
      const call = calls.get(toolCallId);
      if (!call) return;
      // onToolCall sees a call once, at its first END.
      const endedBefore = "request" in chain.at(call.step)!;
      const args = parseToolArguments(call.arguments.toString());
      chain.set(call.step, { ...chain.at(call.step)!, request: { args } });
      calls.end(toolCallId, call);
      if (onToolCall && !endedBefore) {
        const parentMessageId = call.messageId === toolCallId ? undefined : call.messageId;
        showToolCallItem(toolCallId, onToolCall({ toolCallId, name: call.name, args, ...(parentMessageId !== undefined && { parentMessageId }) }));
      }
    }
  }, [EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END, EventType.TOOL_CALL_RESULT, EventType.MESSAGES_SNAPSHOT, EventType.SUBAGENT_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR, "turn.end"]);
}
