import type { CarbonChatInstance, CarbonThreadInstance } from "../carbon";

/** The handlers `CarbonEvents` calls, for every instance it follows. */
export interface CarbonEventHandlers {
  stop: () => void;
  /** Carbon's restart (before it cancels requests), and a clear of its chat the adapter did not ask for. */
  restart: () => void;
  feedback?: (event: never) => void;
}

/**
 * What Carbon tells of the person's and the host's doings, on every instance
 * it is handed, once per instance: its stop button (any turn, a resume too),
 * its restart, feedback when there is a handler for it, and a
 * `clearConversation()` (which fires no event in Carbon 1.9.1: its call is
 * wrapped). The adapter clears the chat through `clear`, which is not taken
 * for the host's.
 */
export class CarbonEvents {
  private readonly followed = new WeakSet<object>();
  /** What undoes each follow: the bus handlers off, `clearConversation` as it was. */
  private readonly unfollows: (() => void)[] = [];
  /** While the adapter clears Carbon's chat itself. */
  private clearing = false;

  constructor(private readonly handlers: CarbonEventHandlers) {}

  follow(instance: CarbonChatInstance): void {
    if (this.followed.has(instance)) return;
    this.followed.add(instance);
    const handlers = [
      { type: "stopStreaming", handler: () => this.handlers.stop() },
      { type: "pre:restartConversation", handler: () => this.handlers.restart() },
      ...(this.handlers.feedback ? [{ type: "feedback", handler: this.handlers.feedback }] : []),
    ];
    instance.on?.(handlers);
    this.unfollows.push(() => instance.off?.(handlers));
    const messaging = instance.messaging as Partial<CarbonThreadInstance["messaging"]>;
    const clearConversation = messaging.clearConversation;
    if (typeof clearConversation !== "function") return;
    messaging.clearConversation = () => {
      // Before Carbon cancels the requests in flight, as for its restart.
      if (!this.clearing) this.handlers.restart();
      return clearConversation.call(messaging);
    };
    this.unfollows.push(() => void (messaging.clearConversation = clearConversation));
  }

  /** Stops following every instance: their handlers are off, and their `clearConversation` is Carbon's own again. */
  unfollowAll(): void {
    for (const unfollow of this.unfollows.splice(0)) unfollow();
  }

  /** Clears Carbon's chat for the adapter (a new thread, a switch): not the host's clear. */
  clear(instance: CarbonThreadInstance): Promise<void> {
    this.follow(instance);
    this.clearing = true;
    try {
      return instance.messaging.clearConversation();
    } finally {
      this.clearing = false;
    }
  }
}
