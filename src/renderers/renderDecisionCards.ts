import { skip } from "rxjs";
import type { CarbonItem } from "../carbon";
import type { ClarificationData, InterruptDecisionData } from "../hitl";
import { createClarificationCard } from "./createClarificationCard";
import { createDecisionCard, type DecisionCardOptions } from "./createDecisionCard";
import type { RenderedCard } from "./renderedCard";

/** A Carbon web-component event, as much of it as the renderer reads. */
interface CarbonBusEvent {
  type: string;
  data?: { message?: CarbonItem; slot?: string };
}

/**
 * A handler on Carbon's event bus. Carbon types the event `type` as its
 * `BusEventType` enum, which plain strings (its runtime values) cannot be
 * assigned to, so the bus takes its handlers loosely (`CarbonEventBus`);
 * `spec/carbon.spec.ts` checks that a real `ChatInstance` fits.
 */
type BusHandler = { type: string; handler: (event: CarbonBusEvent) => unknown };

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
  const cards = new Map<string, RenderedCard>();

  const onUserDefined = (event: CarbonBusEvent) => {
    const slot = event.data?.slot;
    const payload = event.data?.message?.user_defined as InterruptDecisionData | ClarificationData | undefined;
    if (!slot || cards.has(slot) || (payload?.kind !== "interrupt" && payload?.kind !== "clarification")) return;
    const document = host.ownerDocument;
    const card = payload.kind === "interrupt" ? createDecisionCard(document, payload, { instance, adapter, ...(now && { now }) }) : createClarificationCard(document, payload);
    card.element.slot = slot;
    host.appendChild(card.element);
    cards.set(slot, card);
  };
  const clear = () => {
    for (const card of cards.values()) card.dispose();
    cards.clear();
  };
  const handlers: BusHandler[] = [
    { type: "userDefinedResponse", handler: onUserDefined },
    { type: "restartConversation", handler: clear },
  ];
  instance.on(handlers);
  const threadsLeft = adapter.threadId$?.pipe(skip(1)).subscribe(clear);
  return () => {
    instance.off?.(handlers);
    threadsLeft?.unsubscribe();
    clear();
  };
}
