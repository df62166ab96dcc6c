/** Seconds with one decimal, e.g. "16.3 s". */
export function seconds(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : "n/a";
}

/** Milliseconds with one decimal, e.g. "54.2 ms". */
export function millis(ms: number): string {
  return Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : "n/a";
}

/** Bytes with a thousands separator, e.g. "2,540 B". */
export function bytes(count: number): string {
  return Number.isFinite(count) ? `${Math.round(count).toLocaleString("en-US")} B` : "n/a";
}

/** An integer with a thousands separator. */
export function count(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a";
}

/** Calls by method, e.g. "200 GET, 100 POST"; empty when none were recorded. */
export function byMethod(calls: Readonly<Record<string, number>> | undefined): string {
  return Object.entries(calls ?? {})
    .filter(([, n]) => n > 0)
    .map(([method, n]) => `${count(n)} ${method}`)
    .join(", ");
}
