/**
 * `npm run bench` (last part): an A/B of the library as built from a base
 * commit against the library as built from the working tree, on the long run
 * of bench/longRun.ts. The base is BENCH_BASE (any git ref; default HEAD, so
 * on a clean clone it compares the committed tree with itself). Each side is
 * built by its own tree's rollup configuration into a temporary directory
 * (bench/libraryBuild.ts); both are loaded into this one process and timed in
 * alternating rounds: each round times `agUiToCarbon()` drained, then
 * `CarbonAgUiAdapter.sendMessage` into a `CarbonRecorder` (the Carbon
 * stand-in, the same for both), base then new on even rounds, new then base
 * on odd ones. A ratio is the median of each round's new/base, with the
 * range over the rounds. BENCH_AB_ROUNDS sets the rounds (default 25).
 */
import type { BaseEvent } from "@ag-ui/core";
import { mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { asapScheduler, from, ignoreElements, lastValueFrom, type Observable } from "rxjs";
import { CarbonRecorder } from "../src/testing/recorder";
import { median, ratio, type Samples } from "./interleaved";
import { buildLibrary, changedSince, resolveCommit, treeFromCommit, treeFromWorkingTree } from "./libraryBuild";
import { delivered, longRun, request } from "./longRun";

const BASE = process.env.BENCH_BASE || "HEAD";
/** Rounds timed after one to warm up. */
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 25;

/** What the bench drives of a build: the working tree's types, whichever tree it was built from. */
type Library = Pick<typeof import("../src/index"), "agUiToCarbon" | "CarbonAgUiAdapter">;

const drain = (source: Observable<unknown>) => lastValueFrom(source.pipe(ignoreElements()), { defaultValue: undefined });

/** A new adapter per turn, Carbon a recorder, the asap scheduler for its pacing (no real frames), as bench/pipeline.bench.ts has it. */
async function sendMessage(library: Library, events: BaseEvent[]): Promise<CarbonRecorder> {
  const carbon = new CarbonRecorder();
  const adapter = new library.CarbonAgUiAdapter({ run: () => events, scheduler: asapScheduler });
  await adapter.sendMessage(request, { signal: new AbortController().signal }, carbon);
  return carbon;
}

const MEASUREMENTS = {
  pipeline: { name: "agUiToCarbon(), drained", work: (library: Library, events: BaseEvent[]) => drain(from(events).pipe(library.agUiToCarbon())) },
  adapter: { name: "CarbonAgUiAdapter.sendMessage → CarbonRecorder", work: sendMessage },
};
type Key = keyof typeof MEASUREMENTS;

async function time(work: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await work();
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1e3 };
}

async function main() {
  const commit = resolveCommit(BASE);
  const changed = changedSince(commit, ["src", "rollup.config.mjs", "tsconfig.json", "tsconfig.build.json", "package.json"]);
  const work = mkdtempSync(join(tmpdir(), "carbon-agui-rx-ab-"));
  try {
    const [baseDir, newDir] = [join(work, "base"), join(work, "new")];
    treeFromCommit(commit, baseDir);
    treeFromWorkingTree(newDir);
    console.log(`\nA/B: the library built from BENCH_BASE=${BASE} (${commit.slice(0, 9)}) against the working tree (${changed.length === 0 ? "no change to its build inputs since the base" : `${changed.length} file(s) of its build inputs differ from the base: ${changed.slice(0, 6).join(", ")}${changed.length > 6 ? ", …" : ""}`})`);
    const started = Date.now();
    const [baseFile, newFile] = await Promise.all([buildLibrary(baseDir), buildLibrary(newDir)]);
    const sides = {
      base: (await import(pathToFileURL(baseFile).href)) as Library,
      new: (await import(pathToFileURL(newFile).href)) as Library,
    };
    console.log(`each built with its own rollup.config.mjs (dist/index.mjs only) into ${work}, in ${Math.round((Date.now() - started) / 1000)} s; both in this process, rxjs and the other dependencies from the root's node_modules`);

    const events = longRun();
    for (const [side, library] of Object.entries(sides)) delivered(`${side}'s CarbonAgUiAdapter`, await sendMessage(library, events));
    console.log(`${events.length.toLocaleString("en")} events; ${ROUNDS} rounds after a warm-up, each round both measurements, base first on even rounds and new first on odd ones`);

    const keys = Object.keys(MEASUREMENTS) as Key[];
    const samples = Object.fromEntries(keys.map((key) => [key, { base: { wall: [], cpu: [], note: undefined } as Samples, new: { wall: [], cpu: [], note: undefined } as Samples }]));
    const [loadBefore] = loadavg();
    for (let round = 0; round <= ROUNDS; round++) {
      const order = round % 2 === 0 ? (["base", "new"] as const) : (["new", "base"] as const);
      for (const key of keys) {
        for (const side of order) {
          const sample = await time(() => MEASUREMENTS[key].work(sides[side], events));
          if (round === 0) continue;
          samples[key]![side].wall.push(sample.wall);
          samples[key]![side].cpu.push(sample.cpu);
        }
      }
    }
    const [loadAfter] = loadavg();

    const range = ({ min, max }: { min: number; max: number }) => `[${min.toFixed(2)}–${max.toFixed(2)}]`;
    console.log(`\n${"".padEnd(48)} ${"base".padStart(9)} ${"new".padStart(9)}   new/base [range]     in CPU time`);
    for (const key of keys) {
      const { base, new: next } = samples[key]!;
      const wall = ratio(next, base);
      console.log(
        `${MEASUREMENTS[key].name.padEnd(48)} ${median(base.wall).toFixed(1).padStart(6)} ms ${median(next.wall).toFixed(1).padStart(6)} ms   ${`${wall.median.toFixed(2)} ${range(wall)}`.padEnd(19)}  ${ratio(next, base, "cpu").median.toFixed(2)}`,
      );
    }
    console.log(`load average ${loadBefore!.toFixed(1)} before, ${loadAfter!.toFixed(1)} after, on ${availableParallelism()} cores`);
  } finally {
    for (const side of ["base", "new"]) {
      try {
        unlinkSync(join(work, side, "node_modules"));
      } catch {
        // Not linked: the build stopped before.
      }
    }
    rmSync(work, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
