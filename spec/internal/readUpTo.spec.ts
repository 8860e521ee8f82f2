import { readUpTo } from "../../src/internal/readUpTo";

/** A response whose body yields `chunks`, recording whether it was cancelled. */
function responseOf(chunks: string[]) {
  const state = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulled++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body), state };
}

describe("readUpTo", () => {
  it("reads a body that fits whole", async () => {
    const { response, state } = responseOf(["Hel", "lo"]);
    expect(await readUpTo(response, 5)).toEqual({ text: "Hello", cut: false });
    expect(state.cancelled).toBe(false);
  });

  it("stops at the bound, cancels the rest unread, and says it cut", async () => {
    const { response, state } = responseOf(["abc", "defgh", "never read"]);
    expect(await readUpTo(response, 5)).toEqual({ text: "abcde", cut: true });
    expect(state.cancelled).toBe(true);
  });

  it("decodes characters split across chunks; one cut by the bound shows as U+FFFD", async () => {
    const euro = new TextEncoder().encode("€€");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(euro.subarray(0, 2));
        controller.enqueue(euro.subarray(2));
        controller.close();
      },
    });
    expect(await readUpTo(new Response(body), 6)).toEqual({ text: "€€", cut: false });
    expect((await readUpTo(new Response(new Blob(["€€"]).stream()), 4)).text).toBe("€\uFFFD");
  });

  it("reads an empty body as empty", async () => {
    expect(await readUpTo(new Response(null), 10)).toEqual({ text: "", cut: false });
  });
});
