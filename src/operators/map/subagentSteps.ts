import { EventType } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { CarbonChainOfThoughtStep } from "../../carbon";
import { isEventOfType, type PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";
import { ChainSteps, subagentStepKey, toolStepKey, waitingStep } from "../../internal/chainSteps";
import { SubagentTitles } from "../../internal/subagentTitles";

/** The description of a subagent's step that waits for the person (its SUBAGENT_FINISHED said `suspended`, or an interrupt of the run's outcome is its own). */
export const SUBAGENT_WAITING = "Waiting for an answer";
/**
 * The description of a subagent's step its start does not describe: Carbon
 * 1.9.1 opens a step only when it has a `tool_name`, and labels that "Tool",
 * so the description says what the step is.
 */
export const SUBAGENT_WORKER = "Worker";
/** The response of a subagent's step the run left open. */
export const SUBAGENT_UNFINISHED = "The subagent ended without finishing";

/** An invocation of the run: its step's key and what it said, in order. */
interface Invocation {
  key: string;
  said: string[];
  open: boolean;
}

/**
 * Shows each subagent invocation as a chain-of-thought step of its own:
 * SUBAGENT_STARTED adds a step (its title, `SubagentTitles`': its name, with
 * its lineage for a nested one and a number when the name came before; its
 * name as the step's tool; its description, else SUBAGENT_WORKER; `processing`), placed under the
 * call that started it (`parentToolCallId`) or the subagent that did
 * (`parentSubagentRunId`), else last. What it says (`subagent.said`, from
 * `textMessages()` and `reasoningSteps()`: its reasoning as a quote, its
 * text as markdown) becomes the step's response, and its `result` when it
 * said nothing. SUBAGENT_FINISHED makes the step a success, or waiting for
 * an answer (`waitingStep`: not spinning) when `suspended`; SUBAGENT_ERROR fails
 * it with its message, and the turn goes on. A run that fails, is stopped or
 * breaks off fails the steps still open; at RUN_FINISHED an open one waits
 * when an interrupt of the run's outcome is its own, else fails.
 *
 * ```
 * source: --S--w--F--|    S: SUBAGENT_STARTED s1 "researcher"; w: subagent.said s1 "Tides follow the moon."; F: SUBAGENT_FINISHED s1
 * result: --a--b--c--|    a: chain.steps [researcher, processing]; b: … its response; c: … success
 * ```
 */
export function subagentSteps(): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => {
    const chain = new ChainSteps((element) => out.next(element));
    const invocations = new Map<string, Invocation>();
    const titles = new SubagentTitles();

    const update = (invocation: Invocation, change: Partial<CarbonChainOfThoughtStep>) => chain.set(invocation.key, { ...chain.at(invocation.key)!, ...change });
    const close = (invocation: Invocation, change: Partial<CarbonChainOfThoughtStep>) => {
      invocation.open = false;
      update(invocation, change);
    };
    const said = (invocation: Invocation) => invocation.said.join("\n\n");
    const fail = (invocation: Invocation, why: string) => close(invocation, { status: "failure", response: { content: invocation.said.length === 0 ? why : `${said(invocation)}\n\n${why}` } });
    const failOpen = () => chain.batch(() => {
      for (const invocation of invocations.values()) if (invocation.open) fail(invocation, SUBAGENT_UNFINISHED);
    });

    return {
      next(element) {
        if ("kind" in element) {
          if (element.kind === "subagent.said") {
            const invocation = invocations.get(element.subagentRunId);
            if (invocation) {
              invocation.said.push(element.said === "reasoning" ? quote(element.text) : element.text);
              update(invocation, { response: { content: said(invocation) } });
            }
            return;
          }
          if (element.kind === "turn.end" && element.how !== "finished") failOpen();
          return out.next(element);
        }
        if (isEventOfType(element, EventType.SUBAGENT_STARTED)) {
          const { subagentRunId, name, description, parentToolCallId, parentSubagentRunId } = element;
          const title = titles.started(element);
          // An id names one invocation in a run (verifySequence holds a run to it).
          const key = subagentStepKey(subagentRunId);
          invocations.set(subagentRunId, { key, said: [], open: true });
          const under = parentToolCallId !== undefined ? toolStepKey(parentToolCallId) : parentSubagentRunId !== undefined ? invocations.get(parentSubagentRunId)?.key : undefined;
          // Carbon 1.9.1 lets a step open only when it has a tool_name as it is drawn (its other content renders later).
          chain.add(key, { title, tool_name: name, description: description ?? SUBAGENT_WORKER, status: "processing" }, under);
        } else if (isEventOfType(element, EventType.SUBAGENT_FINISHED)) {
          const invocation = invocations.get(element.subagentRunId);
          if (invocation?.open) {
            const { result, outcome } = element;
            const response = invocation.said.length > 0 || result === undefined ? {} : { response: { content: result } };
            if (outcome?.type === "suspended") close(invocation, waitingStep({ ...chain.at(invocation.key)!, ...response }, SUBAGENT_WAITING));
            else close(invocation, { ...response, status: "success" });
          }
        } else if (isEventOfType(element, EventType.SUBAGENT_ERROR)) {
          const invocation = invocations.get(element.subagentRunId);
          if (invocation?.open) fail(invocation, element.code === undefined ? element.message : `${element.message} (${element.code})`);
        } else if (isEventOfType(element, EventType.RUN_FINISHED)) {
          const outcome = element.outcome;
          const asking = new Set(outcome?.type === "interrupt" ? outcome.interrupts.flatMap((interrupt) => (interrupt.subagentRunId === undefined ? [] : [interrupt.subagentRunId])) : []);
          chain.batch(() => {
            for (const [subagentRunId, invocation] of invocations) {
              if (!invocation.open) continue;
              if (asking.has(subagentRunId)) update(invocation, waitingStep(chain.at(invocation.key)!, SUBAGENT_WAITING));
              else fail(invocation, SUBAGENT_UNFINISHED);
            }
          });
        } else if (isEventOfType(element, EventType.RUN_ERROR)) {
          failOpen();
        }
        out.next(element);
      },
      error: failOpen,
    };
  }, [EventType.SUBAGENT_STARTED, EventType.SUBAGENT_FINISHED, EventType.SUBAGENT_ERROR, EventType.RUN_FINISHED, EventType.RUN_ERROR, "subagent.said", "turn.end"]);
}

/** Markdown quoting `text`, line by line. */
function quote(text: string): string {
  return text
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}
