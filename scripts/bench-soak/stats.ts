/** Counters and latency percentiles of the soak traffic, per reporting interval and in total. */

/** Most latencies kept per interval (a uniform sample beyond that). */
const LATENCY_SAMPLE_SIZE = 50_000;

/** What the traffic process reports for one interval. */
export interface IntervalStats {
  requests: number;
  p99Ms: number;
  byStatus: Record<string, number>;
  unexpected: number;
}

/** The p-th percentile (0..100) of `values`. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Collects answers; `take()` answers an interval's figures and starts the next. */
export class Stats {
  private latencies: number[] = [];
  private seen = 0;
  private requests = 0;
  private unexpected = 0;
  private byStatus = new Map<string, number>();
  /** Totals since the start. */
  readonly total = {
    requests: 0,
    unexpected: 0,
    byStatus: new Map<string, number>(),
    samples: [] as string[],
  };

  /** Count an answer (status 0 = aborted on purpose); `timed` latencies enter the percentile. */
  record(status: number, ms: number | undefined, expected: boolean, what: string): void {
    const key = status === 0 ? "aborted" : String(status);
    this.requests += 1;
    this.total.requests += 1;
    this.byStatus.set(key, (this.byStatus.get(key) ?? 0) + 1);
    this.total.byStatus.set(key, (this.total.byStatus.get(key) ?? 0) + 1);
    if (!expected) {
      this.unexpected += 1;
      this.total.unexpected += 1;
      if (this.total.samples.length < 20) this.total.samples.push(`${what} -> ${key}`);
    }
    if (ms === undefined) return;
    this.seen += 1;
    if (this.latencies.length < LATENCY_SAMPLE_SIZE) this.latencies.push(ms);
    else {
      const slot = Math.floor(Math.random() * this.seen);
      if (slot < LATENCY_SAMPLE_SIZE) this.latencies[slot] = ms;
    }
  }

  /** The figures of the interval that ends now. */
  take(): IntervalStats {
    const result: IntervalStats = {
      requests: this.requests,
      p99Ms: percentile(this.latencies, 99),
      byStatus: Object.fromEntries(this.byStatus),
      unexpected: this.unexpected,
    };
    this.latencies = [];
    this.seen = 0;
    this.requests = 0;
    this.unexpected = 0;
    this.byStatus = new Map();
    return result;
  }
}
