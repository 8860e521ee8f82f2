/**
 * The cards' public names. Each piece is in the file named for it:
 * `renderDecisionCards` (the web-component renderer), `createDecisionCard`
 * and `createClarificationCard` (one card each), the decision card's
 * `decisionCardState` and `decisionCardView`, `buildDecisionCard` and
 * `paintDecisionCard`, its words in `cardText`, its look in `useCardStyles`.
 */
export { createClarificationCard } from "./createClarificationCard";
export { createDecisionCard, type DecisionCardOptions } from "./createDecisionCard";
export type { RenderedCard } from "./renderedCard";
export { renderDecisionCards, type DecisionCardsOptions } from "./renderDecisionCards";
