import { randomId } from "../../src/internal/ids";

describe("randomId", () => {
  it("makes distinct ids", () => {
    const ids = new Set(Array.from({ length: 1_000 }, randomId));
    expect(ids.size).toBe(1_000);
  });

  it("falls back to getRandomValues where randomUUID is missing (a browser page outside a secure context)", () => {
    const original = globalThis.crypto.randomUUID;
    Object.defineProperty(globalThis.crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      expect(randomId()).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      Object.defineProperty(globalThis.crypto, "randomUUID", { value: original, configurable: true });
    }
  });
});
