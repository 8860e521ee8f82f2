import type { CarbonChainOfThoughtStep } from "../carbon";
import type { PipelineElement } from "../instructions";

/**
 * The chain of thought of a response, as Carbon shows it: its steps in order.
 * Each change is sent as the whole chain in an `options` instruction. A chain
 * once sent is never written again (the stages after and Carbon may keep it):
 * a change copies the steps once, and `batch` makes several changes one copy
 * and one instruction.
 */
export class ChainOfThought {
  /** The chain as last sent: never written again. */
  private steps: CarbonChainOfThoughtStep[] = [];
  /** The copy the changes write to, until it is sent. */
  private draft: CarbonChainOfThoughtStep[] | undefined;
  private batching = false;

  constructor(private readonly send: (element: PipelineElement) => void) {}

  get length(): number {
    return (this.draft ?? this.steps).length;
  }

  /** The step at `index`, with the changes so far. */
  at(index: number): CarbonChainOfThoughtStep | undefined {
    return (this.draft ?? this.steps)[index];
  }

  /** Adds a step after the others; returns its position. */
  add(step: CarbonChainOfThoughtStep): number {
    const steps = this.writable();
    const index = steps.push(step) - 1;
    this.changed();
    return index;
  }

  /** Puts `step` in the place of the step at `index`. */
  set(index: number, step: CarbonChainOfThoughtStep): void {
    this.writable()[index] = step;
    this.changed();
  }

  /** Makes the changes `changes` makes one change: the chain is sent once, if they changed it, and not at all if they throw. */
  batch(changes: () => void): void {
    this.batching = true;
    try {
      changes();
    } catch (error) {
      this.draft = undefined;
      throw error;
    } finally {
      this.batching = false;
    }
    this.changed();
  }

  private writable(): CarbonChainOfThoughtStep[] {
    return (this.draft ??= this.steps.slice());
  }

  private changed(): void {
    if (this.batching || !this.draft) return;
    this.steps = this.draft;
    this.draft = undefined;
    this.send({ kind: "options", options: { chain_of_thought: this.steps } });
  }
}
