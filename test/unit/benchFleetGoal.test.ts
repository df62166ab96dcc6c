/** The hook of goal 6: the bench runs the fleet work's measurement when its compiled module is present. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadStacksFleet } from "../../scripts/bench/fleetGoal";

const dirs: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "bench-fleet-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("loadStacksFleet", () => {
  it("finds nothing when stacksFleet.js is not in the build (goal 6 is then printed as not measured)", () => {
    expect(loadStacksFleet(folder())).toBeUndefined();
  });

  it("calls the module's measureStacksVersusOne with the options it was given", async () => {
    const dir = folder();
    writeFileSync(
      join(dir, "stacksFleet.js"),
      "exports.measureStacksVersusOne = async (o) => ({ oneStackUpMs: o.shops, oneStackDestroyMs: o.stacks, manyStacksUpMs: o.concurrency, manyStacksDestroyMs: o.latencyMs });",
    );
    const measure = loadStacksFleet(dir);
    expect(await measure?.({ shops: 1000, stacks: 10, concurrency: 4, latencyMs: 50 })).toEqual({
      oneStackUpMs: 1000,
      oneStackDestroyMs: 10,
      manyStacksUpMs: 4,
      manyStacksDestroyMs: 50,
    });
  });

  it("says which file lacks the function when the module exports something else", () => {
    const dir = folder();
    writeFileSync(join(dir, "stacksFleet.js"), "exports.somethingElse = 1;");
    expect(() => loadStacksFleet(dir)).toThrow(/stacksFleet\.js does not export measureStacksVersusOne/);
  });
});
