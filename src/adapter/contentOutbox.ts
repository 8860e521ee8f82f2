import type { ContentPart } from "@ag-ui/core";
import { randomId } from "../internal/ids";

/** How many messages in parts may wait for Carbon to hand them back (a restart drops Carbon's queue, and with it theirs). */
const WAITING = 16;

/**
 * Messages in parts the host sends through Carbon (`sendContent`), kept by
 * the request id Carbon hands back to `customSendMessage` with the text it
 * showed, so that the agent gets the parts. Taken once; the oldest goes
 * when more than 16 wait.
 */
export class ContentOutbox {
  private readonly waiting = new Map<string, ContentPart[]>();

  /** Keeps `content`; returns the request id to send it under. */
  put(content: readonly ContentPart[]): string {
    const id = randomId();
    this.waiting.set(id, [...content]);
    if (this.waiting.size > WAITING) this.waiting.delete(this.waiting.keys().next().value!);
    return id;
  }

  /** The content sent under `id`, once. */
  take(id: string | undefined): ContentPart[] | undefined {
    if (id === undefined) return undefined;
    const content = this.waiting.get(id);
    this.waiting.delete(id);
    return content;
  }
}
