import { expect } from "vitest";
import type { RunningSimulator } from "../../simulator";
import type { OfficialProject } from "../support/officialProject";
import type { ProcessResult } from "../support/process";

/**
 * `pulumi preview`, then `pulumi up --yes`, of a project whose program cannot run as written: each fails,
 * printing every one of `says`, and neither writes to the service at `sim`. The two runs, for more checks.
 */
export async function previewAndUpFail(
  project: OfficialProject,
  sim: RunningSimulator,
  says: readonly string[],
): Promise<ProcessResult[]> {
  sim.clearRequests();
  const runs: ProcessResult[] = [];
  for (const args of [["preview"], ["up", "--yes"]]) {
    const run = await project.pulumi(args);
    expect(run.status, run.stdout).not.toBe(0);
    for (const text of says) expect(run.stdout).toContain(text);
    runs.push(run);
  }
  expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  return runs;
}
