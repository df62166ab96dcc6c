/**
 * `npm run bench`: every goal of issue 15 as a row with its measured value and verdict. Measures `up` and
 * `destroy` of S shops x 3 hooks with our provider, a naive one (scripts/bench/naive) and the engine floor (a
 * dynamic provider that calls nothing, scripts/bench/floor) under the default engine settings and
 * PULUMI_SKIP_CHECKPOINTS=true, the plain script as the lower bound, and optionally the fleet of goal 6.
 * Knobs: see {@link parseOptions} (BENCH_SHOPS, BENCH_RUNS, BENCH_SMALL_RUNS, BENCH_NAIVE_SHOPS,
 * BENCH_FLOOR_SHOPS, BENCH_SETTINGS, BENCH_SAFE_SETTING, BENCH_OTHER_SETTING_MAX_SHOPS, BENCH_FIT_MIN_SHOPS,
 * BENCH_FLEET, BENCH_FLEET_SHOPS, BENCH_FLEET_STACKS, BENCH_FLEET_CONCURRENCY, BENCH_DETAILS). Writes
 * bench/results/bench.md, bench.json and time-per-resource.svg.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { timePerResourceChart } from "./chart";
import { measureDetails } from "./details";
import { measureFleetGoal } from "./fleetGoal";
import { goalRows } from "./goals";
import { parseOptions, runsAt } from "./options";
import { benchHeader, GOAL_NOTES, goalTable, scalingTable } from "./report";
import type { DeploymentSample, PlainSample } from "./samples";
import { ADDED_LATENCY_MS, measureDeployment, measurePlain, PARALLEL } from "./scaling";
import { lineChartSvg } from "./svgChart";

const RESULTS_DIR = resolve(__dirname, "..", "..", "..", "bench", "results");
const CHART_FILE = "time-per-resource.svg";

let traceRun: string | undefined;

/** Where our runs' slot-time traces go with BENCH_TRACE=1 (a folder per bench run); none without. */
function traceDir(options: { readonly trace: boolean }): string | undefined {
  if (!options.trace) return undefined;
  traceRun ??= join(resolve(__dirname, "..", "..", ".."), ".tmp", "bench", "trace", `${Date.now()}`);
  mkdirSync(traceRun, { recursive: true });
  return traceRun;
}

async function main(): Promise<void> {
  const options = parseOptions(process.env);
  const header = benchHeader(options, ADDED_LATENCY_MS, PARALLEL);
  console.log(`${header}\n`);

  const deployments: DeploymentSample[] = [];
  const plain: PlainSample[] = [];
  const allSizes = [...new Set([...options.shops, ...options.naiveShops, ...options.floorShops])].sort(
    (a, b) => a - b,
  );
  for (const shops of allSizes) {
    for (const setting of options.settings) {
      if (setting !== options.safeSetting && shops > options.otherSettingMaxShops) continue;
      if (options.shops.includes(shops))
        deployments.push(
          await measureDeployment("ours", setting, shops, runsAt(options, shops), traceDir(options)),
        );
      if (options.naiveShops.includes(shops)) {
        deployments.push(await measureDeployment("naive", setting, shops, runsAt(options, shops)));
      }
      if (options.floorShops.includes(shops))
        deployments.push(await measureDeployment("floor", setting, shops, runsAt(options, shops)));
    }
    plain.push(await measurePlain(shops, runsAt(options, shops)));
  }
  const fleet = options.fleet
    ? await measureFleetGoal({
        shops: options.fleetShops,
        stacks: options.fleetStacks,
        concurrency: options.fleetConcurrency,
        latencyMs: ADDED_LATENCY_MS,
        setting: options.safeSetting,
      })
    : undefined;
  const data = { deployments, plain, fleet };
  const details = options.details ? await measureDetails(options.runs, deployments) : undefined;

  const goals = goalRows(data, options);
  const chart = timePerResourceChart(data);
  const sections = [
    `## Goals of issue 15\n\n${goalTable(goals)}\n\n${GOAL_NOTES}`,
    `## Every fleet measured\n\n${scalingTable(data)}`,
    `## Time per resource\n\n![up: time per resource against S](${CHART_FILE})`,
    ...(details === undefined ? [] : [details.markdown]),
  ];
  const markdown = [`# Benchmark\n\n${header}`, ...sections].join("\n\n");
  console.log(`\n${sections.join("\n\n")}\n`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, "bench.md"), `${markdown}\n`);
  writeFileSync(join(RESULTS_DIR, CHART_FILE), lineChartSvg(chart));
  writeFileSync(
    join(RESULTS_DIR, "bench.json"),
    `${JSON.stringify({ at: new Date().toISOString(), options, latencyMs: ADDED_LATENCY_MS, parallel: PARALLEL, ...data, goals, details: details?.json }, null, 2)}\n`,
  );
  console.log(`Written: bench/results/bench.md, bench.json, ${CHART_FILE}`);
  const missed = goals.filter((g) => g.verdict === "MISSED").length;
  console.log(
    `${goals.length} goal rows: ${missed} missed, ${goals.filter((g) => g.verdict === "met").length} met.`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
