/** A card's element, and what lets go of it (its subscription, the element itself). */
export interface RenderedCard {
  element: HTMLElement;
  dispose(): void;
}
