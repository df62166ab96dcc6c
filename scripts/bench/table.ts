/** Median of `values` (the machine is noisy: every figure is the median of several runs). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** A markdown table. */
export function markdownTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly (string | number)[]>,
): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Milliseconds, rounded for a table. */
export function ms(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value)} ms` : "n/a";
}
