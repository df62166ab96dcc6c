import { bytes, count, millis, seconds } from "./format";
import type { GoalRow } from "./goals";
import { type BenchOptions, runsAt, SMALL_FLEET_MAX_SHOPS, settingLabel } from "./options";
import { type BenchData, contenderLabel, type FleetMedians, perResource } from "./samples";
import { markdownTable } from "./table";

/** The goal rows as a markdown table. */
export function goalTable(rows: readonly GoalRow[]): string {
  return markdownTable(
    ["goal", "measure", "value", "target", "verdict"],
    rows.map((r) => [
      r.goal,
      r.measure,
      r.value,
      r.target,
      r.verdict === "MISSED" ? "**MISSED**" : r.verdict,
    ]),
  );
}

/** Every measured fleet: times, time per resource, API calls and bytes; the plain script last. */
export function scalingTable(data: BenchData): string {
  /** The cells a deployment and a plain run both have: size, times, time per resource, API calls. */
  const measured = (m: FleetMedians): string[] => [
    count(m.shops),
    count(m.resources),
    seconds(m.upMs),
    seconds(m.destroyMs),
    millis(perResource(m.upMs, m.resources)),
    millis(perResource(m.destroyMs, m.resources)),
    `${count(m.upCalls)} / ${count(m.destroyCalls)}`,
  ];
  const rows = data.deployments.map((d) => [
    contenderLabel(d.contender),
    settingLabel(d.setting),
    ...measured(d),
    bytes(d.providerBytes),
    bytes(d.stateBytes),
    bytes(perResource(d.stateBytes, d.resources)),
  ]);
  const plain = data.plain.map((p) => ["plain script", "(no engine)", ...measured(p), "-", "-", "-"]);
  return markdownTable(
    [
      "provider",
      "setting",
      "S",
      "resources",
      "up",
      "destroy",
      "up / resource",
      "destroy / resource",
      "calls up / destroy",
      "`__provider`",
      "stack file",
      "stack file / resource",
    ],
    [...rows, ...plain],
  );
}

/** The header line of the results: when, how many runs, which sizes and settings. */
export function benchHeader(options: BenchOptions, latencyMs: number, parallel: number): string {
  return [
    `Benchmark ${new Date().toISOString()}: ${options.runs} run(s) per size, ${runsAt(options, SMALL_FLEET_MAX_SHOPS)} at S <= ${SMALL_FLEET_MAX_SHOPS} (medians), S = ${options.shops.join(", ")}`,
    `(naive: ${options.naiveShops.join(", ") || "none"}; engine floor: ${options.floorShops.join(", ") || "none"}), settings ${options.settings.join(", ")},`,
    `safe setting ${options.safeSetting}, ${latencyMs} ms added latency, --parallel ${parallel}.`,
  ].join(" ");
}

/** Notes printed under the goal table. */
export const GOAL_NOTES = [
  "- Fleet: S shops x 3 hooks against the simulator; `up` of a fresh stack, then `destroy`.",
  "- `skip` = `PULUMI_SKIP_CHECKPOINTS=true` in the CLI's environment (the engine saves state only at the end).",
  "  The safe setting (BENCH_SAFE_SETTING, default skip) is the one the SIGKILL-mid-`up` test",
  "  (test/state/skipCheckpoints.faults.test.ts) showed safe; goal 3 is judged on it.",
  "- Growth exponent: least squares of ln(time) on ln(resources) over the sizes listed (S >= BENCH_FIT_MIN_SHOPS",
  "  when two sizes qualify); 1 is linear. Small fleets are dominated by the CLI's fixed start-up.",
  "- Naive provider: scripts/bench/naive/ (fetch, one call per operation, key in the closure). Plain script:",
  "  scripts/bench/plainClient.ts, the fewest calls the API allows (per shop 1 listing + 1 POST; 1 GET + 1 DELETE).",
  "- Engine floor: scripts/bench/floor/, a dynamic provider that calls nothing and stores only the inputs ours",
  "  declares (shop, hook, url); its time and bytes are the engine's own, the part of a miss no provider can remove.",
].join("\n");
