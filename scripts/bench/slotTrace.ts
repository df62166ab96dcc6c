/**
 * The summary of a slot-time trace (provider/operations/trace.ts, SHIPPING_TRACE_FILE): per engine operation,
 * how many calls, the median and p95 time from the call to the answer, and the share of that time each phase
 * took (its ms over every call of the operation, over their total ms). `node dist/scripts/bench/slotTrace.js
 * <file>...` prints it for trace files; `npm run bench` prints it for our runs with BENCH_TRACE=1.
 */
import { readFileSync } from "node:fs";
import type { Phase, TracedOperation, TraceLine } from "../../provider/operations/trace";
import { markdownTable, median } from "./table";

/** The operations in the order the engine calls them, and the phases in the order a create meets them. */
const OPERATIONS: readonly TracedOperation[] = ["check", "diff", "create", "read", "update", "delete"];
const PHASES: readonly Phase[] = [
  "own",
  "listing",
  "goneAnswer",
  "batchWindow",
  "lane",
  "recheck",
  "post",
  "delete",
  "readBack",
  "relist",
];

/** One operation's calls, summarised. */
interface TraceSummaryRow {
  readonly op: TracedOperation;
  readonly count: number;
  readonly failed: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  /** Per phase, its share of the operation's total time (0..1); only phases that took time. */
  readonly shares: Partial<Record<Phase, number>>;
  /** Median items of the batches the calls joined (creates or deletes), when they joined one. */
  readonly medianBatch?: number;
}

/** The lines of a trace file (blank lines skipped). */
export function parseTrace(text: string): TraceLine[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TraceLine);
}

/** The nearest-rank percentile `p` (0..100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Per operation met in `lines`, in the engine's order: count, median, p95 and each phase's share. */
export function summariseTrace(lines: readonly TraceLine[]): TraceSummaryRow[] {
  return OPERATIONS.flatMap((op): TraceSummaryRow[] => {
    const calls = lines.filter((l) => l.op === op);
    if (calls.length === 0) return [];
    const totals = calls.map((l) => l.ms);
    const sum = totals.reduce((a, b) => a + b, 0);
    const shares: Partial<Record<Phase, number>> = {};
    for (const phase of PHASES) {
      const spent = calls.reduce((a, l) => a + (l.phases[phase] ?? 0), 0);
      if (spent > 0) shares[phase] = sum > 0 ? spent / sum : 0;
    }
    const batches = calls.flatMap((l) => {
      const items = l.batch?.[op];
      return typeof items === "number" ? [items] : [];
    });
    return [
      {
        op,
        count: calls.length,
        failed: calls.filter((l) => !l.ok).length,
        medianMs: median(totals),
        p95Ms: percentile(totals, 95),
        shares,
        ...(batches.length > 0 ? { medianBatch: median(batches) } : {}),
      },
    ];
  });
}

const percent = (share: number | undefined) =>
  share === undefined ? "" : share < 0.005 ? "<1%" : `${Math.round(share * 100)}%`;

/** The summary as a markdown table: one row per operation, a column per phase met. */
export function traceTable(rows: readonly TraceSummaryRow[]): string {
  const phases = PHASES.filter((p) => rows.some((r) => r.shares[p] !== undefined));
  const header = ["operation", "calls", "median", "p95", "batch (median)", ...phases];
  return markdownTable(
    header,
    rows.map((r) => [
      r.failed > 0 ? `${r.op} (${r.failed} failed)` : r.op,
      r.count,
      `${Math.round(r.medianMs)} ms`,
      `${Math.round(r.p95Ms)} ms`,
      r.medianBatch === undefined ? "" : String(r.medianBatch),
      ...phases.map((p) => percent(r.shares[p])),
    ]),
  );
}

/** The table of the trace files `files`, read together. */
export function traceFilesTable(files: readonly string[]): string {
  return traceTable(summariseTrace(files.flatMap((f) => parseTrace(readFileSync(f, "utf8")))));
}

if (require.main === module) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error("usage: node dist/scripts/bench/slotTrace.js <trace file>...");
    process.exit(2);
  }
  console.log(traceFilesTable(files));
}
