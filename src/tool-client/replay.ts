/**
 * The last events delivered, by their own id, for skipping what a server
 * replays after a reconnect. Bounded in entries and in bytes: each entry
 * keeps a 53-bit hash of the content (`contentHash`), not the content (two
 * different payloads under one id colliding is a 1-in-2^53 chance).
 */
export interface ReplayWindow {
  /** True when an event with this id and this content hash was delivered recently. */
  delivered(id: string, content: number): boolean;
  /** True when an event with this id was delivered recently, whatever its content. */
  knows(id: string): boolean;
  remember(id: string, content: number): void;
}

/** Longer ids are never skipped: a replay is recognised only by short, server-assigned ids. */
export const MAX_SKIPPABLE_ID_LENGTH = 256;

export function createReplayWindow(capacity: number): ReplayWindow {
  // A Map iterates in insertion order, so its first key is the oldest.
  const hashes = new Map<string, number>();
  // A long id is kept by its hash (under a key no id can have: ids never contain NUL), so seeing it again is not
  // progress, but it never matches a delivered event.
  const key = (id: string) => (id.length > MAX_SKIPPABLE_ID_LENGTH ? `\0${hash(id)}` : id);
  return {
    delivered: (id, content) => id.length <= MAX_SKIPPABLE_ID_LENGTH && hashes.get(id) === content,
    knows: (id) => hashes.has(key(id)),
    remember(id, content) {
      const at = key(id);
      hashes.delete(at);
      hashes.set(at, content);
      if (hashes.size > capacity) hashes.delete(hashes.keys().next().value as string);
    },
  };
}

/** An event's content (its name and data) as a 53-bit hash, without joining the two. */
export const contentHash = (name: string, data: string): number => hash(data, hash(name));

/** cyrb53 (public domain): a fast 53-bit string hash with good dispersion; `seed` chains a previous hash. */
function hash(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ (seed >>> 0);
  let h2 = 0x41c6ce57 ^ Math.floor(seed / 4294967296);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
