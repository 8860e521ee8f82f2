import type { CarbonChatInstance } from "../carbon";

/** Carbon's `state:change` event, as far as it is read here. */
interface StateChange {
  newState?: { isHydratingCounter?: number };
}

/**
 * Resolves once Carbon has laid in the history it is loading. Carbon calls
 * `customLoadHistory` as it hydrates, then lays the history in over what it
 * shows meanwhile (its store's messages replaced), so an answer streamed
 * before would lose what it had shown. Carbon's public state says when that
 * is done (`isHydratingCounter` back to 0, told by `state:change`); an
 * instance that is not hydrating, or says nothing of it, has nothing to wait for.
 */
export function whenHydrated(instance: CarbonChatInstance): Promise<void> {
  const hydrating = () => (instance.getState?.().isHydratingCounter ?? 0) > 0;
  if (!hydrating() || !instance.on) return Promise.resolve();
  return new Promise((resolve) => {
    const handlers = [
      {
        type: "state:change",
        handler: (event: StateChange) => {
          if ((event.newState?.isHydratingCounter ?? 0) > 0) return;
          instance.off?.(handlers);
          resolve();
        },
      },
    ];
    instance.on!(handlers);
  });
}
