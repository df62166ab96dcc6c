import { join } from "node:path";
import { REPO_ROOT } from "../../e2e/support/engine";
import { type ProcessResult, runProcess } from "./process";

/** The built adoption CLI (tests load compiled code only). */
export const CLI_PATH = join(REPO_ROOT, "dist", "provider", "cli", "index.js");

/** Deadline of one CLI run: it makes one GET, but the machine may be loaded. */
const CLI_DEADLINE_MS = 60_000;

/**
 * Runs `node dist/provider/cli/index.js ...args` with only `env` set (plus PATH), so that no SHIPPING_*
 * variable of the developer's shell leaks in.
 */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<ProcessResult> {
  return runProcess(process.execPath, [CLI_PATH, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    deadlineMs: CLI_DEADLINE_MS,
  });
}
