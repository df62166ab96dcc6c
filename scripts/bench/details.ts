import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type CallCount, measureApiCalls } from "./apiCalls";
import { type ColdStart, measureColdStart } from "./coldStart";
import type { DeploymentSample } from "./samples";
import { serializationMs } from "./scaling";
import { markdownTable, ms } from "./table";

const RESULTS_DIR = resolve(__dirname, "..", "..", "..", "bench", "results");
/** Runs of the cold-start measure at least (it is cheap and noisy). */
const MIN_COLD_RUNS = 3;

/** The supporting figures: API calls per operation (justifying goal 4), cold start, the simulator. */
interface Details {
  readonly markdown: string;
  readonly json: { calls: CallCount[]; cold: ColdStart; serializeMs: number };
}

function simulatorFigures(): string {
  const file = join(RESULTS_DIR, "sim.json");
  if (!existsSync(file)) return "No simulator figures yet: run `npm run bench:sim`.";
  const sim = JSON.parse(readFileSync(file, "utf8")) as {
    at?: string;
    results?: Array<{
      scenario: string;
      requestsPerSecond: number;
      p50Ms: number;
      p99Ms: number;
      non2xx: number;
    }>;
  };
  const rows = (sim.results ?? []).map((r) => [r.scenario, r.requestsPerSecond, r.p50Ms, r.p99Ms, r.non2xx]);
  if (rows.length === 0) return "Simulator figures: see bench/results/sim.md.";
  const table = markdownTable(["scenario (npm run bench:sim)", "req/s", "p50 ms", "p99 ms", "non-2xx"], rows);
  return `${table}\n\nMeasured ${sim.at ?? "earlier"}; goal >= 5,000 GET req/s and p99 < 10 ms.`;
}

/** Measures and formats the supporting figures; `deployments` gives the share of `up` that is ours. */
export async function measureDetails(
  runs: number,
  deployments: readonly DeploymentSample[],
): Promise<Details> {
  console.log("... API calls per operation, cold start");
  const calls = await measureApiCalls();
  const cold = await measureColdStart(Math.max(runs, MIN_COLD_RUNS));
  const serializeMs = await serializationMs();
  const largest = deployments
    .filter((d) => d.contender === "ours" && d.setting === "default")
    .sort((a, b) => b.shops - a.shops)[0];
  const ours = cold.runtimeOnlyMs + serializeMs;
  const share =
    largest === undefined
      ? ""
      : `\n\nProvider start + compile at S = ${largest.shops} (default settings): ${((100 * ours) / largest.upMs).toFixed(1)}% of \`up\`.`;
  const coldTable = markdownTable(
    ["measure", "median"],
    [
      ["node start -> first API request (our runtime only)", ms(cold.runtimeOnlyMs)],
      [
        "node start -> first API request (after loading Pulumi's provider host modules)",
        ms(cold.withPulumiHostMs),
      ],
      ["require('pulumi-shipping-webhooks/runtime')", `${cold.requireRuntimeMs.toFixed(1)} ms`],
      ["compile `__provider` into the provider (once per provider process)", `${serializeMs.toFixed(1)} ms`],
    ],
  );
  const markdown = [
    `## API calls per operation (1 shop, 3 hooks; why each call)\n\n${calls.markdown}`,
    `## Cold start and provider compile\n\n${coldTable}${share}`,
    `## Simulator\n\n${simulatorFigures()}`,
  ].join("\n\n");
  return { markdown, json: { calls: calls.rows, cold, serializeMs } };
}
