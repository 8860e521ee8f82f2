import type { ClarificationData } from "../hitl";
import { CLARIFICATION_CARD_TEXT } from "./cardText";
import { create } from "./controls";
import type { RenderedCard } from "./renderedCard";
import { useCardStyles } from "./useCardStyles";

/** A clarification card: the agent's question, and where to answer it. */
export function createClarificationCard(document: Document, data: ClarificationData): RenderedCard {
  useCardStyles(document);
  const element = create(document, "div", "cagr-card cagr-clarification-card");
  element.append(create(document, "p", "cagr-card-message", data.question ?? CLARIFICATION_CARD_TEXT.question), create(document, "p", "cagr-card-hint", CLARIFICATION_CARD_TEXT.hint));
  return { element, dispose: () => element.remove() };
}
