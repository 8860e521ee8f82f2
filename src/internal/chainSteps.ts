import type { CarbonChainOfThoughtStep } from "../carbon";
import type { ChainStepChange, PipelineElement } from "../instructions";

/**
 * The chain-of-thought steps one stage owns, by key: what it last said of
 * each, and the changes it sends (`chain.steps`) for `chainOfThought()` to
 * put in the one chain Carbon shows. Each change goes out as it is made;
 * `batch` makes several changes one instruction, and none if they throw.
 */
export class ChainSteps {
  private readonly steps = new Map<string, CarbonChainOfThoughtStep>();
  private pending: ChainStepChange[] | undefined;

  constructor(private readonly send: (element: PipelineElement) => void) {}

  /** The step under `key`, as last set. */
  at(key: string): CarbonChainOfThoughtStep | undefined {
    return this.steps.get(key);
  }

  /** A new step under `key`, placed after the step `under` names and those already under it (else last). */
  add(key: string, step: CarbonChainOfThoughtStep, under?: string): void {
    this.steps.set(key, step);
    this.changed({ key, step, ...(under !== undefined && { under }) });
  }

  /** Puts `step` in the place of the step under `key`. */
  set(key: string, step: CarbonChainOfThoughtStep): void {
    this.steps.set(key, step);
    this.changed({ key, step });
  }

  /** Makes the changes `changes` makes one `chain.steps` instruction, sent if they changed anything, not at all if they throw. */
  batch(changes: () => void): void {
    const outer = this.pending;
    this.pending = outer ?? [];
    try {
      changes();
    } catch (error) {
      this.pending = outer;
      throw error;
    }
    if (outer) return;
    const made = this.pending;
    this.pending = undefined;
    if (made.length > 0) this.send({ kind: "chain.steps", changes: made });
  }

  private changed(change: ChainStepChange): void {
    if (this.pending) this.pending.push(change);
    else this.send({ kind: "chain.steps", changes: [change] });
  }
}

/**
 * A step that waits for the person (a decision, an answer, an approval) once
 * its run has gone as far as it can: `description` says what it waits for.
 * It does not spin: Carbon cannot change a finished message's steps, so a
 * spinner would go on after the person answered (the answer comes with the
 * next run's message). Carbon 1.9.1 draws a step as processing, failed or
 * succeeded only; it shows this one as succeeded: the step did its part.
 */
export function waitingStep(step: CarbonChainOfThoughtStep, description: string): CarbonChainOfThoughtStep {
  return { ...step, status: "success", description };
}

/** The key of a tool call's step. */
export const toolStepKey = (toolCallId: string) => `tool:${toolCallId}`;

/** The key of a subagent invocation's step. */
export const subagentStepKey = (subagentRunId: string) => `subagent:${subagentRunId}`;
