import type { BaseEvent } from "@ag-ui/core";
import { TestScheduler } from "rxjs/testing";
import type { CarbonAgUiAdapter, CarbonAgUiAdapterOptions } from "../../src/adapter";
import type { CarbonStreamChunk } from "../../src/carbon";
import { memoryStore } from "../../src/persistence/memoryStore";
import type { ConversationSnapshot } from "../../src/persistence/snapshot";
import { FRAME, onVirtualClock } from "./virtualClock";

/** What a chunk is, as a marble character: `p` a partial item (or options), `c` a complete item, `f` the final response. */
const kindOf = (chunk: CarbonStreamChunk) => ("final_response" in chunk ? "f" : "complete_item" in chunk ? "c" : "p");

/**
 * The whole adapter in virtual time: what the person and the host ask for
 * as a marble of intents (one character a frame, each an action on the
 * adapter), the agent's runs as cold marbles (one per run, in order), and
 * what comes out as values to expect: Carbon's chunks as a marble over the
 * same frames, the history, the log the store holds.
 */
export function wholeAdapter(runs: string[], events: Record<string, BaseEvent>, extra: Partial<CarbonAgUiAdapterOptions> = {}) {
  const store = memoryStore();
  const harness = onVirtualClock(runs, events, { threadId: "thread-1", coalesce: false, answerVersions: true, persistence: { store, channel: false }, onWarning: () => undefined, ...extra });
  const { adapter, carbon, advanceTo, clock } = harness;
  const seen: { frame: number; kind: string }[] = [];
  const deliver = carbon.messaging.addMessageChunk;
  carbon.messaging.addMessageChunk = (chunk) => {
    seen.push({ frame: clock.now() / FRAME, kind: kindOf(chunk) });
    return deliver(chunk);
  };
  const settled: Promise<unknown>[] = [];
  return {
    ...harness,
    store,
    /** Schedules each intent of `marble` (a character per frame) at its frame; `actions` say what each character does. */
    intents(marble: string, actions: Record<string, (adapter: CarbonAgUiAdapter) => Promise<unknown> | void>): void {
      [...marble].forEach((character, frame) => {
        const action = actions[character];
        if (action) clock.schedule(() => void settled.push(Promise.resolve(action(adapter)).catch((error: unknown) => error)), frame * FRAME);
      });
    },
    /** Moves the clock a frame at a time to `frame` (what each frame sets off settles before the next), then lets every intent asked for settle; what each came to (an error for a refusal). */
    async settle(frame: number): Promise<unknown[]> {
      for (let next = 0; next <= frame; next++) await advanceTo(next);
      return Promise.all(settled);
    },
    /** Carbon's chunks so far, as the marble `marble` over absolute frames says them (`p`, `c`, `f`). */
    expectChunks(marble: string): void {
      const expected = TestScheduler.parseMarbles(marble, { p: "p", c: "c", f: "f" }, undefined, true, true).map(({ frame, notification }) => ({ frame: frame / FRAME, kind: (notification as { value: string }).value }));
      expect(seen).toEqual(expected);
    },
    /** The history the next run sends, one line per message. */
    history: () => adapter.messages.map((message) => `${message.role}${typeof message.content === "string" && message.content !== "" ? `: ${message.content}` : ""}`),
    /** The log the store holds, one line per entry of the current branch and the others. */
    async savedLog(): Promise<string[]> {
      await adapter.saveNow();
      const saved = (await store.load("thread-1")) as ConversationSnapshot;
      return saved.entries.map((entry) => (entry.kind === "run" ? `run ${entry.ended}${entry.answers ? ` answering ${entry.answers.map((answer) => `${answer.interruptId}=${answer.answer}`).join(",")}` : ""}` : entry.kind === "act" ? `act ${entry.act.type}` : "imported"));
    },
  };
}
