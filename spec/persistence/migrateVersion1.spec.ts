/**
 * A thread saved in the earlier format (version 1: each view stored apart)
 * opens as it was, and goes on: no person loses a saved conversation.
 */
import type { RunAgentInput } from "@ag-ui/core";
import { firstValueFrom } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import { memoryStore } from "../../src/persistence/memoryStore";
import { historyItemsOf } from "../../src/persistence/restore";
import type { ConversationStore } from "../../src/persistence/store";
import { ev } from "../support/builders";
import { aVersion1Snapshot, TIME } from "./fixtures";

/** A store holding `snapshot` as a store written by the earlier version holds it: the document as it was written. */
async function storing(snapshot: unknown): Promise<ConversationStore> {
  const store = memoryStore();
  let kept: unknown = snapshot;
  return { ...store, load: async () => structuredClone(kept), save: async (saved) => void (kept = saved) };
}

function adapterOn(store: ConversationStore, runs: ((input: RunAgentInput) => unknown)[] = []) {
  const inputs: RunAgentInput[] = [];
  const adapter = new CarbonAgUiAdapter({
    threadId: "thread-1",
    coalesce: false,
    answerVersions: true,
    persistence: { store, channel: false },
    run: (input) => (inputs.push(input), (runs[inputs.length - 1]?.(input) ?? ev.run()) as never),
  });
  return { adapter, inputs };
}

describe("a thread saved in version 1", () => {
  it("opens as its chat showed it, with its history, state, activities, cards and their decisions, and the next run sends what it would have", async () => {
    const old = aVersion1Snapshot();
    const { adapter, inputs } = adapterOn(await storing(old));
    const history = await adapter.loadHistory(new CarbonRecorder());
    expect(history).toEqual(historyItemsOf(old.transcript));
    expect(adapter.messages).toEqual(old.messages);
    expect(adapter.state).toEqual(old.state);
    expect([...adapter.activities.values()]).toEqual(old.activities);
    expect(adapter.pendingInterrupts).toEqual(old.pendingInterrupts);
    // It expired meanwhile: it can only be rejected, and the resume carries that.
    await adapter.respondToInterrupt({ type: "reject" }, new CarbonRecorder(), {}, "int-1");
    expect(inputs[0]).toMatchObject({ threadId: "thread-1", messages: [], resume: [{ interruptId: "int-1", status: "cancelled" }] });
  });

  it("keeps the versions of its latest answer: the bar, and switching to the other one", async () => {
    const asideTranscript = [{ kind: "response" as const, id: "response-0", requestId: "user-1", time: TIME, items: [{ response_type: "text" as const, text: "Cold.", streaming_metadata: { id: "assistant-0" } }] }];
    const old = aVersion1Snapshot({
      pendingInterrupts: [],
      versions: { requestId: "user-1", chosen: 1, answers: [{ messages: [{ id: "assistant-0", role: "assistant", content: "Cold." }], activities: [], transcript: asideTranscript }, null] },
    });
    const { adapter } = adapterOn(await storing(old));
    await adapter.loadHistory(new CarbonRecorder());
    expect(await firstValueFrom(adapter.answerVersions$)).toMatchObject({ requestId: "user-1", responseId: "response-1", index: 1, count: 2 });
    const carbon = new CarbonRecorder();
    await adapter.switchVersion(0, carbon);
    expect(adapter.messages.map((message) => message.id)).toEqual(["user-1", "assistant-0"]);
    expect(carbon.transcript()).toBe("Assistant: Cold.");
  });

  it("can be asked again: the question is the person's message, the answer a version of it", async () => {
    const { adapter, inputs } = adapterOn(await storing(aVersion1Snapshot({ pendingInterrupts: [] })), [() => ev.run(...ev.message("a9", "Sunny."))]);
    await adapter.loadHistory(new CarbonRecorder());
    await adapter.regenerate(new CarbonRecorder());
    expect(inputs[0]!.messages.map((message) => message.id)).toEqual(["user-1"]);
    expect(await firstValueFrom(adapter.answerVersions$)).toMatchObject({ index: 1, count: 2 });
  });
});
