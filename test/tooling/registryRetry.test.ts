import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * scripts/sh/retry.sh, which .ci/run and scripts/newest-pair.sh wrap around every install from the npm
 * registry: a stalled registry read (EIDLETIMEOUT) once failed CI with every test green. The stand-in
 * command fails its first N runs (a counter in a file), as an install does while the registry stalls.
 */
const RETRY_SCRIPT = resolve(__dirname, "..", "..", "scripts", "sh", "retry.sh");
/** bash and a few file writes. */
const RUN_DEADLINE_MS = 10_000;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Runs `with_registry_retries` around a command that exits with `failStatus` on its first `failures` runs. */
function runFlaky(failures: number, failStatus = 7) {
  const dir = mkdtempSync(join(tmpdir(), "registry-retry-"));
  folders.push(dir);
  const counter = join(dir, "runs");
  writeFileSync(counter, "0");
  const flaky = `n=$(( $(cat '${counter}') + 1 )); echo "$n" > '${counter}'; [ "$n" -gt ${failures} ] || exit ${failStatus}`;
  const result = spawnSync(
    "bash",
    [
      "-c",
      `set -euo pipefail; source '${RETRY_SCRIPT}'; with_registry_retries bash -c '${flaky.replaceAll("'", "'\\''")}'; echo after`,
    ],
    {
      encoding: "utf8",
      timeout: RUN_DEADLINE_MS,
      env: { ...process.env, SHIPPING_REGISTRY_BACKOFF_SECONDS: "0" },
    },
  );
  return { ...result, runs: Number(readFileSync(counter, "utf8").trim()) };
}

describe("with_registry_retries (CI's installs from the npm registry)", () => {
  it("runs a command that succeeds once, with no retry", () => {
    const result = runFlaky(0);
    expect(result.status).toBe(0);
    expect(result.runs).toBe(1);
    expect(result.stdout).toBe("after\n");
    expect(result.stderr).toBe("");
  });

  it("runs again after a failed attempt, saying so, and goes on when one succeeds", () => {
    const result = runFlaky(2);
    expect(result.status).toBe(0);
    expect(result.runs).toBe(3);
    expect(result.stdout).toBe("after\n");
    expect(result.stderr).toContain("(exit 7, attempt 1 of 3)");
    expect(result.stderr).toContain("(exit 7, attempt 2 of 3)");
  });

  it("gives npm a one-minute idle timeout instead of its five, so a stall costs an attempt a minute", () => {
    const result = spawnSync(
      "bash",
      ["-c", `source '${RETRY_SCRIPT}'; with_registry_retries bash -c 'echo "$npm_config_fetch_timeout"'`],
      { encoding: "utf8", timeout: RUN_DEADLINE_MS },
    );
    expect(result.stdout).toBe("60000\n");
  });

  it("stops after three attempts with the command's exit code, so CI fails (and does not loop)", () => {
    const result = runFlaky(5, 42);
    expect(result.status).toBe(42);
    expect(result.runs).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("failed 3 times (last exit 42); giving up");
  });
});
