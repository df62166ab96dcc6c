/** The hand-written SVG chart of time per resource that `npm run bench` writes, its series and the scaling table. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { timePerResourceChart } from "../../scripts/bench/chart";
import { scalingTable } from "../../scripts/bench/report";
import type { DeploymentSample } from "../../scripts/bench/samples";
import {
  CHART_LAYOUT,
  escapeXml,
  lineChartSvg,
  logDomain,
  logTicks,
  niceAxis,
} from "../../scripts/bench/svgChart";

const SEED = 1517;

function numbersOf(svg: string, element: string, attribute: string): number[] {
  const pattern = new RegExp(`<${element} [^>]*${attribute}="([^"]+)"`, "g");
  return [...svg.matchAll(pattern)].map((m) => Number(m[1]));
}

describe("lineChartSvg", () => {
  it("draws one line and one marker per point for every series, and a legend entry naming it", () => {
    const svg = lineChartSvg({
      title: "t",
      xLabel: "S shops",
      yLabel: "ms per resource",
      series: [
        {
          name: "ours, default",
          color: "#111111",
          points: [
            { x: 10, y: 50 },
            { x: 100, y: 60 },
            { x: 300, y: 90 },
          ],
        },
        {
          name: "plain script",
          color: "#222222",
          dash: "7 4",
          points: [
            { x: 10, y: 5 },
            { x: 100, y: 4 },
          ],
        },
      ],
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('stroke-dasharray="7 4"');
    expect(svg).toContain(">ours, default</text>");
    expect(svg).toContain(">plain script</text>");
    expect(svg).toContain(">S shops</text>");
    expect(svg).toContain(">ms per resource</text>");
    // 5 data points plus one legend marker per series.
    expect(svg.match(/<circle /g)).toHaveLength(7);
  });

  it("places every point inside the plot area, larger S further right and larger times higher up", () => {
    const point = fc.record({
      x: fc.integer({ min: 1, max: 100_000 }),
      y: fc.double({ min: 0, max: 1e6, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(point, { minLength: 1, maxLength: 8, selector: (p) => p.x }), (points) => {
        const svg = lineChartSvg({
          title: "t",
          xLabel: "x",
          yLabel: "y",
          series: [{ name: "s", color: "#000", points }],
        });
        const xs = numbersOf(svg, "circle", "cx").slice(0, points.length);
        const ys = numbersOf(svg, "circle", "cy").slice(0, points.length);
        const { left, right, top, bottom, width, height } = CHART_LAYOUT;
        for (let i = 0; i < xs.length; i++) {
          expect(xs[i]).toBeGreaterThanOrEqual(left - 0.05);
          expect(xs[i]).toBeLessThanOrEqual(width - right + 0.05);
          expect(ys[i]).toBeGreaterThanOrEqual(top - 0.05);
          expect(ys[i]).toBeLessThanOrEqual(height - bottom + 0.05);
        }
        const sorted = [...points].sort((a, b) => a.x - b.x);
        // Higher is up; a difference of a hundredth of the axis is at least one visible pixel.
        const maxY = Math.max(...points.map((p) => p.y));
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1], sorted[i]];
          expect(xs[i]).toBeGreaterThanOrEqual(xs[i - 1] ?? 0);
          if (a !== undefined && b !== undefined && b.x > a.x * 1.01)
            expect(xs[i]).toBeGreaterThan(xs[i - 1] ?? 0);
          if (a !== undefined && b !== undefined && b.y - a.y > niceAxis(maxY).top / 100)
            expect(ys[i]).toBeLessThan(ys[i - 1] ?? 0);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("escapes names and labels, so a series called <naive> & co cannot break the document", () => {
    const svg = lineChartSvg({
      title: "a < b",
      xLabel: "x",
      yLabel: "y",
      series: [{ name: "<naive> & co", color: "#000", points: [{ x: 1, y: 1 }] }],
    });
    expect(svg).toContain("&lt;naive&gt; &amp; co");
    expect(svg).not.toContain("<naive>");
    expect(escapeXml(`"'`)).toBe("&quot;&apos;");
  });
});

describe("axes", () => {
  it("spans whole decades around the data, at least one", () => {
    expect(logDomain([10, 100, 300, 1000])).toEqual([10, 1000]);
    expect(logDomain([1, 10])).toEqual([1, 10]);
    expect(logDomain([300])).toEqual([100, 1000]);
    expect(logDomain([])).toEqual([1, 10]);
    expect(logTicks([10, 1000])).toEqual([10, 20, 50, 100, 200, 500, 1000]);
  });

  it("rounds the y axis up to a 1-2-5 step above the largest value, with about five ticks", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e7, noNaN: true }), (max) => {
        const { top, step } = niceAxis(max);
        expect(top).toBeGreaterThanOrEqual(max * (1 - 1e-9));
        expect(top / step).toBeLessThanOrEqual(10 + 1e-9);
        expect(top / step).toBeGreaterThanOrEqual(2.5 - 1e-9);
        const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-12);
        expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});

describe("the bench's chart and scaling table", () => {
  const floorSample = (setting: "default" | "skip", shops: number, upMs: number): DeploymentSample => ({
    contender: "floor",
    setting,
    shops,
    resources: 3 * shops,
    upMs,
    destroyMs: upMs,
    upCalls: 0,
    destroyCalls: 0,
    providerBytes: 98,
    stateBytes: 1245 * 3 * shops,
  });

  it("draws the engine floor as a grey series per setting, dashed for skip checkpoints", () => {
    const chart = timePerResourceChart({
      deployments: [
        floorSample("default", 10, 3000),
        floorSample("default", 100, 12_000),
        floorSample("skip", 10, 2400),
      ],
      plain: [],
    });
    const byName = new Map(chart.series.map((s) => [s.name, s]));
    expect(byName.get("engine floor, default")).toMatchObject({
      points: [
        { x: 10, y: 100 },
        { x: 100, y: 40 },
      ],
    });
    expect(byName.get("engine floor, default")?.dash).toBeUndefined();
    expect(byName.get("engine floor, skip checkpoints")?.dash).toBeDefined();
    expect(byName.get("engine floor, skip checkpoints")?.color).toBe(
      byName.get("engine floor, default")?.color,
    );
    expect(lineChartSvg(chart)).toContain(">engine floor, default</text>");
  });

  it("lists the engine floor's fleets in the scaling table under the label engine floor", () => {
    const table = scalingTable({ deployments: [floorSample("default", 10, 3000)], plain: [] });
    expect(table).toMatch(/\| engine floor \| default \| 10 \| 30 \|/);
    expect(table).toContain("1,245 B");
  });
});
