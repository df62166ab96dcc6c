/** One line of a chart: points (x > 0 on the log axis, y >= 0) joined in x order. */
export interface ChartSeries {
  readonly name: string;
  /** Stroke colour, e.g. "#1f77b4". */
  readonly color: string;
  /** SVG stroke-dasharray, e.g. "6 3"; absent: solid. */
  readonly dash?: string;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
}

/** A line chart with a logarithmic x axis and a linear y axis from 0. */
export interface ChartSpec {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly ChartSeries[];
}

/** Canvas layout in px. */
export const CHART_LAYOUT = {
  width: 800,
  height: 440,
  left: 70,
  right: 270,
  top: 46,
  bottom: 60,
} as const;

/** Text made safe inside SVG elements and attributes. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** The decade range [10^a, 10^b] (a < b) that holds every x. */
export function logDomain(xs: readonly number[]): [number, number] {
  const positive = xs.filter((x) => x > 0 && Number.isFinite(x));
  if (positive.length === 0) return [1, 10];
  const lo = Math.floor(Math.log10(Math.min(...positive)) + 1e-9);
  let hi = Math.ceil(Math.log10(Math.max(...positive)) - 1e-9);
  if (hi <= lo) hi = lo + 1;
  return [10 ** lo, 10 ** hi];
}

/** Ticks 1, 2, 5 x 10^k inside the domain. */
export function logTicks([lo, hi]: [number, number]): number[] {
  const ticks: number[] = [];
  for (let exp = Math.round(Math.log10(lo)); 10 ** exp <= hi; exp++) {
    for (const m of [1, 2, 5]) {
      const tick = m * 10 ** exp;
      if (tick >= lo && tick <= hi) ticks.push(tick);
    }
  }
  return ticks;
}

/** Below this largest value the y axis is 0..1 (its logarithm would underflow). */
const MIN_AXIS_TOP = 1e-12;

/** A round upper bound >= max and its tick step (about five ticks): steps of 1, 2 or 5 x 10^k. */
export function niceAxis(max: number): { top: number; step: number } {
  if (!(max > MIN_AXIS_TOP) || !Number.isFinite(max)) return { top: 1, step: 0.2 };
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw * (1 - 1e-9)) ?? 10) * magnitude;
  return { top: Math.ceil(max / step - 1e-9) * step, step };
}

function label(value: number): string {
  return value >= 1000 ? value.toLocaleString("en-US") : String(Number(value.toPrecision(6)));
}

/** The chart as a standalone SVG document (no script, no external resource). */
export function lineChartSvg(spec: ChartSpec): string {
  const { width, height, left, right, top, bottom } = CHART_LAYOUT;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const all = spec.series.flatMap((s) => s.points).filter((p) => p.x > 0 && Number.isFinite(p.y));
  const [xLo, xHi] = logDomain(all.map((p) => p.x));
  const { top: yTop, step } = niceAxis(Math.max(0, ...all.map((p) => p.y)));
  const px = (x: number) =>
    left + ((Math.log10(x) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo))) * plotW;
  const py = (y: number) => top + plotH - (Math.max(0, y) / yTop) * plotH;
  const f = (n: number) => n.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`,
  ];
  for (let y = 0; y <= yTop + step / 2; y += step) {
    const yy = f(py(y));
    out.push(`<line x1="${left}" y1="${yy}" x2="${left + plotW}" y2="${yy}" stroke="#dddddd"/>`);
    out.push(
      `<text x="${left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle">${label(y)}</text>`,
    );
  }
  for (const tick of logTicks([xLo, xHi])) {
    const xx = f(px(tick));
    out.push(`<line x1="${xx}" y1="${top}" x2="${xx}" y2="${top + plotH}" stroke="#dddddd"/>`);
    out.push(`<text x="${xx}" y="${top + plotH + 18}" text-anchor="middle">${label(tick)}</text>`);
  }
  out.push(`<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333333"/>`);
  out.push(
    `<text x="${left + plotW / 2}" y="${height - 16}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`,
  );
  out.push(
    `<text x="18" y="${top + plotH / 2}" text-anchor="middle" transform="rotate(-90 18 ${top + plotH / 2})">${escapeXml(spec.yLabel)}</text>`,
  );
  spec.series.forEach((series, i) => {
    const points = series.points.filter((p) => p.x > 0 && Number.isFinite(p.y)).sort((a, b) => a.x - b.x);
    const dash = series.dash === undefined ? "" : ` stroke-dasharray="${series.dash}"`;
    const name = escapeXml(series.name);
    if (points.length > 1) {
      const path = points.map((p) => `${f(px(p.x))},${f(py(p.y))}`).join(" ");
      out.push(`<polyline fill="none" stroke="${series.color}" stroke-width="2"${dash} points="${path}"/>`);
    }
    for (const p of points) {
      out.push(
        `<circle cx="${f(px(p.x))}" cy="${f(py(p.y))}" r="3.5" fill="${series.color}"><title>${name}: ${label(p.x)} -&gt; ${label(Number(p.y.toFixed(2)))}</title></circle>`,
      );
    }
    const ly = top + 10 + i * 22;
    const lx = left + plotW + 16;
    out.push(
      `<line x1="${lx}" y1="${ly}" x2="${lx + 28}" y2="${ly}" stroke="${series.color}" stroke-width="2"${dash}/>`,
    );
    out.push(`<circle cx="${lx + 14}" cy="${ly}" r="3.5" fill="${series.color}"/>`);
    out.push(`<text x="${lx + 36}" y="${ly}" dominant-baseline="middle">${name}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
