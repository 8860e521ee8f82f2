/**
 * Measurements that run in turn, each in a process of its own. A process per
 * measurement keeps the JIT's view of shared code (our operators, the
 * recorder) as a real app would have it, shaped by that measurement alone,
 * not by whichever ran before it. Rounds interleave the processes, one
 * measurement at a time, each round starting one further along the list, so
 * load on the machine falls on all alike; the first round only warms up.
 */
import { fork, type ChildProcess } from "node:child_process";

/** One run of a measurement: wall-clock and CPU milliseconds. */
export interface Sample {
  wall: number;
  cpu: number;
}

export interface Samples {
  wall: number[];
  cpu: number[];
  /** What the measurement's process said once prepared. */
  note: string | undefined;
}

/** A measurement's work, made ready in its own process; `note` is reported to the parent once. */
export interface Prepared {
  work: () => Promise<unknown> | unknown;
  note?: string;
}

type FromChild = { ready: true; note?: string } | ({ ready?: undefined } & Sample);

const MEASUREMENT_ENV = "BENCH_MEASUREMENT";

/** The measurement this process is to serve, when it is one of `measureInterleaved`'s. */
export const servedMeasurement = (): string | undefined => process.env[MEASUREMENT_ENV];

/**
 * In a measurement's process: prepares `key`, then runs it once per request
 * of the parent. No collection is forced between runs: the garbage is the
 * measurement's own, and a full collection forced before each run made the
 * allocation-heavy measurements 1.3 to 3× slower than they run in an app.
 */
export async function serveMeasurement(key: string, prepare: (key: string) => Promise<Prepared> | Prepared): Promise<void> {
  if (!process.send) throw new Error("serveMeasurement runs in a process measureInterleaved forked");
  const { work, note } = await prepare(key);
  process.on("message", async () => {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    await work();
    const wall = Number(process.hrtime.bigint() - start) / 1e6;
    const used = process.cpuUsage(cpu);
    process.send!({ wall, cpu: (used.user + used.system) / 1e3 } satisfies FromChild);
  });
  process.on("disconnect", () => process.exit(0));
  process.send({ ready: true, ...(note !== undefined && { note }) } satisfies FromChild);
}

/** One forked measurement: it answers one message at a time. */
function measurementProcess(file: string, key: string) {
  const child: ChildProcess = fork(file, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, [MEASUREMENT_ENV]: key },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let waiting: { resolve(message: FromChild): void; reject(error: Error): void } | undefined;
  const next = () => new Promise<FromChild>((resolve, reject) => (waiting = { resolve, reject }));
  child.on("message", (message: FromChild) => {
    const taker = waiting;
    waiting = undefined;
    taker?.resolve(message);
  });
  child.on("exit", (code) => waiting?.reject(new Error(`the process of measurement ${key} exited (code ${code})`)));
  const ready = next();
  return {
    ready,
    sample: async (): Promise<Sample> => {
      const answer = next();
      child.send("run");
      return (await answer) as Sample;
    },
    stop: () => (child.connected ? child.disconnect() : undefined),
  };
}

/** Forks `file` once per key (it must call `serveMeasurement` when `servedMeasurement()` names one) and samples each `rounds` times after a warm-up round. */
export async function measureInterleaved(file: string, keys: readonly string[], rounds: number): Promise<Map<string, Samples>> {
  const processes = keys.map((key) => measurementProcess(file, key));
  try {
    const notes = await Promise.all(processes.map(async ({ ready }) => ((await ready) as { note?: string }).note));
    const samples = new Map(keys.map((key, index): [string, Samples] => [key, { wall: [], cpu: [], note: notes[index] }]));
    for (let round = 0; round <= rounds; round++) {
      for (let step = 0; step < keys.length; step++) {
        const index = (round + step) % keys.length;
        const sample = await processes[index]!.sample();
        if (round === 0) continue;
        const into = samples.get(keys[index]!)!;
        into.wall.push(sample.wall);
        into.cpu.push(sample.cpu);
      }
    }
    return samples;
  } finally {
    for (const each of processes) each.stop();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `of` over `to`, round by round: the median and the range. */
export function ratio(of: Samples, to: Samples, clock: "wall" | "cpu" = "wall") {
  const ratios = of[clock].map((ms, round) => ms / to[clock][round]!);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}
