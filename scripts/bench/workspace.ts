import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import type { ConfigMap, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { openStack, withDeadline } from "../lib/stacks";

const REPO_ROOT = resolve(__dirname, "..", "..", "..");
/** Deadline of one engine operation in the benchmark. */
export const BENCH_ENGINE_DEADLINE_MS = 15 * 60_000;

/** A fresh stack under .tmp/bench (inside the repo, so the provider process resolves the package). */
export async function benchStack(name: string, program: PulumiFn, config: ConfigMap): Promise<Stack> {
  const root = join(REPO_ROOT, ".tmp", "bench", `${name}-${randomBytes(4).toString("hex")}`);
  return openStack({
    workDir: join(root, "project"),
    backendDir: join(root, "backend"),
    projectName: "bench",
    stackName: "bench",
    program,
    config,
    env: { PULUMI_HOME: join(REPO_ROOT, ".tmp", "bench", "home") },
  });
}

/** Runs an engine operation under the deadline and returns its wall time in ms. */
export async function timed(operation: () => Promise<unknown>, what: string): Promise<number> {
  const started = performance.now();
  await withDeadline(operation(), BENCH_ENGINE_DEADLINE_MS, what);
  return performance.now() - started;
}
