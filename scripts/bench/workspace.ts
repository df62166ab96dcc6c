import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ConfigMap, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { openStack, withDeadline } from "../lib/stacks";

const REPO_ROOT = resolve(__dirname, "..", "..", "..");
/** Deadline of one engine operation in the benchmark (S = 1,000 under default settings takes many minutes). */
const BENCH_ENGINE_DEADLINE_MS = 60 * 60_000;
/** The stack name of every bench stack (its state file is `<name>.json` in the backend). */
export const BENCH_STACK_NAME = "bench";

/** A bench stack and the folders it lives in. */
interface BenchStack {
  readonly stack: Stack;
  /** The `file://` backend folder. */
  readonly backendDir: string;
  /** Removes the project and backend folders (large fleets leave hundreds of MB of history). */
  readonly remove: () => void;
}

/**
 * A fresh stack under .tmp/bench (inside the repo, so the provider process resolves the package). `env` goes
 * to the CLI and the provider it starts, e.g. `PULUMI_SKIP_CHECKPOINTS`.
 */
export async function benchStack(
  name: string,
  program: PulumiFn,
  config: ConfigMap,
  env: Record<string, string> = {},
): Promise<BenchStack> {
  const root = join(REPO_ROOT, ".tmp", "bench", `${name}-${randomBytes(4).toString("hex")}`);
  const backendDir = join(root, "backend");
  const stack = await openStack({
    workDir: join(root, "project"),
    backendDir,
    projectName: "bench",
    stackName: BENCH_STACK_NAME,
    program,
    config,
    env: { PULUMI_HOME: join(REPO_ROOT, ".tmp", "bench", "home"), ...env },
  });
  return { stack, backendDir, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs an engine operation under the deadline, prints progress lines (start, end), and returns its wall time in ms. */
export async function timed(operation: () => Promise<unknown>, what: string): Promise<number> {
  const clock = () => new Date().toISOString().slice(11, 19);
  console.log(`  [${clock()}] ${what} ...`);
  const started = performance.now();
  await withDeadline(operation(), BENCH_ENGINE_DEADLINE_MS, what);
  const elapsed = performance.now() - started;
  console.log(`  [${clock()}] ${what}: ${(elapsed / 1000).toFixed(1)} s`);
  return elapsed;
}
