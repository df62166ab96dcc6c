/** One cell of the fault matrix: a fault, an operation, and what happened in its two runs. */
export interface PairResult {
  readonly fault: string;
  readonly operation: string;
  /** "ok" or "failed: <status or error code>". */
  readonly first: string;
  readonly second: string;
  /** Empty when every invariant held. */
  readonly violations: readonly string[];
  readonly firstMs: number;
  readonly secondMs: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The matrix as a Markdown table, one line per (fault, operation) pair. */
export function renderMatrix(results: readonly PairResult[]): string {
  const lines = [
    "| fault | operation | first run (under fault) | second run | invariants | duration (1st / 2nd) |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    const invariants = r.violations.length === 0 ? "held" : `VIOLATED: ${r.violations.join("; ")}`;
    lines.push(
      `| ${r.fault} | ${r.operation} | ${r.first} | ${r.second} | ${invariants} | ${seconds(r.firstMs)} / ${seconds(r.secondMs)} |`,
    );
  }
  const held = results.filter((r) => r.violations.length === 0).length;
  lines.push("", `${held}/${results.length} pairs held every invariant.`);
  return lines.join("\n");
}
