import { type EngineSetting, settingLabel } from "./options";
import { type BenchData, type Contender, contenderLabel, perResource } from "./samples";
import type { ChartSeries, ChartSpec } from "./svgChart";

const STYLES: Record<`${Contender}-${EngineSetting}`, { color: string; dash?: string }> = {
  "ours-default": { color: "#1f77b4" },
  "ours-skip": { color: "#1f77b4", dash: "7 4" },
  "naive-default": { color: "#d62728" },
  "naive-skip": { color: "#d62728", dash: "7 4" },
  "floor-default": { color: "#7f7f7f" },
  "floor-skip": { color: "#7f7f7f", dash: "7 4" },
};
const PLAIN_COLOR = "#2ca02c";

/**
 * The chart of `up` time per resource against S: ours, naive and the engine floor (grey) under each setting
 * (dashed: skip checkpoints), and the plain script.
 */
export function timePerResourceChart(data: BenchData): ChartSpec {
  const series: ChartSeries[] = [];
  for (const contender of ["ours", "naive", "floor"] as const) {
    for (const setting of ["default", "skip"] as const) {
      const samples = data.deployments.filter((d) => d.contender === contender && d.setting === setting);
      if (samples.length === 0) continue;
      series.push({
        name: `${contenderLabel(contender)}, ${settingLabel(setting) === "default" ? "default" : "skip checkpoints"}`,
        ...STYLES[`${contender}-${setting}`],
        points: samples.map((s) => ({ x: s.shops, y: perResource(s.upMs, s.resources) })),
      });
    }
  }
  if (data.plain.length > 0) {
    series.push({
      name: "plain script (lower bound)",
      color: PLAIN_COLOR,
      points: data.plain.map((p) => ({ x: p.shops, y: perResource(p.upMs, p.resources) })),
    });
  }
  return {
    title: "pulumi up: time per resource (S shops x 3 hooks, 50 ms latency, --parallel 8)",
    xLabel: "S shops (log scale)",
    yLabel: "ms per resource",
    series,
  };
}
