import type { RunFinishedOutcome } from "@ag-ui/core";
import type { CarbonChainOfThoughtStep } from "../carbon";
import type { PipelineElement } from "../instructions";
import { waitingStep, type ChainSteps } from "./chainSteps";
import type { ToolCallsInProgress } from "./toolCallsInProgress";

/** What the step of a call left without a result says; the chat's answer to one a successful run left it without naming it (see `fatesAtFinish`). */
export const NO_TOOL_RESULT = "The tool call ended without a result";

/** The description of the step of a call an interrupt holds. */
export const AWAITING_DECISION = "Waiting for a decision";

/** The description of the step of a call the person answers (a client tool without a handler). */
export const AWAITING_ANSWER = "Waiting for your answer";

/** The description of the step of a call a tool server's approval holds. */
export const AWAITING_APPROVAL = "Waiting for approval";

/** The result the chat gives a call the run's outcome hands to it, for a tool it does not have: it is that call's executor. */
export const NO_CLIENT_TOOL = "The agent handed this call to the chat, which has no tool of that name";

/** What becomes of a call the run leaves without a result. */
export type Fate =
  /** An interrupt holds it: the decision answers it. */
  | { status: "held" }
  /** The client answers it, with the run that follows: its code, or the person (`byPerson`). */
  | { status: "handedOver"; byPerson: boolean }
  /**
   * Its step fails, saying `why`. A call the agent left without a result keeps
   * none in the history (the agent's record is the truth); one handed to the
   * chat that it cannot run gets `why` as its result (`chatAnswers`): the chat
   * is its executor.
   */
  | { status: "failed"; why: string; chatAnswers?: true };

/** Decides the fate of an unanswered call. */
export type FateOf = (toolCallId: string, name: string) => Fate;

const HELD: Fate = { status: "held" };
const TO_CLIENT: Fate = { status: "handedOver", byPerson: false };
const TO_PERSON: Fate = { status: "handedOver", byPerson: true };
const WITHOUT_RESULT: Fate = { status: "failed", why: NO_TOOL_RESULT };
const WITHOUT_CLIENT_TOOL: Fate = { status: "failed", why: NO_CLIENT_TOOL, chatAnswers: true };
const LEFT_TO_CHAT: Fate = { status: "failed", why: NO_TOOL_RESULT, chatAnswers: true };

/** The tools the client runs, as `toolCallSteps` is given them. */
export interface ClientTools {
  /** The names of the tools the client runs; absent, the outcome alone says which calls go to the client. */
  clientTools: readonly string[] | undefined;
  /** The names of the client tools the person answers. */
  asked: ReadonlySet<string>;
}

/**
 * The fates of the unanswered calls of a run that finished with `outcome`,
 * the one place they are decided (which calls are the chat's to answer, as
 * AG-UI 1.0's `pendingToolCallIds` says):
 * - a call an interrupt names is held;
 * - on a successful run, the calls its outcome lists are the chat's; when it
 *   lists none, every call without a result is (as `@ag-ui/client` derives
 *   them). The chat's call is handed over to a tool it has (to the person for
 *   one of the `asked` tools); one it has no tool for fails, with the chat's
 *   answer as its result (`chatAnswers`): NO_CLIENT_TOOL for a call the
 *   outcome named, NO_TOOL_RESULT for one derived;
 * - any other call is the agent's, left without a result: its step fails
 *   with NO_TOOL_RESULT, and nobody writes a result for it.
 */
export function fatesAtFinish(outcome: RunFinishedOutcome | undefined, { clientTools, asked }: ClientTools): FateOf {
  const listed = outcome?.type === "success" && (outcome.pendingToolCallIds?.length ?? 0) > 0 ? new Set(outcome.pendingToolCallIds) : undefined;
  const held = new Set(outcome?.type === "interrupt" ? outcome.interrupts.map((interrupt) => interrupt.toolCallId) : []);
  // Only a successful run waits on the client: after an interrupt or a cancellation, nobody answers its other calls.
  const handsOver = outcome === undefined || outcome.type === "success";
  return (toolCallId, name) => {
    if (held.has(toolCallId)) return HELD;
    if (!handsOver || (listed && !listed.has(toolCallId))) return WITHOUT_RESULT;
    if (listed ? clientTools === undefined || clientTools.includes(name) : clientTools?.includes(name)) return asked.has(name) ? TO_PERSON : TO_CLIENT;
    return listed ? WITHOUT_CLIENT_TOOL : LEFT_TO_CHAT;
  };
}

/** The fate of every unanswered call of a run that failed, was stopped or broke off: it fails with NO_TOOL_RESULT. */
export const failsWithoutResult: FateOf = () => WITHOUT_RESULT;

/**
 * How the step of a call shows its fate: held, it waits for a decision
 * (`waitingStep`); handed over, `"success"` (the call was made; the client
 * answers it at once), or waiting for the person's answer; failed,
 * `"failure"` with its result as the response.
 */
export function closedStep(step: CarbonChainOfThoughtStep, fate: Fate): CarbonChainOfThoughtStep {
  if (fate.status === "held") return waitingStep(step, AWAITING_DECISION);
  if (fate.status === "handedOver") return fate.byPerson ? waitingStep(step, AWAITING_ANSWER) : { ...step, status: "success" };
  return { ...step, response: { content: fate.why }, status: "failure" };
}

/**
 * Closes every call of the run still without a result, as `fateOf` decides:
 * its status becomes its fate's, and its step shows it (the chain sent
 * once). Only a call the chat answers as its executor (`chatAnswers`) gets
 * a result in the history, with `error`; a call the agent left without one
 * stays so, as `@ag-ui/client` keeps it.
 */
export function closeUnanswered(calls: ToolCallsInProgress, chain: ChainSteps, fateOf: FateOf, send: (element: PipelineElement) => void): void {
  const failed: [toolCallId: string, why: string][] = [];
  chain.batch(() => {
    for (const [toolCallId, call] of calls.unanswered()) {
      const fate = fateOf(toolCallId, call.name);
      call.status = fate.status;
      chain.set(call.step, closedStep(chain.at(call.step)!, fate));
      if (fate.status === "failed" && fate.chatAnswers) failed.push([toolCallId, fate.why]);
    }
  });
  for (const [toolCallId, why] of failed) {
    send({ kind: "history.message", message: { id: `${toolCallId}-no-result`, role: "tool", toolCallId, content: why, error: why } });
  }
}
