import type { Interrupt } from "@ag-ui/core";
import { BehaviorSubject, type Observable } from "rxjs";
import type { InterruptDecision, PendingInterrupt } from "../hitl";
import { deepFreeze } from "../internal/deepFreeze";

/** How an interrupt's card was answered once the answer went: the decision's type, or `cancelled` by a message sent instead. */
export type CardAnswer = InterruptDecision["type"] | "cancelled";

/**
 * The decision cards of a thread: the interrupts awaiting their answer, in
 * arrival order, each with the decision taken so far, and how each card
 * was answered once its answer went (to the agent, in a run it took; or
 * from the chat, which answers its own). One list decides both what waits
 * and how a card restored reads.
 */
export class PendingCards {
  private readonly subject = new BehaviorSubject<readonly PendingInterrupt[]>(Object.freeze([]));
  private readonly answers = new Map<string, CardAnswer>();

  get pending(): readonly PendingInterrupt[] {
    return this.subject.value;
  }

  get pending$(): Observable<readonly PendingInterrupt[]> {
    return this.subject.asObservable();
  }

  /** How the card of `interruptId` was answered, once it was. */
  answerOf(interruptId: string): CardAnswer | undefined {
    return this.answers.get(interruptId);
  }

  /** Interrupts that now wait, after the ones already there; an id already waiting is ignored. */
  add(interrupts: readonly Interrupt[]): void {
    const pending = [...this.pending];
    for (const interrupt of interrupts) {
      if (!pending.some((entry) => entry.interrupt.id === interrupt.id)) pending.push({ interrupt: structuredClone(interrupt) });
    }
    this.publish(pending);
  }

  /** Records the decision for a waiting interrupt (replacing an earlier one). */
  decide(interruptId: string, decision: InterruptDecision): void {
    this.publish(this.pending.map((entry) => (entry.interrupt.id === interruptId ? { interrupt: entry.interrupt, decision: structuredClone(decision) } : entry)));
  }

  /** The cards `answered` no longer wait: each was answered as it says. Returns them as they waited. */
  settle(answered: readonly { interruptId: string; answer: CardAnswer }[]): PendingInterrupt[] {
    if (answered.length === 0) return [];
    const by = new Map(answered.map(({ interruptId, answer }) => [interruptId, answer]));
    const taken = this.pending.filter((entry) => by.has(entry.interrupt.id));
    for (const [interruptId, answer] of by) this.answers.set(interruptId, answer);
    if (taken.length > 0) this.publish(this.pending.filter((entry) => !by.has(entry.interrupt.id)));
    return taken;
  }

  private publish(pending: readonly PendingInterrupt[]): void {
    this.subject.next(deepFreeze([...pending]));
  }
}
