/**
 * `npm run bench`: the AG-UI → Carbon pipeline on a long run (parse not
 * counted), against the cost of merely parsing the same SSE frames (the
 * floor), against @ag-ui/client's own chunk expansion + sequence checks, and
 * `CarbonAgUiAdapter` end to end against the seed's adapter
 * (`@hsb3/carbon-agui-adapter` 0.2.0, installed in bench/ only) on the same
 * events, each handed them as its own SSE runner would. Each measurement
 * runs in a process of its own, in interleaved rounds (bench/interleaved.ts);
 * the ratios are medians of each round's ratios. Not a test: figures vary by
 * machine; the targets are printed met or NOT met.
 */
import { transformChunks, verifyEvents } from "@ag-ui/client";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { availableParallelism, loadavg } from "node:os";
import { asapScheduler, from, ignoreElements, lastValueFrom, tap, type Observable, type OperatorFunction } from "rxjs";
import { CarbonAgUiAdapter } from "../src/adapter";
import type { CarbonStreamChunk } from "../src/carbon";
import { Conversation } from "../src/conversation";
import { agUiToCarbon } from "../src/operators/agUiToCarbon";
import { validateEvents } from "../src/operators/check/validateEvents";
import { CarbonRecorder } from "../src/testing/recorder";
import { measureInterleaved, median, ratio, serveMeasurement, servedMeasurement, type Prepared } from "./interleaved";
import { loadSeedAdapter, SEED_ADAPTER, type SeedAdapterModule } from "./seedAdapter";

const MESSAGES = 50;
const DELTAS_PER_MESSAGE = 2_000;
const STATE_DELTA_EVERY = 100;
/** Rounds timed (after one to warm up); BENCH_ROUNDS sets more where the machine is noisy. */
const RUNS = Number(process.env.BENCH_ROUNDS) || 9;
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

const token = (index: number) => `token ${index} `;

/** Each measurement, by key: its row's name, and how its process makes its work ready. */
const MEASUREMENTS: Record<string, { name: string; prepare(): Promise<Prepared> | Prepared }> = {
  floor: {
    name: "JSON.parse of the SSE payloads (floor)",
    prepare() {
      const encoder = new EventEncoder();
      const payloads = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token).map((event) => encoder.encodeSSE(event as Parameters<EventEncoder["encodeSSE"]>[0]).slice("data: ".length, -2));
      return {
        work() {
          for (const payload of payloads) JSON.parse(payload);
        },
      };
    },
  },
  pipeline: pipe("agUiToCarbon()", () => agUiToCarbon()),
  validation: pipe("  of which validateEvents() alone", () => validateEvents()),
  unvalidated: pipe("agUiToCarbon({ validate: false })", () => agUiToCarbon({ validate: false })),
  unescaped: pipe("agUiToCarbon({ html: true }) (no escapeHtml())", () => agUiToCarbon({ html: true })),
  client: pipe("@ag-ui/client transformChunks()+verifyEvents()", () => (events$) => events$.pipe(transformChunks(), verifyEvents())),
  chunks: pipe("agUiToCarbon(), same run as TEXT_MESSAGE_CHUNKs", () => agUiToCarbon(), true),
  adapter: {
    name: "CarbonAgUiAdapter, end to end",
    async prepare() {
      const events = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token);
      return { work: () => ourAdapter(events), note: delivered("CarbonAgUiAdapter", await ourAdapter(events)) };
    },
  },
  seed: {
    name: `${SEED_ADAPTER} 0.2.0, end to end`,
    async prepare() {
      const seed = await loadSeedAdapter();
      const events = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token);
      return { work: () => seedAdapter(seed, events), note: delivered(SEED_ADAPTER, await seedAdapter(seed, events)) };
    },
  },
};

/** A measurement of the run's events through `operator`, drained. */
function pipe(name: string, operator: () => OperatorFunction<BaseEvent, unknown>, chunks = false) {
  return {
    name,
    prepare() {
      const events = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token, chunks);
      return { work: () => drain(from(events).pipe(operator())) };
    },
  };
}

/** Checks that an adapter delivered the whole answer (or its time means nothing), and says in how many chunks. */
function delivered(name: string, carbon: CarbonRecorder): string {
  const wholeAnswer = Array.from({ length: MESSAGES }, () => Array.from({ length: DELTAS_PER_MESSAGE }, (_, index) => token(index)).join("")).join("");
  if (answerText(carbon) !== wholeAnswer || carbon.waitingForFinal.length > 0) throw new Error(`${name} did not deliver the whole answer to Carbon: the bench is wrong`);
  return `${name} ${carbon.chunks.length}`;
}

async function main() {
  const events = makeRun(MESSAGES, DELTAS_PER_MESSAGE, token);
  const keys = Object.keys(MEASUREMENTS);
  console.log(`${events.length.toLocaleString("en")} events (${MESSAGES} messages × ${DELTAS_PER_MESSAGE} text deltas, a state delta every ${STATE_DELTA_EVERY}), parsed beforehand`);
  console.log(`each measurement in a process of its own; ${RUNS} rounds after a warm-up, each measurement once per round in a rotating order;`);
  console.log("wall-clock medians; ratios the median of each round's (range in brackets)");
  console.log("adapters: each gets the events as its own SSE runner hands them over, ours as an Observable that emits what one read gives at once (here an array:");
  console.log("all of them), the seed's by for await, one per step; Carbon a CarbonRecorder for both; ours paced on rxjs asapScheduler (no real frames)");
  const [loadBefore] = loadavg();
  const samples = await measureInterleaved(__filename, keys, RUNS);
  const [loadAfter] = loadavg();
  const floor = samples.get("floor")!;
  const adapter = samples.get("adapter")!;
  const seed = samples.get("seed")!;
  console.log(`chunks handed to Carbon: ${adapter.note}, ${seed.note}\n`);

  const perEvent = (ms: number) => `${((ms * 1e6) / events.length).toFixed(0).padStart(5)} ns/event`;
  const range = ({ min, max }: { min: number; max: number }) => `[${min.toFixed(2)}–${max.toFixed(2)}]`;
  console.log(`${"".padEnd(48)} ${"wall".padStart(8)}    ${"".padStart(14)}  ${"× floor".padEnd(18)}  × floor in CPU time`);
  for (const key of keys) {
    const each = samples.get(key)!;
    const ms = median(each.wall);
    const wall = ratio(each, floor);
    console.log(`${MEASUREMENTS[key]!.name.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms ${perEvent(ms)}  ${`${wall.median.toFixed(2)}× ${range(wall)}`.padEnd(18)}  ${ratio(each, floor, "cpu").median.toFixed(2)}×`);
  }
  const ofSeed = ratio(adapter, seed);
  console.log(`\nCarbonAgUiAdapter in ${ofSeed.median.toFixed(2)} ${range(ofSeed)} of the seed adapter's time (CPU time: ${ratio(adapter, seed, "cpu").median.toFixed(2)})`);
  console.log(`load average ${loadBefore!.toFixed(1)} before, ${loadAfter!.toFixed(1)} after, on ${availableParallelism()} cores`);

  const target = (what: string, value: number, limit: number, unit: string) => console.log(`  ${what} ≤ ${limit}${unit}: ${value <= limit ? "met" : "NOT met"} (${value.toFixed(2)}${unit})`);
  console.log("\ntargets, on the wall-clock medians:");
  target("agUiToCarbon()", ratio(samples.get("pipeline")!, floor).median, TARGETS.pipeline, "× floor");
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

const served = servedMeasurement();
if (served === undefined) void main();
else void serveMeasurement(served, () => MEASUREMENTS[served]!.prepare());
