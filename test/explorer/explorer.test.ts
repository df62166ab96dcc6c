import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explore, replayCommand } from "../../scripts/explorer/explore";
import { repoRoot } from "../../scripts/explorer/world";

/**
 * Fixed seeds of the model-based explorer (real CLI, two simulators, two stacks): every invariant holds
 * after every step. `npm run explore -- --steps N --seed S` runs long.
 */
const SEEDS = [1, 2];
/** Sequences per seed and their longest length: sized to keep this file near five minutes. */
const RUNS_PER_SEED = 2;
const MAX_STEPS = 12;

describe("the explorer", () => {
  it.each(SEEDS)("finds no violation from seed %i", async (seed) => {
    const report = await explore({ seed, runs: RUNS_PER_SEED, maxSteps: MAX_STEPS, log: console.log });
    const found = report.counterexample;
    expect(
      found === undefined ? "none" : `${found.violations.join("; ")}\n${replayCommand(found.steps)}`,
    ).toBe("none");
    expect(report.operations).toBeGreaterThan(0);
  });

  it("catches a provider build whose delete does nothing, and shrinks it to add, up, destroy", async () => {
    const broken = brokenBuild();
    const report = await explore({
      seed: 7,
      runs: 10,
      maxSteps: 8,
      providerPackageDir: broken,
      timeLimitMs: 200_000,
      log: console.log,
    });
    const found = report.counterexample;
    expect(found?.violations.join("\n")).toMatch(/destroy of \w+ succeeded but left/);
    const kinds = (found?.steps ?? []).map((s) => (s.kind === "operation" ? s.op : s.kind));
    expect(kinds.filter((k) => k === "add")).toHaveLength(1);
    expect(kinds.slice(-1)).toEqual([expect.stringMatching(/^destroy/)]);
    expect(kinds.length).toBeLessThanOrEqual(4);
  });
});

/** A copy of the built package whose delete returns without calling the API. */
function brokenBuild(): string {
  const root = repoRoot();
  const dir = join(root, ".tmp", "explorer", `broken-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, "dist", "provider"), join(dir, "dist", "provider"), { recursive: true });
  cpSync(join(root, "package.json"), join(dir, "package.json"));
  const runtime = join(dir, "dist", "provider", "runtime.js");
  const source = readFileSync(runtime, "utf8");
  const patched = source.replace(/(async function deleteSubscription\([^)]*\) \{)/, "$1\n    return;");
  expect(patched).not.toBe(source);
  writeFileSync(runtime, patched);
  return dir;
}
