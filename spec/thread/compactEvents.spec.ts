import { transformChunks } from "@ag-ui/client";
import { EventType, type BaseEvent } from "@ag-ui/core";
import fc from "fast-check";
import { from, lastValueFrom, toArray } from "rxjs";
import type { CarbonStreamChunk } from "../../src/carbon";
import { agUiToCarbon } from "../../src/operators/agUiToCarbon";
import { compactEvents } from "../../src/thread/compactEvents";
import { runReference } from "../differential/reference";
import { streamOf, streamSpec } from "../differential/streams";
import { ev } from "../support/builders";

/** The final responses `events` come to in Carbon, synchronously, quietly. */
function finals(events: readonly BaseEvent[]): unknown[] {
  const shown: unknown[] = [];
  from(events)
    .pipe(agUiToCarbon({ coalesce: false, responseId: "r", onWarning: () => undefined, onInvalidEvent: () => undefined }))
    .subscribe({ next: (chunk: CarbonStreamChunk) => "final_response" in chunk && shown.push(chunk.final_response), error: () => undefined });
  return shown;
}

/** A stream's events as the log keeps them: each run's compacted on its own. */
function compactedRuns(events: readonly BaseEvent[]): BaseEvent[] {
  const runs: BaseEvent[][] = [];
  for (const event of events) {
    if (event.type === EventType.RUN_STARTED || runs.length === 0) runs.push([]);
    runs.at(-1)!.push(event);
  }
  return runs.flatMap((run) => compactEvents(run));
}

/** Each message's text and each call's arguments, as the chunks expanded spell them. */
async function spelled(events: readonly BaseEvent[]): Promise<Record<string, string>> {
  const expanded = await lastValueFrom(from(events).pipe(transformChunks(), toArray()), { defaultValue: [] });
  const text: Record<string, string> = {};
  for (const event of expanded as (BaseEvent & { messageId?: string; toolCallId?: string; delta?: string })[]) {
    const key = event.type === EventType.TOOL_CALL_ARGS ? `call ${event.toolCallId}` : event.type === EventType.TEXT_MESSAGE_CONTENT || event.type === EventType.REASONING_MESSAGE_CONTENT ? `message ${event.messageId}` : undefined;
    if (key) text[key] = (text[key] ?? "") + (event.delta ?? "");
  }
  return text;
}

describe("compactEvents", () => {
  it("joins the deltas of one message that follow each other, keeping every other event where it was", () => {
    const events = [ev.runStarted(), ev.textStart("m1"), ev.text("m1", "Hel"), ev.text("m1", "lo"), ev.toolStart("t1", "search"), ev.text("m1", "!"), ev.toolArgs("t1", '{"q":'), ev.toolArgs("t1", '"x"}'), ev.toolEnd("t1"), ev.textEnd("m1"), ev.runFinished()];
    expect(compactEvents(events)).toEqual([ev.runStarted(), ev.textStart("m1"), ev.text("m1", "Hello"), ev.toolStart("t1", "search"), ev.text("m1", "!"), ev.toolArgs("t1", '{"q":"x"}'), ev.toolEnd("t1"), ev.textEnd("m1"), ev.runFinished()]);
  });

  it("joins chunks that continue one another, but not one that names another message or carries a role", () => {
    const chunk = (fields: object) => ({ type: EventType.TEXT_MESSAGE_CHUNK, ...fields }) as BaseEvent;
    const events = [chunk({ messageId: "m1", role: "assistant", delta: "a" }), chunk({ delta: "b" }), chunk({ messageId: "m1", delta: "c" }), chunk({ messageId: "m2", delta: "d" }), chunk({ messageId: "m2", role: "assistant", delta: "e" })];
    expect(compactEvents(events)).toEqual([chunk({ messageId: "m1", role: "assistant", delta: "abc" }), chunk({ messageId: "m2", delta: "d" }), chunk({ messageId: "m2", role: "assistant", delta: "e" })]);
  });

  it("leaves out the state events before the run's last STATE_SNAPSHOT, which replaces what they made", () => {
    const delta = { type: EventType.STATE_DELTA, delta: [{ op: "add", path: "/a", value: 1 }] } as BaseEvent;
    const snapshot = (value: number) => ({ type: EventType.STATE_SNAPSHOT, snapshot: { v: value } }) as BaseEvent;
    const events = [ev.runStarted(), snapshot(1), delta, ev.textStart("m1"), snapshot(2), delta, ev.textEnd("m1"), ev.runFinished()];
    expect(compactEvents(events)).toEqual([ev.runStarted(), ev.textStart("m1"), snapshot(2), delta, ev.textEnd("m1"), ev.runFinished()]);
  });

  it("spells every message and call as the events did, as @ag-ui/client's transformChunks reads them, on generated streams", async () => {
    // @ag-ui/client's own compactEvents may not: it moves events, and a chunk that names no message may then continue another one.
    await fc.assert(
      fc.asyncProperty(streamSpec, async (spec) => {
        const events = streamOf(spec);
        expect(await spelled(compactedRuns(events))).toEqual(await spelled(events));
      }),
      { numRuns: 150 },
    );
  });

  it("comes to what @ag-ui/client's apply makes of the events: the same messages, state and activities after every run, on generated streams", async () => {
    await fc.assert(
      fc.asyncProperty(streamSpec, async (spec) => {
        const events = streamOf(spec);
        expect(await runReference(compactedRuns(events))).toEqual(await runReference(events));
      }),
      { numRuns: 150 },
    );
  });

  it("replays to what the events showed, item for item, on generated streams (where the client's compaction, which moves events, may not)", () => {
    fc.assert(
      fc.property(streamSpec, (spec) => {
        const events = streamOf(spec);
        expect(finals(compactedRuns(events))).toEqual(finals(events));
      }),
      { numRuns: 300 },
    );
  });
});
