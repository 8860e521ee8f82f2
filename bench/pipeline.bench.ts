/**
 * `npm run bench`: the AG-UI → Carbon pipeline on a long run, against the
 * cost of merely parsing the same SSE frames (the floor) and against
 * @ag-ui/client's own chunk expansion + sequence checks. Not a test: figures
 * vary by machine; the target is the pipeline within 3× the JSON.parse floor,
 * with memory flat in the number of events.
 */
import { transformChunks, verifyEvents } from "@ag-ui/client";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { from, ignoreElements, lastValueFrom, tap, type Observable } from "rxjs";
import { Conversation } from "../src/conversation";
import { agUiToCarbon } from "../src/operators/agUiToCarbon";
import { validateEvents } from "../src/operators/check/validateEvents";

const MESSAGES = 50;
const DELTAS_PER_MESSAGE = 2_000;
const STATE_DELTA_EVERY = 100;
const RUNS = 5;

/** One run: `messages` answers of `deltasPerMessage` deltas of `deltaText(index)`; as explicit events or as *_CHUNK events. */
function makeRun(messages: number, deltasPerMessage: number, deltaText: (index: number) => string, chunks = false): BaseEvent[] {
  // The state the deltas change starts with a snapshot, as an agent sends it.
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: "t", runId: "r" }, { type: EventType.STATE_SNAPSHOT, snapshot: { progress: 0 } }];
  for (let message = 0; message < messages; message++) {
    const messageId = `msg-${message}`;
    if (!chunks) events.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" });
    for (let delta = 0; delta < deltasPerMessage; delta++) {
      const text = deltaText(delta);
      events.push(chunks ? { type: EventType.TEXT_MESSAGE_CHUNK, messageId, delta: text } : { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text });
      if (delta % STATE_DELTA_EVERY === 0) {
        events.push({ type: EventType.STATE_DELTA, delta: [{ op: "replace", path: "/progress", value: delta }] });
      }
    }
    if (!chunks) events.push({ type: EventType.TEXT_MESSAGE_END, messageId });
  }
  events.push({ type: EventType.RUN_FINISHED, threadId: "t", runId: "r" });
  return events;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeIt(work: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    const start = process.hrtime.bigint();
    await work();
    if (run > 0) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

const drain = (source: Observable<unknown>) => lastValueFrom(source.pipe(ignoreElements()), { defaultValue: undefined });

/** Most live heap (MiB) the pipeline holds while `events` stream through it: collected, then measured, every 5% of the run. */
async function peakLiveHeap(events: BaseEvent[]): Promise<number> {
  const gc = globalThis.gc;
  if (!gc) throw new Error("run with node --expose-gc (npm run bench does)");
  gc();
  const baseline = process.memoryUsage().heapUsed;
  const every = Math.floor(events.length / 20);
  let peak = baseline;
  let seen = 0;
  await drain(
    from(events).pipe(
      tap(() => {
        if (++seen % every !== 0) return;
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }),
      agUiToCarbon(),
    ),
  );
  return (peak - baseline) / 2 ** 20;
}

/** A run that sets a `keys`-key state, then changes one key per STATE_DELTA, `keys` times. */
function makeStateRun(keys: number): BaseEvent[] {
  const snapshot = Object.fromEntries(Array.from({ length: keys }, (_, index) => [`key${index}`, { value: index, label: `item ${index}` }]));
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: "t", runId: "r" }, { type: EventType.STATE_SNAPSHOT, snapshot }];
  for (let index = 0; index < keys; index++) {
    events.push({ type: EventType.STATE_DELTA, delta: [{ op: "replace", path: `/key${index}/value`, value: -index }] });
  }
  events.push({ type: EventType.RUN_FINISHED, threadId: "t", runId: "r" });
  return events;
}

async function main() {
  const token = (index: number) => `token ${index} `;
  const events = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token);
  const chunkEvents = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token, true);
  const encoder = new EventEncoder();
  const payloads = events.map((event) => encoder.encodeSSE(event as Parameters<EventEncoder["encodeSSE"]>[0]).slice("data: ".length, -2));
  console.log(`${events.length.toLocaleString("en")} events (${MESSAGES} messages × ${DELTAS_PER_MESSAGE} text deltas, a state delta every ${STATE_DELTA_EVERY}); median of ${RUNS} runs\n`);

  const floor = await timeIt(() => {
    for (const payload of payloads) JSON.parse(payload);
  });
  const pipeline = await timeIt(() => drain(from(events).pipe(agUiToCarbon())));
  const unvalidated = await timeIt(() => drain(from(events).pipe(agUiToCarbon({ validate: false }))));
  const unescaped = await timeIt(() => drain(from(events).pipe(agUiToCarbon({ html: true }))));
  const validation = await timeIt(() => drain(from(events).pipe(validateEvents())));
  const client = await timeIt(() => drain(from(events).pipe(transformChunks(), verifyEvents())));
  const pipelineOnChunks = await timeIt(() => drain(from(chunkEvents).pipe(agUiToCarbon())));

  const perEvent = (ms: number) => `${((ms * 1e6) / events.length).toFixed(0).padStart(5)} ns/event`;
  const row = (name: string, ms: number) => console.log(`${name.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms ${perEvent(ms)}  ${(ms / floor).toFixed(2)}× floor`);
  row("JSON.parse of the SSE payloads (floor)", floor);
  row("agUiToCarbon()", pipeline);
  row("  of which validateEvents() alone", validation);
  row("agUiToCarbon({ validate: false })", unvalidated);
  row("agUiToCarbon({ html: true }) (no escapeHtml())", unescaped);
  row("@ag-ui/client transformChunks()+verifyEvents()", client);
  row("agUiToCarbon(), same run as TEXT_MESSAGE_CHUNKs", pipelineOnChunks);
  console.log(`\ntarget: agUiToCarbon() within 3× the floor: ${pipeline <= 3 * floor ? "met" : "NOT met"} (${(pipeline / floor).toFixed(2)}×)`);

  console.log("\nshared state: a state of N keys, then N single-operation deltas, with a state$ subscriber:");
  for (const keys of [1_000, 10_000]) {
    const run = makeStateRun(keys);
    const ms = await timeIt(async () => {
      const conversation = new Conversation();
      const subscription = conversation.state$.subscribe();
      await drain(from(run).pipe(agUiToCarbon({ conversation })));
      subscription.unsubscribe();
    });
    console.log(`  N = ${keys.toLocaleString("en").padStart(6)}: ${ms.toFixed(1).padStart(7)} ms, ${((ms * 1e6) / keys).toFixed(0).padStart(5)} ns per delta`);
  }

  // The same answer text (the pipeline must keep it for the final response) split into more and more events:
  // memory should follow the text, not the number of events.
  const answer = "lorem ipsum dolor sit amet ".repeat(40_000);
  console.log(`\nlive heap held while streaming the same ${(answer.length / 2 ** 20).toFixed(1)} MiB answer (kept twice: for the history and for the final response):`);
  for (const deltas of [25_000, 50_000, 100_000]) {
    const size = Math.ceil(answer.length / deltas);
    const run = makeRun(1, deltas, (index) => answer.slice(index * size, (index + 1) * size));
    const growth = await peakLiveHeap(run);
    console.log(`  ${run.length.toLocaleString("en").padStart(8)} events: ${growth.toFixed(1).padStart(6)} MiB`);
  }
}

void main();
