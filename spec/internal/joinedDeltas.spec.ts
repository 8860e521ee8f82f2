import fc from "fast-check";
import type { CarbonStreamChunk } from "../../src/carbon";
import { deepFreeze } from "../../src/internal/deepFreeze";
import { joinConsecutiveDeltas } from "../../src/internal/joinedDeltas";
import { CarbonRecorder } from "../../src/testing/recorder";
import { carbon } from "../support/builders";

const R = "resp-1";
const text = (value: string, itemId = "m1") => carbon.partialText(R, itemId, value);

/** What Carbon shows, mid-stream, after the chunks. */
async function shown(chunks: readonly CarbonStreamChunk[]): Promise<string> {
  const recorder = new CarbonRecorder();
  for (const chunk of chunks) await recorder.messaging.addMessageChunk(chunk);
  return recorder.transcript();
}

describe("joinConsecutiveDeltas", () => {
  it("joins each run of deltas of one item, keeping every other chunk and the order", () => {
    const queued = deepFreeze([text("Hel"), text("lo"), carbon.completeText(R, "m1", "Hello"), text("Sec", "m2"), text("ond", "m2"), text("!", "m3")]);
    expect(joinConsecutiveDeltas(queued)).toEqual([text("Hello"), queued[2], text("Second", "m2"), text("!", "m3")]);
  });

  it("gives back a lone delta itself", () => {
    const lone = text("Hi");
    expect(joinConsecutiveDeltas([lone])[0]).toBe(lone);
  });

  it("joins the options riding on the deltas as Carbon merges them", () => {
    const processing = carbon.options(R, { chain_of_thought: [{ tool_name: "search", status: "processing" }] }, "m1");
    const done = carbon.options(R, { chain_of_thought: [{ status: "success" }] }, "m1");
    expect(joinConsecutiveDeltas(deepFreeze([text("Hi"), processing, done]))).toEqual([
      { ...text("Hi"), partial_response: { message_options: { chain_of_thought: [{ tool_name: "search", status: "success" }] } } },
    ]);
  });

  it("leaves Carbon showing exactly what the chunks one by one would, wherever the queue is cut", async () => {
    const chunk = fc.oneof(
      fc.record({ item: fc.constantFrom("m1", "m2"), piece: fc.string({ maxLength: 6 }) }).map(({ item, piece }) => text(piece, item)),
      fc.constantFrom("m1", "m2").map((item) => carbon.completeText(R, item, `${item} done`)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(chunk, { maxLength: 40 }), fc.nat(40), async (chunks, cut) => {
        const frozen = deepFreeze(chunks);
        // What went out before the budget ran out, then the queue left behind, joined.
        const joined = [...frozen.slice(0, cut), ...joinConsecutiveDeltas(frozen.slice(cut))];
        expect(await shown(joined)).toBe(await shown(frozen));
      }),
    );
  });
});
