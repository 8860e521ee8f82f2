type Entry<R> = { fingerprint: string; reply?: R };

export type Lookup<R> = { state: "new" } | { state: "reused" } | { state: "in-flight" } | { state: "done"; reply: R };

/**
 * Replies kept per (principal, Idempotency-Key), least recently used evicted
 * first. An entry without a reply is a request still being handled.
 */
export class IdempotencyStore<R> {
  private readonly entries = new Map<string, Entry<R>>();

  constructor(private readonly capacity: number) {}

  /** Looks the key up; when it is new, marks it in flight (the caller must then `complete` or `release` it). */
  begin(principal: string, key: string, fingerprint: string): Lookup<R> {
    const id = `${principal}\u0000${key}`;
    const entry = this.entries.get(id);
    if (entry === undefined) {
      this.entries.set(id, { fingerprint });
      this.evict();
      return { state: "new" };
    }
    this.entries.delete(id);
    this.entries.set(id, entry);
    if (entry.fingerprint !== fingerprint) return { state: "reused" };
    return entry.reply === undefined ? { state: "in-flight" } : { state: "done", reply: entry.reply };
  }

  complete(principal: string, key: string, reply: R): void {
    const entry = this.entries.get(`${principal}\u0000${key}`);
    if (entry !== undefined) entry.reply = reply;
  }

  /** Forgets a key whose request left nothing to replay. */
  release(principal: string, key: string): void {
    this.entries.delete(`${principal}\u0000${key}`);
  }

  private evict(): void {
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.capacity) return;
      // A request in flight keeps its key: evicting it would let a duplicate run the tool twice.
      if (entry.reply !== undefined) this.entries.delete(id);
    }
  }
}
