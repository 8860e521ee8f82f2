import { performance } from "node:perf_hooks";

export interface LedgerEntry {
  stage: string;
  kind: string;
  usd: number;
  cached?: boolean;
}

export interface LedgerSummary {
  run_id: string;
  total_usd: number;
  calls: number;
  by_stage: Record<string, number>;
  by_kind: Record<string, number>;
  cache_hit_rate: { tool: number; model: number };
  parallelism: { max_concurrent: number; mean_concurrent: number };
}

/** Costs of one run, and when its tool calls ran (for the parallelism figures). */
export class Ledger {
  private readonly entries: LedgerEntry[] = [];
  /** When each entry was added, in `performance.now()` time. */
  private readonly addedAt: number[] = [];
  private readonly spans: { start: number; end?: number }[] = [];

  add(entry: LedgerEntry): void {
    this.entries.push(entry);
    this.addedAt.push(performance.now());
  }

  get totalUsd(): number {
    return round(this.entries.reduce((sum, entry) => sum + entry.usd, 0), 10);
  }

  /**
   * What was spent in the window of `windowMs` that holds `now`, and when
   * that window ends. Windows follow one another from the first entry.
   */
  window(windowMs: number, now = performance.now()): { usd: number; endsAt: number } {
    const first = this.addedAt[0];
    if (first === undefined) return { usd: 0, endsAt: now + windowMs };
    const start = first + Math.floor((now - first) / windowMs) * windowMs;
    const usd = this.entries.reduce((sum, entry, index) => ((this.addedAt[index] ?? 0) >= start ? sum + entry.usd : sum), 0);
    return { usd: round(usd, 10), endsAt: start + windowMs };
  }

  /** Marks a tool call as running; call the returned function when it settles. */
  startCall(): () => void {
    const span: { start: number; end?: number } = { start: performance.now() };
    this.spans.push(span);
    return () => void (span.end ??= performance.now());
  }

  summary(runId: string): LedgerSummary {
    const sums = (key: "stage" | "kind") => {
      const totals: Record<string, number> = {};
      for (const entry of this.entries) totals[entry[key]] = (totals[entry[key]] ?? 0) + entry.usd;
      for (const name of Object.keys(totals)) totals[name] = round(totals[name] ?? 0, 10);
      return totals;
    };
    const hitRate = (stage: string) => {
      const ofStage = this.entries.filter((entry) => entry.stage === stage);
      return ofStage.length === 0 ? 0 : round(ofStage.filter((entry) => entry.cached === true).length / ofStage.length, 4);
    };
    return {
      run_id: runId,
      total_usd: this.totalUsd,
      calls: this.entries.length,
      by_stage: sums("stage"),
      by_kind: sums("kind"),
      cache_hit_rate: { tool: hitRate("tool"), model: hitRate("model") },
      parallelism: this.parallelism(),
    };
  }

  /** The most calls running at one call's start, and the mean number running over the time at least one ran. */
  private parallelism(): LedgerSummary["parallelism"] {
    const now = performance.now();
    const spans = this.spans.map((span) => ({ start: span.start, end: span.end ?? now })).sort((a, b) => a.start - b.start);
    // A span counts itself even when it took no measurable time; back-to-back calls do not overlap.
    const max = Math.max(0, ...spans.map((span) => spans.filter((other) => other === span || (other.start <= span.start && span.start < other.end)).length));
    let busy = 0;
    let coveredUntil = -Infinity;
    for (const span of spans) {
      busy += Math.max(0, span.end - Math.max(span.start, coveredUntil));
      coveredUntil = Math.max(coveredUntil, span.end);
    }
    const area = spans.reduce((sum, span) => sum + (span.end - span.start), 0);
    const mean = busy > 0 ? area / busy : spans.length > 0 ? 1 : 0;
    return { max_concurrent: max, mean_concurrent: round(mean, 3) };
  }
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
