import type { RunFinishedOutcome } from "@ag-ui/core";
import type { CarbonChainOfThoughtStep } from "../carbon";
import type { PipelineElement } from "../instructions";
import type { ChainSteps } from "./chainSteps";
import type { ToolCallsInProgress } from "./toolCallsInProgress";

/** The result recorded for a call the agent ended without answering. */
export const NO_TOOL_RESULT = "The tool call ended without a result";

/** The description of the step of a call an interrupt holds. */
export const AWAITING_DECISION = "Waiting for a decision";

/** The description of the step of a call the person answers (a client tool without a handler). */
export const AWAITING_ANSWER = "Waiting for your answer";

/** The description of the step of a call a tool server's approval holds. */
export const AWAITING_APPROVAL = "Waiting for approval";

/** The result recorded for a call the run's outcome hands to the client, which has no tool of that name. */
export const NO_CLIENT_TOOL = "The agent handed this call to the chat, which has no tool of that name";

/** What becomes of a call the run leaves without a result. */
export type Fate =
  /** An interrupt holds it: the decision answers it. */
  | { status: "held" }
  /** The client answers it, with the run that follows: its code, or the person (`byPerson`). */
  | { status: "handedOver"; byPerson: boolean }
  /** Nobody answers it: `why` is its result. */
  | { status: "failed"; why: string };

/** Decides the fate of an unanswered call. */
export type FateOf = (toolCallId: string, name: string) => Fate;

const HELD: Fate = { status: "held" };
const TO_CLIENT: Fate = { status: "handedOver", byPerson: false };
const TO_PERSON: Fate = { status: "handedOver", byPerson: true };
const WITHOUT_RESULT: Fate = { status: "failed", why: NO_TOOL_RESULT };
const WITHOUT_CLIENT_TOOL: Fate = { status: "failed", why: NO_CLIENT_TOOL };

/** The tools the client runs, as `toolCallSteps` is given them. */
export interface ClientTools {
  /** The names of the tools the client runs; absent, the outcome alone says which calls go to the client. */
  clientTools: readonly string[] | undefined;
  /** The names of the client tools the person answers. */
  asked: ReadonlySet<string>;
}

/**
 * The fates of the unanswered calls of a run that finished with `outcome`,
 * the one place they are decided: a call an interrupt names is held; on a
 * successful run, a call the outcome names (`pendingToolCallIds`), or of one
 * of `clientTools` when they are given, is handed over, to the person for one of the `asked` tools;
 * a call the outcome names for a tool not among the `clientTools` given fails
 * with NO_CLIENT_TOOL, any other with NO_TOOL_RESULT.
 */
export function fatesAtFinish(outcome: RunFinishedOutcome | undefined, { clientTools, asked }: ClientTools): FateOf {
  const pending = new Set(outcome?.type === "success" ? outcome.pendingToolCallIds : []);
  const held = new Set(outcome?.type === "interrupt" ? outcome.interrupts.map((interrupt) => interrupt.toolCallId) : []);
  // Only a successful run waits on the client: after an interrupt or a cancellation, nobody answers its other calls.
  const handsOver = outcome === undefined || outcome.type === "success";
  return (toolCallId, name) => {
    if (held.has(toolCallId)) return HELD;
    if (!handsOver) return WITHOUT_RESULT;
    if (clientTools === undefined ? pending.has(toolCallId) : clientTools.includes(name)) return asked.has(name) ? TO_PERSON : TO_CLIENT;
    return clientTools !== undefined && pending.has(toolCallId) ? WITHOUT_CLIENT_TOOL : WITHOUT_RESULT;
  };
}

/** The fate of every unanswered call of a run that failed, was stopped or broke off: it fails with NO_TOOL_RESULT. */
export const failsWithoutResult: FateOf = () => WITHOUT_RESULT;

/**
 * How the step of a call shows its fate: held, it stays processing, described
 * as waiting for a decision; handed over, `"success"` (the call was made; the
 * client answers it at once), or processing and described as waiting for the
 * person's answer; failed, `"failure"` with its result as the response.
 */
export function closedStep(step: CarbonChainOfThoughtStep, fate: Fate): CarbonChainOfThoughtStep {
  if (fate.status === "held") return { ...step, description: AWAITING_DECISION };
  if (fate.status === "handedOver") return fate.byPerson ? { ...step, description: AWAITING_ANSWER } : { ...step, status: "success" };
  return { ...step, response: { content: fate.why }, status: "failure" };
}

/**
 * Closes every call of the run still without a result, as `fateOf` decides:
 * its status becomes its fate's, its step shows it (the chain sent once),
 * and a call that failed gets its result in the history, with `error` (every
 * call is in the history from its START, and the next run must not carry a
 * call without a result: providers reject it).
 */
export function closeUnanswered(calls: ToolCallsInProgress, chain: ChainSteps, fateOf: FateOf, send: (element: PipelineElement) => void): void {
  const failed: [toolCallId: string, why: string][] = [];
  chain.batch(() => {
    for (const [toolCallId, call] of calls.unanswered()) {
      const fate = fateOf(toolCallId, call.name);
      call.status = fate.status;
      chain.set(call.step, closedStep(chain.at(call.step)!, fate));
      if (fate.status === "failed") failed.push([toolCallId, fate.why]);
    }
  });
  for (const [toolCallId, why] of failed) {
    send({ kind: "history.message", message: { id: `${toolCallId}-no-result`, role: "tool", toolCallId, content: why, error: why } });
  }
}
