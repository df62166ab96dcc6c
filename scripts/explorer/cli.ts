/**
 * `npm run explore -- [--steps N] [--seed S] [--runs R] [--max-steps M] [--time-limit-s T]
 *   [--provider-package DIR] [--known REGEX] [--replay '<json steps>'] [--cases [--only REGEX]]`
 *
 * Explores seeds S, S+1, ... (R generated sequences of at most M steps each) until N steps have been
 * applied, shrinking every failure, then prints a summary table and every counterexample as a replay
 * command. `--replay` runs exactly one recorded sequence. `--known` lets violations matching REGEX pass, to
 * look past defects already reported while they are being fixed. `--cases` replays the sequences that once
 * broke an invariant (scripts/explorer/cases.ts, casesTargetedSecretReadBack.ts; `--only` those whose name
 * matches).
 * Exit status 1 when an invariant broke.
 */
import { parseArgs } from "node:util";
import { runCommand } from "../lib/runCommand";
import { type NamedCase, REGRESSION_CASES } from "./cases";
import { TARGETED_SECRET_READ_BACK_CASES } from "./casesTargetedSecretReadBack";
import { type ExploreReport, explore, replay, replayCommand } from "./explore";
import type { Step } from "./model";
import { World } from "./world";

/** Defaults of the long run. */
const DEFAULTS = { steps: 2_000, runs: 5, maxSteps: 20 } as const;

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function replayCases(
  providerPackageDir: string | undefined,
  only: RegExp | undefined,
): Promise<number> {
  const cases: NamedCase[] = [...REGRESSION_CASES, ...TARGETED_SECRET_READ_BACK_CASES].filter(
    (c) => only?.test(c.name) ?? true,
  );
  const world = await World.create(providerPackageDir !== undefined ? { providerPackageDir } : {});
  const failed: string[] = [];
  try {
    for (const { name, steps } of cases) {
      log(`== case ${name}`);
      const { counterexample } = await replay(world, steps, log);
      if (counterexample !== undefined) failed.push(`${name}: ${counterexample.violations[0]}`);
    }
  } finally {
    await world.close();
  }
  log(`\n${cases.length - failed.length} of ${cases.length} cases pass`);
  for (const f of failed) log(`FAILS ${f}`);
  return failed.length === 0 ? 0 : 1;
}

async function replayOnly(json: string, providerPackageDir: string | undefined): Promise<number> {
  const steps = JSON.parse(json) as Step[];
  const world = await World.create(providerPackageDir !== undefined ? { providerPackageDir } : {});
  try {
    log(`replaying ${steps.length} steps`);
    const { counterexample } = await replay(world, steps, log);
    log(
      counterexample === undefined
        ? "no violation"
        : `violations:\n  ${counterexample.violations.join("\n  ")}`,
    );
    return counterexample === undefined ? 0 : 1;
  } finally {
    await world.close();
  }
}

function summary(reports: readonly ExploreReport[]): void {
  log("\n| seed | runs | steps | operations | seconds | violation |");
  log("|---:|---:|---:|---:|---:|---|");
  for (const r of reports) {
    const violation = r.counterexample?.violations[0] ?? "none";
    log(
      `| ${r.seed} | ${r.runs} | ${r.steps} | ${r.operations} | ${Math.round(r.durationMs / 1000)} | ${violation} |`,
    );
  }
  const total = (pick: (r: ExploreReport) => number) => reports.reduce((sum, r) => sum + pick(r), 0);
  const failed = reports.filter((r) => r.counterexample !== undefined);
  log(
    `\n${reports.length} seeds, ${total((r) => r.runs)} runs, ${total((r) => r.steps)} steps, ${total((r) => r.operations)} engine operations (${total((r) => r.transportRetries)} run again after a gRPC transport failure with no effect), ${failed.length} with a violation`,
  );
  for (const r of failed) {
    log(`\nseed ${r.seed}: ${r.counterexample?.violations.join("; ")}`);
    log(replayCommand(r.counterexample?.steps ?? []));
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      steps: { type: "string" },
      seed: { type: "string" },
      runs: { type: "string" },
      "max-steps": { type: "string" },
      "time-limit-s": { type: "string" },
      "provider-package": { type: "string" },
      replay: { type: "string" },
      known: { type: "string" },
      cases: { type: "boolean" },
      only: { type: "string" },
    },
  });
  const providerPackageDir = values["provider-package"];
  if (values.replay !== undefined) return replayOnly(values.replay, providerPackageDir);
  if (values.cases === true)
    return replayCases(providerPackageDir, values.only !== undefined ? new RegExp(values.only) : undefined);
  const totalSteps = Number(values.steps ?? DEFAULTS.steps);
  const runs = Number(values.runs ?? DEFAULTS.runs);
  const maxSteps = Number(values["max-steps"] ?? DEFAULTS.maxSteps);
  const timeLimitMs =
    values["time-limit-s"] !== undefined ? Number(values["time-limit-s"]) * 1000 : undefined;
  const known = values.known !== undefined ? new RegExp(values.known) : undefined;
  const firstSeed = Number(values.seed ?? Date.now() % 1_000_000);
  const reports: ExploreReport[] = [];
  let applied = 0;
  for (let seed = firstSeed; applied < totalSteps; seed += 1) {
    log(`== seed ${seed}`);
    const report = await explore({
      seed,
      runs,
      maxSteps,
      log,
      ...(known !== undefined ? { known } : {}),
      ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
      ...(providerPackageDir !== undefined ? { providerPackageDir } : {}),
    });
    reports.push(report);
    applied += report.steps;
  }
  summary(reports);
  return reports.some((r) => r.counterexample !== undefined) ? 1 : 0;
}

runCommand("explore", main);
