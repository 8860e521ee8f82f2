import type { CarbonChatInstance } from "../carbon";

/**
 * Follows Carbon's stop button (any turn, a resume too), its restart
 * (before it cancels requests) and, given a handler, feedback, on every
 * instance it is handed, once per instance.
 */
export class CarbonEvents {
  private readonly followed = new WeakSet<object>();

  constructor(private readonly handlers: { stop: () => void; restart: () => void; feedback?: (event: never) => void }) {}

  follow(instance: CarbonChatInstance): void {
    if (!instance.on || this.followed.has(instance)) return;
    this.followed.add(instance);
    instance.on([
      { type: "stopStreaming", handler: () => this.handlers.stop() },
      { type: "pre:restartConversation", handler: () => this.handlers.restart() },
      ...(this.handlers.feedback ? [{ type: "feedback", handler: this.handlers.feedback }] : []),
    ]);
  }
}
