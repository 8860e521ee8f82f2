import type { CarbonChatInstance } from "../carbon";

/**
 * Follows Carbon's stop button (any turn, a resume too) and its restart
 * (before it cancels requests) on every instance it is handed, once per
 * instance.
 */
export class CarbonEvents {
  private readonly followed = new WeakSet<object>();

  constructor(private readonly handlers: { stop: () => void; restart: () => void }) {}

  follow(instance: CarbonChatInstance): void {
    if (!instance.on || this.followed.has(instance)) return;
    this.followed.add(instance);
    instance.on([
      { type: "stopStreaming", handler: () => this.handlers.stop() },
      { type: "pre:restartConversation", handler: () => this.handlers.restart() },
    ]);
  }
}
