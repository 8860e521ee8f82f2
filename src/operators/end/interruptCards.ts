import { EventType, type Interrupt, type Message, type Tool, type ToolCall } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import { clientToolInterrupt, toolServerApprovalInterrupt, type InterruptDecisionData } from "../../hitl";
import { isEventOfType, type PipelineElement, type RunToolCall } from "../../instructions";
import { createOperator } from "../fusion";
import { findToolCall } from "../../internal/findToolCall";
import { isRecord } from "../../internal/isRecord";
import { SubagentTitles } from "../../internal/subagentTitles";
import { parseToolArguments } from "../../internal/toolArguments";

export interface InterruptCardsOptions {
  /** The history before this run, where a call an interrupt names may have been made (a re-emitted interrupt). */
  history?: readonly Message[];
  /** The interrupts whose cards still wait for a decision: one the run lists again (LangGraph re-emits a pending interrupt) gets no second card. */
  waiting?: Iterable<string>;
  /**
   * The tools the person answers (the app declared them without a handler):
   * a successful run that hands over a call of one ends with a card for it,
   * as for an interrupt (see `clientToolInterrupt`). Default: none.
   */
  askedTools?: readonly Tool[];
  /**
   * A run's calls that a tool server's approval holds (`run.toolCalls` names
   * it: see `toolCallSteps`' `approvals`) end the run with a card for each, as
   * for an interrupt (see `toolServerApprovalInterrupt`), after the agent's
   * own; `inputSchemas`, the tools' input schemas by name, check an edit.
   */
  approvals?: { inputSchemas?: ReadonlyMap<string, object> };
}

/** A tool call as a card describes it. */
type KnownCall = Pick<RunToolCall, "name" | "arguments">;

/**
 * A RUN_FINISHED whose outcome is an interrupt becomes one decision card per
 * interrupt, in order: a Carbon `user_defined` item carrying
 * `InterruptDecisionData` (with the name and parsed arguments of the tool call
 * it concerns: from the run's latest messages snapshot, else its
 * `run.toolCalls`, else the earlier `history`; the snapshot first, as the
 * agent's own record, which also holds calls no event of the run started), then an `interrupts.pending` write (what `respondToInterrupt`
 * answers), then the RUN_FINISHED. A card always says what it asks: an
 * interrupt without a `message` gets the question from its metadata (Mastra's
 * `metadata.mastra.suspendPayload`; its tool name and arguments stand in for
 * a call the run did not stream), else "Allow <tool>?" for its tool call.
 * An interrupt whose card still waits (`waiting`) gets no second one. A
 * successful RUN_FINISHED that hands over calls of `askedTools` (its
 * `run.toolCalls`) gets a card for each in the same way, the interrupt being
 * the adapter's own (`clientToolInterrupt`); with `approvals`, so does each
 * call a tool server's approval holds (`toolServerApprovalInterrupt`).
 * Mastra streams no events for the call it suspended: from its metadata, the
 * call joins the history (as an assistant message named after it), so the
 * result Mastra sends on resume answers a call the next run carries.
 *
 * ```
 * source: --F--|    F: RUN_FINISHED { outcome: { type: "interrupt", interrupts: [i1, i2] } }
 * result: --(abpF)| a, b: item.complete user_defined { kind: "interrupt", interruptId: "i1" / "i2", … }; p: interrupts.pending
 * ```
 */
export function interruptCards(options: InterruptCardsOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  const { history = [], askedTools = [], approvals } = options;
  const waiting = new Set(options.waiting);
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      const runCalls = new Map<string, KnownCall>();
      const subagents = new SubagentTitles();
      /** The calls of `askedTools` the run hands over, with their tool. */
      let asked: { toolCallId: string; tool: Tool }[] = [];
      /** The run's calls a tool server's approval holds. */
      let approving: Interrupt[] = [];
      /** The run's latest messages snapshot: the agent's own record, over what it streamed. */
      let snapshot: readonly Message[] = [];
      const known = (messages: readonly Message[], toolCallId: string): KnownCall | undefined => {
        const call = findToolCall(messages, toolCallId)?.call;
        return call && { name: call.function.name, arguments: call.function.arguments };
      };
      const findCall = (toolCallId: string | undefined): KnownCall | undefined =>
        toolCallId === undefined ? undefined : (known(snapshot, toolCallId) ?? runCalls.get(toolCallId) ?? known(history, toolCallId));
      return {
        next(element) {
          if ("kind" in element && element.kind === "run.toolCalls") {
            for (const call of element.calls) runCalls.set(call.toolCallId, call);
            asked = element.calls.flatMap((call) => {
              const tool = call.status === "handedOver" ? askedTools.find((candidate) => candidate.name === call.name) : undefined;
              return tool ? [{ toolCallId: call.toolCallId, tool }] : [];
            });
            approving = approvals ? element.calls.flatMap((call) => (call.approvalId === undefined ? [] : [toolServerApprovalInterrupt(call, call.approvalId, approvals.inputSchemas?.get(call.name))])) : [];
          } else if (isEventOfType(element, EventType.SUBAGENT_STARTED)) {
            subagents.started(element);
          } else if ("kind" in element && element.kind === "history.snapshot") {
            snapshot = element.messages;
          } else if (isEventOfType(element, EventType.RUN_FINISHED)) {
            const { outcome } = element;
            const own = outcome?.type === "interrupt" ? outcome.interrupts : outcome?.type === "cancelled" ? [] : asked.map(({ toolCallId, tool }) => clientToolInterrupt(toolCallId, tool));
            const interrupts = outcome?.type === "cancelled" ? own : [...own, ...approving];
            const fresh = interrupts.filter((interrupt) => !waiting.has(interrupt.id));
            for (const interrupt of fresh) {
              let found = findCall(interrupt.toolCallId);
              const missingCall = found ? undefined : callFromMetadata(interrupt);
              if (missingCall) {
                out.next({ kind: "history.message", message: { id: missingCall.id, role: "assistant", toolCalls: [missingCall] } });
                found = { name: missingCall.function.name, arguments: missingCall.function.arguments };
                runCalls.set(missingCall.id, found);
              }
              out.next({ kind: "item.complete", itemId: `interrupt-${interrupt.id}`, item: { response_type: "user_defined", user_defined: decisionData(interrupt, found, subagents) } });
            }
            if (interrupts.length > 0) out.next({ kind: "interrupts.pending", interrupts });
          }
          out.next(element);
        },
      };
    },
    [EventType.RUN_FINISHED, EventType.SUBAGENT_STARTED, "run.toolCalls", "history.snapshot"],
  );
}

function decisionData(interrupt: Interrupt, found: KnownCall | undefined, subagents: SubagentTitles): InterruptDecisionData {
  const { id, reason, toolCallId, responseSchema, expiresAt, subagentRunId } = interrupt;
  const subagent = subagents.of(subagentRunId) ?? subagentRunId;
  const suspension = mastraSuspension(interrupt.metadata);
  const call = found ? { action: found.name, args: parseToolArguments(found.arguments) } : suspension?.toolName !== undefined ? { action: suspension.toolName, args: suspension.args } : undefined;
  const message = interrupt.message ?? suspension?.question ?? (call ? `Allow ${call.action}?` : undefined);
  return {
    kind: "interrupt",
    interruptId: id,
    reason,
    ...(message !== undefined && { message }),
    ...(toolCallId !== undefined && { toolCallId }),
    ...(call && { action: call.action, ...(call.args !== undefined && { args: call.args }) }),
    ...(responseSchema !== undefined && { responseSchema }),
    ...(expiresAt !== undefined && { expiresAt }),
    ...(subagent !== undefined && { subagent }),
  };
}

/** The tool call an interrupt's Mastra metadata describes (for a call the history does not hold). */
function callFromMetadata(interrupt: Interrupt): ToolCall | undefined {
  const { toolCallId } = interrupt;
  const suspension = mastraSuspension(interrupt.metadata);
  if (toolCallId === undefined || suspension?.toolName === undefined) return undefined;
  return { id: toolCallId, type: "function", function: { name: suspension.toolName, arguments: JSON.stringify(suspension.args ?? {}) } };
}

/** The keys under which a suspend payload usually carries its question, in order of preference. */
const QUESTION_KEYS = ["message", "question", "prompt", "reason", "title", "description"];

/**
 * What `@ag-ui/mastra` puts in a suspended tool's interrupt: `metadata.mastra`
 * with the tool's name, its arguments, and the payload the tool suspended
 * with, whose text (the payload itself, or its first string under one of
 * `QUESTION_KEYS`) is the question for the person.
 */
function mastraSuspension(metadata: unknown): { toolName?: string; args?: unknown; question?: string } | undefined {
  const mastra = isRecord(metadata) ? metadata.mastra : undefined;
  if (!isRecord(mastra)) return undefined;
  const { toolName, args, suspendPayload } = mastra;
  const question = typeof suspendPayload === "string" ? suspendPayload : isRecord(suspendPayload) ? QUESTION_KEYS.map((key) => suspendPayload[key]).find((value) => typeof value === "string") : undefined;
  return {
    ...(typeof toolName === "string" && { toolName }),
    ...(args !== undefined && { args }),
    ...(typeof question === "string" && question !== "" && { question }),
  };
}
