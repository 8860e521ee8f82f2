/**
 * `npm run bench`: the AG-UI → Carbon pipeline on a long run (parse not
 * counted), against the cost of merely parsing the same SSE frames (the
 * floor), against @ag-ui/client's own chunk expansion + sequence checks, and
 * `CarbonAgUiAdapter` end to end against the seed's adapter
 * (`@hsb3/carbon-agui-adapter` 0.2.0, installed in bench/ only) on the same
 * events, each handed them as its own SSE runner would. Every measurement
 * takes its turn in each round, in a rotating order, so load on the machine
 * falls on all alike; the ratios are medians of each round's ratios. Not a
 * test: figures vary by machine; the targets are printed met or NOT met.
 */
import { transformChunks, verifyEvents } from "@ag-ui/client";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { availableParallelism, loadavg } from "node:os";
import { asapScheduler, from, ignoreElements, lastValueFrom, tap, type Observable } from "rxjs";
import { CarbonAgUiAdapter } from "../src/adapter";
import type { CarbonStreamChunk } from "../src/carbon";
import { Conversation } from "../src/conversation";
import { agUiToCarbon } from "../src/operators/agUiToCarbon";
import { validateEvents } from "../src/operators/validateEvents";
import { CarbonRecorder } from "../src/testing/recorder";
import { loadSeedAdapter, SEED_ADAPTER, type SeedAdapterModule } from "./seedAdapter";

const MESSAGES = 50;
const DELTAS_PER_MESSAGE = 2_000;
const STATE_DELTA_EVERY = 100;
const RUNS = 9;
/** What agUiToCarbon() and the adapter may cost: times the floor, and the adapter as a share of the seed adapter's time. */
const TARGETS = { pipeline: 2.5, adapter: 3, ofSeed: 0.25 };

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

interface Measurement {
  name: string;
  work: () => Promise<unknown> | unknown;
  /** Wall-clock and CPU milliseconds, one per round. */
  wall: number[];
  cpu: number[];
}

const measurement = (name: string, work: Measurement["work"]): Measurement => ({ name, work, wall: [], cpu: [] });

/**
 * `RUNS` rounds (after one to warm up) in which every measurement runs once,
 * each round starting one further along the list, after a full collection.
 */
async function interleaved(measurements: Measurement[]): Promise<void> {
  const gc = globalThis.gc;
  if (!gc) throw new Error("run with node --expose-gc (npm run bench does)");
  for (let round = 0; round <= RUNS; round++) {
    for (let step = 0; step < measurements.length; step++) {
      const next = measurements[(round + step) % measurements.length]!;
      gc();
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await next.work();
      const wall = Number(process.hrtime.bigint() - start) / 1e6;
      const used = process.cpuUsage(cpu);
      if (round === 0) continue;
      next.wall.push(wall);
      next.cpu.push((used.user + used.system) / 1e3);
    }
  }
}

/** `of` over `to`, round by round: the median and the range. */
function ratio(of: Measurement, to: Measurement, clock: "wall" | "cpu" = "wall") {
  const ratios = of[clock].map((ms, round) => ms / to[clock][round]!);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
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

const request = { id: "u-bench", input: { text: "Tell me a long story" } };

/** `CarbonAgUiAdapter` end to end: a new adapter per turn, Carbon a recorder, the asap scheduler for its pacing (no real frames). */
async function ourAdapter(events: BaseEvent[]): Promise<CarbonRecorder> {
  const carbon = new CarbonRecorder();
  const adapter = new CarbonAgUiAdapter({ run: () => events, scheduler: asapScheduler });
  await adapter.sendMessage(request, { signal: new AbortController().signal }, carbon);
  return carbon;
}

/** The seed's adapter on the same events, into the same recorder, as its README has a host use it. */
async function seedAdapter(seed: SeedAdapterModule, events: BaseEvent[]): Promise<CarbonRecorder> {
  const carbon = new CarbonRecorder();
  const adapter = new seed.CarbonAgUiAdapter({ run: () => events });
  await adapter.sendMessage(request, { signal: new AbortController().signal }, carbon);
  return carbon;
}

/** The text of the final response's text items: what the person reads once the answer has ended. */
function answerText(carbon: CarbonRecorder): string {
  const finals = carbon.chunks.filter((chunk): chunk is Extract<CarbonStreamChunk, { final_response: unknown }> => "final_response" in chunk);
  return finals.flatMap((chunk) => chunk.final_response.output.generic.flatMap((item) => (item.response_type === "text" ? [String(item.text)] : []))).join("");
}

async function main() {
  const token = (index: number) => `token ${index} `;
  const events = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token);
  const chunkEvents = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token, true);
  const encoder = new EventEncoder();
  const payloads = events.map((event) => encoder.encodeSSE(event as Parameters<EventEncoder["encodeSSE"]>[0]).slice("data: ".length, -2));
  const seed = await loadSeedAdapter();

  // Both adapters must deliver the whole answer, or their times mean nothing.
  const wholeAnswer = Array.from({ length: MESSAGES }, () => Array.from({ length: DELTAS_PER_MESSAGE }, (_, index) => token(index)).join("")).join("");
  const chunksHandedOver: Record<string, number> = {};
  for (const [name, carbon] of [
    ["CarbonAgUiAdapter", await ourAdapter(events)],
    [SEED_ADAPTER, await seedAdapter(seed, events)],
  ] as const) {
    if (answerText(carbon) !== wholeAnswer || carbon.waitingForFinal.length > 0) throw new Error(`${name} did not deliver the whole answer to Carbon: the bench is wrong`);
    chunksHandedOver[name] = carbon.chunks.length;
  }

  const floor = measurement("JSON.parse of the SSE payloads (floor)", () => {
    for (const payload of payloads) JSON.parse(payload);
  });
  const pipeline = measurement("agUiToCarbon()", () => drain(from(events).pipe(agUiToCarbon())));
  const adapter = measurement("CarbonAgUiAdapter, end to end", () => ourAdapter(events));
  const seedRun = measurement(`${SEED_ADAPTER} 0.2.0, end to end`, () => seedAdapter(seed, events));
  const measurements = [
    floor,
    pipeline,
    measurement("  of which validateEvents() alone", () => drain(from(events).pipe(validateEvents()))),
    measurement("agUiToCarbon({ validate: false })", () => drain(from(events).pipe(agUiToCarbon({ validate: false })))),
    measurement("agUiToCarbon({ html: true }) (no escapeHtml())", () => drain(from(events).pipe(agUiToCarbon({ html: true })))),
    measurement("@ag-ui/client transformChunks()+verifyEvents()", () => drain(from(events).pipe(transformChunks(), verifyEvents()))),
    measurement("agUiToCarbon(), same run as TEXT_MESSAGE_CHUNKs", () => drain(from(chunkEvents).pipe(agUiToCarbon()))),
    adapter,
    seedRun,
  ];

  const [loadBefore] = loadavg();
  console.log(`${events.length.toLocaleString("en")} events (${MESSAGES} messages × ${DELTAS_PER_MESSAGE} text deltas, a state delta every ${STATE_DELTA_EVERY}), parsed beforehand`);
  console.log(`${RUNS} rounds after a warm-up, each measurement once per round in a rotating order; wall-clock medians, ratios the median of each round's (range in brackets)`);
  console.log("adapters: each gets the events as its own SSE runner hands them over, ours as an Observable that emits what one read gives at once (here an array:");
  console.log("all of them), the seed's by for await, one per step; Carbon a CarbonRecorder for both; ours paced on rxjs asapScheduler (no real frames)");
  console.log(`chunks handed to Carbon: CarbonAgUiAdapter ${chunksHandedOver["CarbonAgUiAdapter"]}, ${SEED_ADAPTER} ${chunksHandedOver[SEED_ADAPTER]}\n`);
  await interleaved(measurements);
  const [loadAfter] = loadavg();

  const perEvent = (ms: number) => `${((ms * 1e6) / events.length).toFixed(0).padStart(5)} ns/event`;
  const range = ({ min, max }: { min: number; max: number }) => `[${min.toFixed(2)}–${max.toFixed(2)}]`;
  console.log(`${"".padEnd(48)} ${"wall".padStart(8)}    ${"".padStart(14)}  ${"× floor".padEnd(18)}  × floor in CPU time`);
  for (const each of measurements) {
    const ms = median(each.wall);
    const wall = ratio(each, floor);
    console.log(`${each.name.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms ${perEvent(ms)}  ${`${wall.median.toFixed(2)}× ${range(wall)}`.padEnd(18)}  ${ratio(each, floor, "cpu").median.toFixed(2)}×`);
  }
  const ofSeed = ratio(adapter, seedRun);
  console.log(`\nCarbonAgUiAdapter in ${ofSeed.median.toFixed(2)} ${range(ofSeed)} of the seed adapter's time (CPU time: ${ratio(adapter, seedRun, "cpu").median.toFixed(2)})`);
  console.log(`load average ${loadBefore!.toFixed(1)} before, ${loadAfter!.toFixed(1)} after, on ${availableParallelism()} cores`);

  const target = (what: string, value: number, limit: number, unit: string) => console.log(`  ${what} ≤ ${limit}${unit}: ${value <= limit ? "met" : "NOT met"} (${value.toFixed(2)}${unit})`);
  console.log("\ntargets, on the wall-clock medians:");
  target("agUiToCarbon()", ratio(pipeline, floor).median, TARGETS.pipeline, "× floor");
  target("CarbonAgUiAdapter", ratio(adapter, floor).median, TARGETS.adapter, "× floor");
  target("CarbonAgUiAdapter", ofSeed.median, TARGETS.ofSeed, " of the seed adapter's time");

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
