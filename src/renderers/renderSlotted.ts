import { skip, type Observable } from "rxjs";
import type { CarbonEventBus } from "../carbon";
import type { RenderedCard } from "./renderedCard";

/** A Carbon web-component event, as much of it as the renderers read. */
interface CarbonBusEvent {
  type: string;
  data?: { message?: { user_defined?: unknown }; slot?: string };
}

/**
 * A handler on Carbon's event bus. Carbon types the event `type` as its
 * `BusEventType` enum, which plain strings (its runtime values) cannot be
 * assigned to, so the bus takes its handlers loosely (`CarbonEventBus`);
 * `spec/carbon.spec.ts` checks that a real `ChatInstance` fits.
 */
type BusHandler = { type: string; handler: (event: CarbonBusEvent) => unknown };

export interface SlottedOptions {
  instance: CarbonEventBus;
  /** The chat element (`cds-aichat-custom-element`) the elements are slotted into. */
  host: HTMLElement;
  /** The adapter's thread: elements are dropped when it changes. */
  threadId$?: Observable<string> | undefined;
  /** The element for a `user_defined` item's payload, by the payload's `kind`; payloads of other kinds are other renderers'. */
  kinds: Record<string, (document: Document, payload: never) => RenderedCard>;
}

/**
 * Draws `user_defined` items in Carbon AI Chat's web component: for each
 * `userDefinedResponse` whose payload is of a kind in `kinds`, appends its element,
 * slotted where Carbon asks, to `host`. Elements are dropped when the
 * conversation restarts or the adapter leaves its thread (Carbon asks again
 * for those of a thread switched back to). Returns a function that removes
 * everything.
 */
export function renderSlotted({ instance, host, threadId$, kinds }: SlottedOptions): () => void {
  const drawn = new Map<string, RenderedCard>();
  const onUserDefined = (event: CarbonBusEvent) => {
    const slot = event.data?.slot;
    const payload = event.data?.message?.user_defined as { kind?: unknown } | undefined;
    const create = typeof payload?.kind === "string" && Object.hasOwn(kinds, payload.kind) ? kinds[payload.kind] : undefined;
    if (!slot || drawn.has(slot) || !create) return;
    const rendered = create(host.ownerDocument, payload as never);
    rendered.element.slot = slot;
    host.appendChild(rendered.element);
    drawn.set(slot, rendered);
  };
  const clear = () => {
    for (const rendered of drawn.values()) rendered.dispose();
    drawn.clear();
  };
  const handlers: BusHandler[] = [
    { type: "userDefinedResponse", handler: onUserDefined },
    { type: "restartConversation", handler: clear },
  ];
  instance.on(handlers);
  const threadsLeft = threadId$?.pipe(skip(1)).subscribe(clear);
  return () => {
    instance.off?.(handlers);
    threadsLeft?.unsubscribe();
    clear();
  };
}
