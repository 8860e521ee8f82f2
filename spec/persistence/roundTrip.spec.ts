import { EventType, type BaseEvent, type Interrupt, type RunAgentInput } from "@ag-ui/core";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import { memoryStore } from "../../src/persistence/memoryStore";
import fc from "fast-check";
import { catchError, EMPTY, from, lastValueFrom } from "rxjs";
import { Conversation } from "../../src/conversation";
import type { InterruptDecision } from "../../src/hitl";
import { agUiToCarbon } from "../../src/operators/agUiToCarbon";
import { parseSnapshot } from "../../src/persistence/schema";
import { conversationOf, snapshotOf } from "../../src/persistence/snapshot";
import { streamOf, streamSpec, THREAD_ID, USER_MESSAGE } from "../differential/streams";

const interrupt: fc.Arbitrary<Interrupt> = fc.record(
  { id: fc.constantFrom("int-1", "int-2", "int-3"), reason: fc.constantFrom("tool_approval", "input"), message: fc.string({ maxLength: 8 }), toolCallId: fc.constant("call-0-0"), expiresAt: fc.constant("2026-12-01T11:00:00.000Z") },
  { requiredKeys: ["id", "reason"] },
);
const decision: fc.Arbitrary<InterruptDecision | undefined> = fc.constantFrom<InterruptDecision | undefined>(undefined, { type: "approve" }, { type: "reject" }, { type: "edit", args: { city: "Oslo" } });

/** What the next run is sent, and what the thread holds: all a restored conversation must give back. */
const viewOf = (conversation: Conversation) => ({
  threadId: conversation.threadId,
  messages: conversation.messages,
  state: conversation.state,
  activities: [...conversation.activities.values()],
  pendingInterrupts: conversation.pendingInterrupts,
});

describe("a conversation saved and loaded (property, over the differential suite's streams)", () => {
  it("gives back the same thread, messages (encrypted values too), state, activities and pending interrupts with their decisions", async () => {
    await fc.assert(
      fc.asyncProperty(streamSpec, fc.array(fc.tuple(interrupt, decision), { maxLength: 3 }), async (spec, interrupts) => {
        const conversation = new Conversation({ threadId: THREAD_ID, state: {} });
        conversation.upsertMessage(USER_MESSAGE);
        const chunks = from(streamOf(spec)).pipe(
          agUiToCarbon({ conversation, coalesce: false, onWarning: () => undefined, onInvalidEvent: () => undefined, onInvalidItem: () => undefined }),
          catchError(() => EMPTY),
        );
        await lastValueFrom(chunks, { defaultValue: undefined });
        conversation.addPendingInterrupts(interrupts.map(([entry]) => entry));
        for (const [{ id }, taken] of interrupts) if (taken) conversation.decideInterrupt(id, taken);

        const stored = JSON.parse(JSON.stringify(snapshotOf(conversation, [], new Date("2026-12-01T10:00:00.000Z"))));
        const restored = conversationOf(parseSnapshot(stored));
        expect(viewOf(restored)).toEqual(viewOf(conversation));
      }),
      { numRuns: 300 },
    );
  });

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
        const view = (adapter: CarbonAgUiAdapter) => ({ threadId: adapter.threadId, messages: adapter.messages, state: adapter.state, activities: [...adapter.activities.values()], pendingInterrupts: adapter.pendingInterrupts });
        expect(view(restored)).toEqual(view(original));

        await send(original, "Next", "user-2");
        await send(restored, "Next", "user-2");
        expect(nextInputs).toHaveLength(2);
        const [fromOriginal, fromRestored] = nextInputs.map(({ runId: _runId, ...input }) => input);
        expect(fromRestored).toEqual(fromOriginal);
      }),
      { numRuns: 300 },
    );
  });
});
