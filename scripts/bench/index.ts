/**
 * `npm run bench`: API calls per operation against their minimum, `pulumi up`/`destroy` of S shops x 3 hooks
 * against a plain undici script, the size of `__provider`, cold start, and the simulator's own figures.
 * Prints markdown and writes bench/results/bench.md and bench.json. BENCH_RUNS (default 3) runs per size;
 * BENCH_SHOPS (default "1,10,100") the fleet sizes. Every figure is a median.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { measureApiCalls } from "./apiCalls";
import { measureColdStart } from "./coldStart";
import { ADDED_LATENCY_MS, measureScaling, PARALLEL, type ScalingResult, serializationMs } from "./scaling";
import { markdownTable, ms } from "./table";

const REPO_ROOT = resolve(__dirname, "..", "..", "..");
const RESULTS_DIR = join(REPO_ROOT, "bench", "results");
/** Goal: what is ours is at most this share of `up` at the largest fleet. */
const OURS_GOAL_SHARE = 0.1;
/** Goal: `__provider` per resource. */
const PROVIDER_BYTES_GOAL = 8 * 1024;

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
  return `${table}

Measured ${sim.at ?? "earlier"}; goal >= 5,000 GET req/s and p99 < 10 ms.`;
}

function scalingTable(results: readonly ScalingResult[], serializeMs: number, coldStartMs: number): string {
  return markdownTable(
    [
      "S shops",
      "resources",
      "pulumi up",
      "plain script",
      "ratio",
      "provider start",
      "serialization",
      "HTTP (plain)",
      "engine + CLI",
      "ours share",
      "pulumi destroy",
      "plain destroy",
      "destroy ratio",
      "API calls up / destroy",
      "__provider bytes",
    ],
    results.map((r) => {
      const ours = coldStartMs + serializeMs;
      const engineMs = r.upMs - ours - r.plainUpMs;
      return [
        r.shops,
        r.resources,
        ms(r.upMs),
        ms(r.plainUpMs),
        (r.upMs / r.plainUpMs).toFixed(1),
        ms(coldStartMs),
        `${serializeMs.toFixed(1)} ms`,
        ms(r.plainUpMs),
        ms(engineMs),
        `${((100 * ours) / r.upMs).toFixed(1)}%`,
        ms(r.destroyMs),
        ms(r.plainDestroyMs),
        (r.destroyMs / r.plainDestroyMs).toFixed(1),
        `${r.upCalls} / ${r.destroyCalls}`,
        r.providerBytes,
      ];
    }),
  );
}

async function main(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const sizes = (process.env.BENCH_SHOPS ?? "1,10,100").split(",").map(Number);
  console.log(
    `Benchmark: ${runs} run(s) per size, sizes ${sizes.join(", ")}, ${ADDED_LATENCY_MS} ms added latency, --parallel ${PARALLEL}\n`,
  );

  const calls = await measureApiCalls();
  console.log(`## 1. API calls per operation (1 shop, 3 hooks)\n\n${calls.markdown}\n`);

  const cold = await measureColdStart(Math.max(runs, 3));
  const serializeMs = await serializationMs();
  const coldTable = markdownTable(
    ["measure", "median"],
    [
      ["node start -> first API request (our runtime only)", ms(cold.runtimeOnlyMs)],
      [
        "node start -> first API request (after loading Pulumi's provider host modules)",
        ms(cold.withPulumiHostMs),
      ],
      ["require('pulumi-shipping-webhooks/runtime')", `${cold.requireRuntimeMs.toFixed(1)} ms`],
      ["serialize the provider (once per program run, cached by the SDK)", `${serializeMs.toFixed(1)} ms`],
    ],
  );
  console.log(`## 4. Cold start and serialization\n\n${coldTable}\n`);

  const scaling: ScalingResult[] = [];
  for (const shops of sizes) {
    console.log(`... S = ${shops}`);
    scaling.push(await measureScaling(shops, runs));
  }
  const ourColdMs = cold.runtimeOnlyMs;
  const table = scalingTable(scaling, serializeMs, ourColdMs);
  const largest = scaling[scaling.length - 1];
  const share = largest ? (ourColdMs + serializeMs) / largest.upMs : Number.NaN;
  const maxBytes = Math.max(...scaling.map((r) => r.providerBytes));
  const verdicts = [
    `- Ours (provider start + serialization) at S = ${largest?.shops}: ${(100 * share).toFixed(1)}% of up (goal <= ${100 * OURS_GOAL_SHARE}%): ${share <= OURS_GOAL_SHARE ? "met" : "MISSED"}`,
    `- __provider per resource: ${maxBytes} bytes (goal <= ${PROVIDER_BYTES_GOAL}, no growth with S): ${maxBytes <= PROVIDER_BYTES_GOAL && new Set(scaling.map((r) => r.providerBytes)).size === 1 ? "met" : "MISSED"}`,
    `- Excess API calls: ${calls.rows.some((r) => r.calls > r.budget) ? "YES (a bug)" : "none"}`,
  ].join("\n");
  console.log(
    `## 2-3. pulumi up / destroy vs a plain script (${ADDED_LATENCY_MS} ms latency)\n\n${table}\n\n${verdicts}\n`,
  );
  const sim = simulatorFigures();
  console.log(`## 5. Simulator\n\n${sim}\n`);

  const markdown = [
    `# Benchmark (${new Date().toISOString()}, ${runs} run(s) per size, medians)`,
    `## 1. API calls per operation\n\n${calls.markdown}`,
    `## 2-3. pulumi up / destroy vs a plain script (${ADDED_LATENCY_MS} ms latency, --parallel ${PARALLEL})\n\n${table}\n\n${verdicts}\n\n"engine + CLI" = pulumi up - provider start - serialization - HTTP (the plain script's time for the same calls at the same concurrency); it includes the CLI's own start and the Automation API's gRPC language runtime.`,
    `## 4. Cold start and serialization\n\n${coldTable}`,
    `## 5. Simulator\n\n${sim}`,
  ].join("\n\n");
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, "bench.md"), `${markdown}\n`);
  writeFileSync(
    join(RESULTS_DIR, "bench.json"),
    `${JSON.stringify({ runs, calls: calls.rows, cold, serializeMs, scaling }, null, 2)}\n`,
  );
  console.log(`Written: bench/results/bench.md, bench/results/bench.json`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
