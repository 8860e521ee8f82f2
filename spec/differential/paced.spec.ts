/**
 * Issue 35: nothing is lost to a guess about time. The differential
 * generator's streams (several runs, cut or whole), delivered with random
 * pauses of 0 to 5 s between any two events in virtual time, give the same
 * chat, transcript and history as delivered at once; and so does a thread
 * replayed by AG-UI's connect with random pauses.
 */
import type { BaseEvent, Message } from "@ag-ui/core";
import fc from "fast-check";
import { concat, ignoreElements, Observable, of, timer, type SchedulerLike } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import { memoryStore } from "../../src/persistence/memoryStore";
import type { TranscriptEntry } from "../../src/persistence/transcript";
import { connectThreads } from "../../src/threads/connectThreads";
import { DrivenClock } from "../support/drivenClock";
import { streamOf, streamSpec, THREAD_ID, USER_MESSAGE } from "./streams";

/** `events`, one after another, the `i`-th after a pause of `pauses[i]` ms (0 when there is none) on `clock`. */
function paced(events: readonly BaseEvent[], pauses: readonly number[], clock: SchedulerLike): Observable<BaseEvent> {
  return concat(...events.map((event, index) => concat(timer(pauses[index] ?? 0, clock).pipe(ignoreElements()), of(structuredClone(event)))));
}

/** What a person and the next run see: the chat's messages, the transcript a reload restores, the history the agent gets. */
interface Seen {
  chat: string;
  transcript: unknown[];
  history: readonly Message[];
}

/** The transcript without what differs by design between two plays: response ids and times. */
const comparable = (transcript: readonly TranscriptEntry[]) =>
  transcript.map((entry) => (entry.kind === "response" ? { ...entry, id: "", time: "" } : { ...entry, time: "" }));

async function played(start: (adapter: CarbonAgUiAdapter, carbon: CarbonRecorder) => Promise<unknown>, options: (clock: DrivenClock) => ConstructorParameters<typeof CarbonAgUiAdapter>[0]): Promise<Seen> {
  const clock = new DrivenClock();
  const store = memoryStore();
  const adapter = new CarbonAgUiAdapter({ threadId: THREAD_ID, onWarning: () => undefined, onInvalidEvent: () => undefined, onError: () => undefined, onInvalidItem: () => undefined, persistence: { store, channel: false, shownTurns: 100 }, ...options(clock), scheduler: clock });
  const carbon = new CarbonRecorder();
  await clock.settle(start(adapter, carbon).then(() => adapter.whenIdle()));
  await clock.settle(adapter.saveNow());
  const saved = (await store.load(THREAD_ID)) as { transcript: TranscriptEntry[] } | undefined;
  adapter.dispose();
  return { chat: carbon.transcript(), transcript: comparable(saved?.transcript ?? []), history: adapter.messages };
}

const send = (adapter: CarbonAgUiAdapter, carbon: CarbonRecorder) =>
  adapter.sendMessage({ id: USER_MESSAGE.id, input: { text: USER_MESSAGE.content as string }, history: {} } as never, { signal: new AbortController().signal } as never, carbon);

const pauses = fc.array(fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 5_000 }) }), { maxLength: 120 });

describe("time decides nothing that is kept (issue 35)", () => {
  it("a stream delivered with random pauses of up to 5 s gives the chat, transcript and history it gives delivered at once", async () => {
    await fc.assert(
      fc.asyncProperty(streamSpec, pauses, async (spec, waits) => {
        const events = streamOf(spec);
        const atOnce = await played(send, () => ({ run: () => events.map((event) => structuredClone(event)) }));
        const slowly = await played(send, (clock) => ({ run: () => paced(events, waits, clock) }));
        expect(slowly.chat).toEqual(atOnce.chat);
        expect(slowly.history).toEqual(atOnce.history);
        expect(slowly.transcript).toEqual(atOnce.transcript);
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it("a thread replayed by connect with random pauses gives the transcript and history it gives replayed at once", async () => {
    await fc.assert(
      fc.asyncProperty(streamSpec.filter((spec) => spec.cut === undefined), pauses, async (spec, waits) => {
        const events = withRequests(streamOf(spec));
        const open = (source: () => Observable<BaseEvent>) => (adapter: CarbonAgUiAdapter, carbon: CarbonRecorder) => adapter.loadHistory(carbon).then(() => source);
        const atOnce = await played(open(() => of()), () => ({ run: () => [], threads: connectThreads(() => of(...events.map((event) => structuredClone(event)))) }));
        const slowly = await played(open(() => of()), (clock) => ({ run: () => [], threads: connectThreads(() => paced(events, waits, clock)) }));
        expect(slowly.history).toEqual(atOnce.history);
        expect(slowly.transcript).toEqual(atOnce.transcript);
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});

/** The stream's runs as a connect replays them: each RUN_STARTED echoes the person's message it answers (a message of its own per run). */
function withRequests(events: readonly BaseEvent[]): BaseEvent[] {
  let run = 0;
  return events.map((event) => {
    if (event.type !== "RUN_STARTED") return event;
    const message = { id: `user-${++run}`, role: "user", content: `Question ${run}` };
    return { ...event, input: { threadId: THREAD_ID, runId: (event as unknown as { runId: string }).runId, messages: [message], state: {}, tools: [], context: [], forwardedProps: {} } } as BaseEvent;
  });
}
