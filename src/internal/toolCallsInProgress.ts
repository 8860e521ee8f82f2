import type { ToolCall } from "@ag-ui/core";
import type { PipelineElement, RunToolCall } from "../instructions";
import { TextBuffer } from "./textBuffer";

/** A finished tool call, as `onToolCall` sees it. */
export interface AgUiToolCall {
  toolCallId: string;
  name: string;
  /** The parsed JSON arguments, or the raw string when they do not parse. */
  args: unknown;
  parentMessageId?: string;
}

/** A tool call of the run, as far as it went. */
export interface CallInProgress {
  name: string;
  /** The assistant message it is a tool call of. */
  messageId: string;
  arguments: TextBuffer;
  /** Position of its step in the chain of thought. */
  /** The key of its chain-of-thought step (`tool:<toolCallId>`). */
  step: string;
  /** What became of it; `open` while it waits for its result. */
  status: RunToolCall["status"] | "open";
  /** The subagent invocation that made the call, when one did (its TOOL_CALL_START's `subagentRunId`). */
  subagentRunId?: string;
  /** The tool server's approval its result says it waits for. */
  approvalId?: string;
}

/**
 * The tool calls of a run by id, each kept in the history as a tool call of
 * its assistant message (the history merges an assistant message's tool calls
 * by id, after any it already holds). A call streams its arguments between
 * its START and its END; one cut short before its END stays in the history
 * with its arguments so far (`keepCut`).
 */
export class ToolCallsInProgress {
  private readonly calls = new Map<string, CallInProgress>();
  /** Calls started and not ended. */
  private readonly open = new Set<string>();

  constructor(private readonly send: (element: PipelineElement) => void) {}

  get(toolCallId: string): CallInProgress | undefined {
    return this.calls.get(toolCallId);
  }

  has(toolCallId: string): boolean {
    return this.calls.has(toolCallId);
  }

  /** True between the call's START and its END. */
  isOpen(toolCallId: string): boolean {
    return this.open.has(toolCallId);
  }

  /** Opens again a call already known (a START for a call that ended goes on with it); false, and nothing done, for a new one. */
  reopen(toolCallId: string): boolean {
    if (!this.calls.has(toolCallId)) return false;
    this.open.add(toolCallId);
    return true;
  }

  /** Opens a new call, its step at `step`, and records it in the history with no arguments yet: the history keeps the order calls began in, as @ag-ui/client's does. */
  start(toolCallId: string, name: string, messageId: string, step: string, subagentRunId?: string): void {
    const call: CallInProgress = { name, messageId, arguments: new TextBuffer(), step, status: "open", ...(subagentRunId !== undefined && { subagentRunId }) };
    this.calls.set(toolCallId, call);
    this.open.add(toolCallId);
    this.remember(toolCallId, call, "");
  }

  /** Adds a call the run made that did not stream (read from a snapshot, and in the history already). */
  add(toolCallId: string, call: CallInProgress): void {
    this.calls.set(toolCallId, call);
  }

  appendArguments(toolCallId: string, delta: string): void {
    this.calls.get(toolCallId)?.arguments.append(delta);
  }

  /** Closes the call, and records it in the history with its arguments. */
  end(toolCallId: string, call: CallInProgress): void {
    this.open.delete(toolCallId);
    this.remember(toolCallId, call, call.arguments.toString());
  }

  /** Marks the call answered (it has a result), or held when the result says a tool server's approval holds it; returns it, if known. */
  answer(toolCallId: string, approvalId?: string): CallInProgress | undefined {
    const call = this.calls.get(toolCallId);
    if (call) call.status = approvalId === undefined ? "answered" : "held";
    if (call && approvalId !== undefined) call.approvalId = approvalId;
    return call;
  }

  /** Records every call still open in the history with its arguments so far (when it has any), and closes it. */
  keepCut(): void {
    for (const toolCallId of this.open) {
      const call = this.calls.get(toolCallId)!;
      if (!call.arguments.isEmpty) this.remember(toolCallId, call, call.arguments.toString());
    }
    this.open.clear();
  }

  /** The calls still waiting for their result, in the order they became known. */
  unanswered(): [toolCallId: string, call: CallInProgress][] {
    return [...this.calls].filter(([, call]) => call.status === "open");
  }

  /** What became of each call the run closed, as `run.toolCalls` tells it. */
  ofRun(): RunToolCall[] {
    const calls: RunToolCall[] = [];
    for (const [toolCallId, call] of this.calls) {
      if (call.status !== "open") calls.push({ toolCallId, name: call.name, arguments: call.arguments.toString(), status: call.status, ...(call.approvalId !== undefined && { approvalId: call.approvalId }) });
    }
    return calls;
  }

  private remember(toolCallId: string, call: CallInProgress, args: string): void {
    const toolCalls: ToolCall[] = [{ id: toolCallId, type: "function", function: { name: call.name, arguments: args } }];
    // A subagent's call says whose it is on the message it makes (a message that holds it already keeps its own: the history keeps the first).
    this.send({ kind: "history.message", message: { id: call.messageId, role: "assistant", toolCalls, ...(call.subagentRunId !== undefined && { subagentRunId: call.subagentRunId }) } });
  }
}
