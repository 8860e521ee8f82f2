/**
 * `npm run bench`: the AG-UI → Carbon pipeline on a long run (parse not
 * counted), against the cost of merely parsing the same SSE frames (the
 * floor), against @ag-ui/client's own chunk expansion + sequence checks, and
 * `CarbonAgUiAdapter` end to end against the seed's adapter
 * (`@hsb3/carbon-agui-adapter` 0.2.0, installed in bench/ only) on the same
 * events, each handed them as its own SSE runner would. Each measurement
 * runs in a process of its own, in interleaved rounds (bench/interleaved.ts);
 * the ratios are medians of each round's ratios. Not a test: figures vary by
 * machine; the targets (times the floor) are printed met or NOT met, the
 * adapter's share of the seed adapter's time as information. The A/B of the
 * library against a base commit is bench/ab.bench.ts.
 */
import { transformChunks, verifyEvents } from "@ag-ui/client";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { availableParallelism, loadavg } from "node:os";
import { asapScheduler, from, ignoreElements, lastValueFrom, tap, type Observable, type OperatorFunction } from "rxjs";
import { CarbonAgUiAdapter } from "../src/adapter";
import { Conversation } from "../src/conversation";
import { agUiToCarbon } from "../src/operators/agUiToCarbon";
import { validateEvents } from "../src/operators/check/validateEvents";
import { CarbonRecorder } from "../src/testing/recorder";
import { delivered, DELTAS_PER_MESSAGE, longRun, makeRun, MESSAGES, request, STATE_DELTA_EVERY } from "./longRun";
import { measureInterleaved, median, ratio, serveMeasurement, servedMeasurement, type Prepared } from "./interleaved";
import { loadSeedAdapter, SEED_ADAPTER, type SeedAdapterModule } from "./seedAdapter";

/** Rounds timed (after one to warm up); BENCH_ROUNDS sets more where the machine is noisy. */
const RUNS = Number(process.env.BENCH_ROUNDS) || 9;
/** What agUiToCarbon() and the adapter may cost, times the floor. */
const TARGETS = { pipeline: 2.5, adapter: 3 };

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

/** Each measurement, by key: its row's name, and how its process makes its work ready. */
const MEASUREMENTS: Record<string, { name: string; prepare(): Promise<Prepared> | Prepared }> = {
  floor: {
    name: "JSON.parse of the SSE payloads (floor)",
    prepare() {
      const encoder = new EventEncoder();
      const payloads = longRun().map((event) => encoder.encodeSSE(event as Parameters<EventEncoder["encodeSSE"]>[0]).slice("data: ".length, -2));
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
      const events = longRun();
      return { work: () => ourAdapter(events), note: delivered("CarbonAgUiAdapter", await ourAdapter(events)) };
    },
  },
  seed: {
    name: `${SEED_ADAPTER} 0.2.0, end to end`,
    async prepare() {
      const seed = await loadSeedAdapter();
      const events = longRun();
      return { work: () => seedAdapter(seed, events), note: delivered(SEED_ADAPTER, await seedAdapter(seed, events)) };
    },
  },
};

/** A measurement of the run's events through `operator`, drained. */
function pipe(name: string, operator: () => OperatorFunction<BaseEvent, unknown>, chunks = false) {
  return {
    name,
    prepare() {
      const events = longRun(chunks);
      return { work: () => drain(from(events).pipe(operator())) };
    },
  };
}

async function main() {
  const events = longRun();
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
  console.log(`\nCarbonAgUiAdapter in ${ofSeed.median.toFixed(2)} ${range(ofSeed)} of the seed adapter's time (CPU time: ${ratio(adapter, seed, "cpu").median.toFixed(2)}; information, not a target)`);
  console.log(`load average ${loadBefore!.toFixed(1)} before, ${loadAfter!.toFixed(1)} after, on ${availableParallelism()} cores`);

  const target = (what: string, value: number, limit: number, unit: string) => console.log(`  ${what} ≤ ${limit}${unit}: ${value <= limit ? "met" : "NOT met"} (${value.toFixed(2)}${unit})`);
  console.log("\ntargets, on the wall-clock medians:");
  target("agUiToCarbon()", ratio(samples.get("pipeline")!, floor).median, TARGETS.pipeline, "× floor");
  target("CarbonAgUiAdapter", ratio(adapter, floor).median, TARGETS.adapter, "× floor");

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
