/**
 * A reload shows what was shown: on the differential suite's generated
 * conversations (several runs per stream, interleaved messages, calls,
 * reasoning, subagents, state, activities and snapshots, cut anywhere),
 * played live into Carbon, saved, then opened by another adapter on the
 * same store, every response the restored chat shows is the live one, item
 * for item (its items, chain of thought and reasoning), in the same order;
 * and the restored conversation is the live one (history, state, activities).
 */
import fc from "fast-check";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { CarbonMessageResponse } from "../../src/carbon";
import { memoryStore } from "../../src/persistence/memoryStore";
import type { CarbonHistoryResponse } from "../../src/persistence/restore";
import { streamOf, streamSpec, THREAD_ID, USER_MESSAGE } from "./streams";

const quiet = { onWarning: () => undefined, onInvalidEvent: () => undefined, onInvalidItem: () => undefined, onError: () => undefined };
const shape = (response: CarbonMessageResponse | CarbonHistoryResponse) => ({ id: response.id, generic: response.output.generic, options: response.message_options ?? null, error: response.history?.error_state ?? null });

describe("restored equals live (property, over the differential suite's streams)", () => {
  it("a reload shows every response as it was shown, and goes on from the same conversation", async () => {
    await fc.assert(
      fc.asyncProperty(streamSpec, async (spec) => {
        const events = streamOf(spec);
        const store = memoryStore();
        const live = new CarbonAgUiAdapter({ threadId: THREAD_ID, run: () => events.map((event) => structuredClone(event)), coalesce: false, persistence: { store, channel: false, shownTurns: 1_000 }, ...quiet });
        const carbon = new CarbonRecorder();
        await live.sendMessage({ id: USER_MESSAGE.id, input: { text: USER_MESSAGE.content as string }, history: {} } as never, { signal: new AbortController().signal } as never, carbon);
        await live.whenIdle();
        await live.saveNow();
        // A response with no item shows nothing, live or restored.
        const shown = carbon.chunks.flatMap((chunk) => ("final_response" in chunk && chunk.final_response.output.generic.length > 0 ? [shape(chunk.final_response)] : []));
        const again = new CarbonAgUiAdapter({ threadId: THREAD_ID, run: () => [], coalesce: false, persistence: { store, channel: false, shownTurns: 1_000 }, ...quiet });
        const restored = (await again.loadHistory()).flatMap(({ message }) => ("output" in message ? [shape(message)] : []));
        expect(restored).toEqual(shown);
        expect([again.messages, again.state, [...again.activities.values()]]).toEqual([live.messages, live.state, [...live.activities.values()]]);
        live.dispose();
        again.dispose();
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});
