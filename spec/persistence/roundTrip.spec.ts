import { EventType, type BaseEvent, type Interrupt, type RunAgentInput } from "@ag-ui/core";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import { memoryStore } from "../../src/persistence/memoryStore";
import fc from "fast-check";
import type { InterruptDecision } from "../../src/hitl";
import { parseSnapshot } from "../../src/persistence/schema";
import type { ConversationSnapshot } from "../../src/persistence/snapshot";
import { streamOf, streamSpec, THREAD_ID, USER_MESSAGE } from "../differential/streams";

const interrupt: fc.Arbitrary<Interrupt> = fc.record(
  { id: fc.constantFrom("int-1", "int-2", "int-3"), reason: fc.constantFrom("tool_approval", "input"), message: fc.string({ maxLength: 8 }), toolCallId: fc.constant("call-0-0"), expiresAt: fc.constant("2099-12-01T11:00:00.000Z") },
  { requiredKeys: ["id", "reason"] },
);
const decision: fc.Arbitrary<InterruptDecision | undefined> = fc.constantFrom<InterruptDecision | undefined>(undefined, { type: "approve" }, { type: "reject" }, { type: "edit", args: { city: "Oslo" } });

/** What the next run is sent, and what the thread holds: all a restored conversation must give back. */
const viewOf = (adapter: CarbonAgUiAdapter) => ({
  threadId: adapter.threadId,
  messages: adapter.messages,
  state: adapter.state,
  activities: [...adapter.activities.values()],
  pendingInterrupts: adapter.pendingInterrupts,
});
const quiet = { onWarning: () => undefined, onInvalidEvent: () => undefined, onInvalidItem: () => undefined, onError: () => undefined };

describe("a conversation saved and loaded (property, over the differential suite's streams)", () => {
  it("gives back the same thread's log, JSON round trip included, and the same messages (encrypted values too), state, activities and pending interrupts with their decisions", async () => {
    await fc.assert(
      fc.asyncProperty(streamSpec, fc.uniqueArray(fc.tuple(interrupt, decision), { selector: ([entry]) => entry.id, maxLength: 3 }), async (spec, interrupts) => {
        const events = streamOf(spec);
        const last = events.at(-1);
        if (last?.type === EventType.RUN_FINISHED && interrupts.length > 0) events[events.length - 1] = { ...last, outcome: { type: "interrupt", interrupts: interrupts.map(([entry]) => entry) } } as BaseEvent;
        const store = memoryStore();
        const adapter = new CarbonAgUiAdapter({ threadId: THREAD_ID, coalesce: false, persistence: { store, channel: false }, run: () => events.map((event) => structuredClone(event)), ...quiet });
        await adapter.sendMessage({ id: USER_MESSAGE.id, input: { text: USER_MESSAGE.content as string }, history: {} } as never, { signal: new AbortController().signal } as never, new CarbonRecorder());
        // Decisions taken on all but the last card: nothing runs.
        for (const [{ id }, taken] of interrupts.slice(0, -1)) if (taken && adapter.pendingInterrupts.some((entry) => entry.interrupt.id === id)) await adapter.respondToInterrupt(taken, undefined, {}, id);
        await adapter.saveNow();
        const stored = (await store.load(THREAD_ID)) as ConversationSnapshot;
        expect(parseSnapshot(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
        const restored = new CarbonAgUiAdapter({ threadId: THREAD_ID, coalesce: false, persistence: { store, channel: false }, run: () => [], ...quiet });
        await restored.loadHistory();
        expect(viewOf(restored)).toEqual(viewOf(adapter));
        adapter.dispose();
        restored.dispose();
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("through the adapter and a store: the same adapter state after loading, and the same next run input", async () => {
    await fc.assert(
      fc.asyncProperty(streamSpec, fc.uniqueArray(interrupt, { selector: (entry) => entry.id, maxLength: 2 }), async (spec, interrupts) => {
        const events = streamOf(spec);
        const last = events.at(-1);
        // The run ends waiting on interrupts, when it ends at all.
        if (last?.type === EventType.RUN_FINISHED && interrupts.length > 0) events[events.length - 1] = { ...last, outcome: { type: "interrupt", interrupts } } as BaseEvent;
        const store = memoryStore();
        const nextInputs: RunAgentInput[] = [];
        const adapterOn = (first: readonly BaseEvent[]) => {
          let runs = 0;
          return new CarbonAgUiAdapter({
            threadId: THREAD_ID,
            coalesce: false,
            persistence: { store },
            onWarning: () => undefined,
            onInvalidEvent: () => undefined,
            onInvalidItem: () => undefined,
            onError: () => undefined,
            run: (input) => (runs++ === 0 && first.length > 0 ? first.map((event) => structuredClone(event)) : (nextInputs.push(input), [])),
          });
        };
        const send = (adapter: CarbonAgUiAdapter, text: string, id: string) =>
          adapter.sendMessage({ id, input: { text }, history: {} } as never, { signal: new AbortController().signal, silent: false } as never, new CarbonRecorder()).catch(() => undefined);

        const original = adapterOn(events);
        await send(original, USER_MESSAGE.content as string, USER_MESSAGE.id);
        await original.saveNow();
        const restored = adapterOn([]);
        await restored.loadHistory();
        expect(viewOf(restored)).toEqual(viewOf(original));

        await send(original, "Next", "user-2");
        await send(restored, "Next", "user-2");
        expect(nextInputs).toHaveLength(2);
        const [fromOriginal, fromRestored] = nextInputs.map(({ runId: _runId, ...input }) => input);
        expect(fromRestored).toEqual(fromOriginal);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
