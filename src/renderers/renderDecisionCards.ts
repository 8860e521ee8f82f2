import type { ClarificationData, InterruptDecisionData } from "../hitl";
import { createClarificationCard } from "./createClarificationCard";
import { createDecisionCard, type DecisionCardOptions } from "./createDecisionCard";
import { renderSlotted } from "./renderSlotted";

export interface DecisionCardsOptions extends DecisionCardOptions {
  /** The Carbon instance (from `onBeforeRender`): its `userDefinedResponse` events ask for the cards, and the resume streams into it. */
  instance: DecisionCardOptions["instance"];
  /** The chat element (`cds-aichat-custom-element` or the container) the cards are slotted into. */
  host: HTMLElement;
}

/**
 * Renders decision cards (interrupts) and clarification cards in Carbon AI
 * Chat's web component: listens for `userDefinedResponse` and appends a card,
 * slotted where Carbon asks, to `host`. Cards are dropped when the
 * conversation restarts or the adapter leaves its thread (`threadId$`: Carbon
 * asks again for the cards of a thread switched back to). Returns a function
 * that removes everything. Each
 * card is `createDecisionCard` / `createClarificationCard`, which React hosts
 * can mount themselves.
 */
export function renderDecisionCards(options: DecisionCardsOptions): () => void {
  const { instance, host, adapter, now } = options;
  return renderSlotted({
    instance,
    host,
    threadId$: adapter.threadId$,
    kinds: {
      interrupt: (document, data: InterruptDecisionData) => createDecisionCard(document, data, { instance, adapter, ...(now && { now }) }),
      clarification: (document, data: ClarificationData) => createClarificationCard(document, data),
    },
  });
}
