/** The verdicts `npm run bench` prints for the benchmark's goals (docs/performance.md). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GOALS, type GoalRow, goalRows } from "../../scripts/bench/goals";
import type { EngineSetting } from "../../scripts/bench/options";
import type { BenchData, Contender, DeploymentSample } from "../../scripts/bench/samples";

const SEED = 1516;
const BOTH: EngineSetting[] = ["default", "skip"];

function sample(
  contender: Contender,
  setting: EngineSetting,
  shops: number,
  over: Partial<DeploymentSample> = {},
): DeploymentSample {
  const resources = shops * 3;
  return {
    contender,
    setting,
    shops,
    resources,
    upMs: 20 * resources,
    destroyMs: 20 * resources,
    upCalls: 2 * shops,
    destroyCalls: 2 * shops,
    providerBytes: 250,
    stateBytes: 500 * resources,
    ...over,
  };
}

function rows(data: BenchData, safeSetting: EngineSetting = "default"): GoalRow[] {
  return goalRows(data, { settings: BOTH, safeSetting, fitMinShops: 100 });
}

function row(all: readonly GoalRow[], goal: string, measure: string): GoalRow {
  const found = all.find((r) => r.goal.startsWith(goal) && r.measure.includes(measure));
  if (found === undefined) throw new Error(`no row ${goal} / ${measure} in ${JSON.stringify(all, null, 1)}`);
  return found;
}

describe("goal rows", () => {
  it("judges __provider bytes per size against 400 and prints the stack file per resource", () => {
    const all = rows({
      deployments: [
        sample("ours", "default", 10, { providerBytes: 400 }),
        sample("ours", "default", 100, { providerBytes: 2540 }),
      ],
      plain: [],
    });
    expect(row(all, "1", "`__provider` per resource, S = 10").verdict).toBe("met");
    expect(row(all, "1", "`__provider` per resource, S = 100")).toMatchObject({
      value: "2,540 B",
      verdict: "MISSED",
    });
    expect(row(all, "1", "stack file per resource, S = 100")).toMatchObject({
      value: "500 B",
      verdict: "info",
    });
  });

  it("judges up and destroy at S = 300 under default settings against 35 s each, and says when not run", () => {
    const all = rows({
      deployments: [sample("ours", "default", 300, { upMs: 35_000, destroyMs: 35_001 })],
      plain: [],
    });
    expect(row(all, "2", "`up` at S = 300").verdict).toBe("met");
    expect(row(all, "2", "`destroy` at S = 300").verdict).toBe("MISSED");
    const skipOnly = rows({ deployments: [sample("ours", "skip", 300, { upMs: 1 })], plain: [] });
    expect(row(skipOnly, "2", "`up` at S = 300").verdict).toBe("not measured");
  });

  it("judges the 1,000 / 100 time-per-resource ratio on the safe setting only", () => {
    const perResourceRatio = (ratio: number, setting: EngineSetting): DeploymentSample[] => [
      sample("ours", setting, 100, { upMs: 300 * 50, destroyMs: 300 * 50 }),
      sample("ours", setting, 1000, { upMs: 3000 * 50 * ratio, destroyMs: 3000 * 50 }),
    ];
    const met = rows(
      { deployments: [...perResourceRatio(1.25, "skip"), ...perResourceRatio(4, "default")], plain: [] },
      "skip",
    );
    expect(row(met, "3", "`up` time per resource at S = 1,000")).toMatchObject({
      value: "1.25x",
      verdict: "met",
    });
    expect(row(met, "3", "growth exponent up / destroy, PULUMI_SKIP_CHECKPOINTS=true (safe)").verdict).toBe(
      "met",
    );
    expect(row(met, "3", "growth exponent up / destroy, default").verdict).toBe("info");
    const missed = rows({ deployments: perResourceRatio(1.26, "default"), plain: [] }, "default");
    expect(row(missed, "3", "`up` time per resource at S = 1,000").verdict).toBe("MISSED");
    expect(row(missed, "3", "`destroy` time per resource at S = 1,000").verdict).toBe("met");
    expect(row(missed, "3", "growth exponent up / destroy, default (safe)").verdict).toBe("MISSED");
  });

  it("fits the exponent on S >= 100 when two such sizes exist, so the CLI's start-up does not hide growth", () => {
    const quadratic = (shops: number) =>
      sample("ours", "default", shops, { upMs: 4000 + shops * shops, destroyMs: shops * shops });
    const all = rows({ deployments: [1, 10, 100, 300, 1000].map(quadratic), plain: [] });
    const exponent = row(all, "3", "growth exponent up / destroy, default (safe), S = 100, 300, 1000");
    expect(Number(exponent.value.split(" / ")[0])).toBeGreaterThan(1.8);
  });

  it("prints but does not judge an exponent fitted on fleets below BENCH_FIT_MIN_SHOPS (start-up dominated)", () => {
    const startUpOnly = (shops: number) => sample("ours", "default", shops, { upMs: 7000, destroyMs: 5000 });
    const all = rows({ deployments: [1, 10].map(startUpOnly), plain: [] });
    expect(
      row(all, "3", "growth exponent up / destroy, default (safe), S = 1, 10 (not judged"),
    ).toMatchObject({
      value: "0.00 / 0.00",
      verdict: "info",
    });
  });

  it("a fleet whose time grows linearly meets goal 3 at any sizes; one that grows as n^1.5 misses it", () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 200, noNaN: true }), fc.boolean(), (msPerResource, linear) => {
        const deployments = [100, 300, 1000].map((shops) => {
          const ms = msPerResource * (linear ? shops : shops ** 1.5);
          return sample("ours", "default", shops, { upMs: ms, destroyMs: ms });
        });
        const verdicts = rows({ deployments, plain: [] })
          .filter((r) => r.goal.startsWith("3") && (r.verdict === "met" || r.verdict === "MISSED"))
          .map((r) => r.verdict);
        expect(verdicts).toHaveLength(3);
        expect(new Set(verdicts)).toEqual(new Set([linear ? "met" : "MISSED"]));
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it("judges API calls at S = 100 against 300 for up and 400 for destroy, per setting", () => {
    const all = rows({
      deployments: [
        sample("ours", "default", 100, { upCalls: GOALS.upCalls, destroyCalls: GOALS.destroyCalls + 1 }),
      ],
      plain: [],
    });
    expect(row(all, "4", "`up` at S = 100, default").verdict).toBe("met");
    expect(row(all, "4", "`destroy` at S = 100, default").verdict).toBe("MISSED");
    expect(row(all, "4", "`up` at S = 100, PULUMI_SKIP").verdict).toBe("not measured");
  });

  it("says which methods the calls were, so each call can be justified", () => {
    const all = rows({
      deployments: [
        sample("ours", "default", 100, {
          upCalls: 367,
          upByMethod: { GET: 200, POST: 167 },
          destroyCalls: 200,
          destroyByMethod: { DELETE: 100, GET: 100, POST: 0 },
        }),
      ],
      plain: [],
    });
    expect(row(all, "4", "`up` at S = 100, default")).toMatchObject({
      value: "367 (200 GET, 167 POST)",
      verdict: "MISSED",
    });
    expect(row(all, "4", "`destroy` at S = 100, default").value).toBe("200 (100 DELETE, 100 GET)");
  });

  it("compares with the naive provider at the same size and setting: faster, fewer destroy calls, a tenth of bytes", () => {
    const all = rows({
      deployments: [
        sample("ours", "skip", 10, { upMs: 900, destroyMs: 1000, destroyCalls: 20, stateBytes: 100 }),
        sample("naive", "skip", 10, { upMs: 1000, destroyMs: 1000, destroyCalls: 30, stateBytes: 1000 }),
        sample("naive", "default", 10),
      ],
      plain: [],
    });
    expect(row(all, "5", "ours faster (up, destroy), S = 10, PULUMI").verdict).toBe("MISSED");
    expect(row(all, "5", "fewer destroy calls, S = 10, PULUMI").verdict).toBe("met");
    expect(row(all, "5", "state bytes a tenth of naive's, S = 10, PULUMI")).toMatchObject({ verdict: "met" });
    expect(row(all, "5", "ours faster, S = 10, default").verdict).toBe("not measured");
  });

  it("prints goal 6 as not measured without BENCH_FLEET and as a comparison with it", () => {
    expect(row(rows({ deployments: [], plain: [] }), "6", "10 stacks").verdict).toBe("not measured");
    const fleet = {
      shops: 1000,
      stacks: 10,
      oneStackUpMs: 9e5,
      oneStackDestroyMs: 8e5,
      manyStacksUpMs: 1e5,
      manyStacksDestroyMs: 9e4,
    };
    expect(row(rows({ deployments: [], plain: [], fleet }), "6", "10 stacks of 100")).toMatchObject({
      value: "100.0 s vs 900.0 s, 90.0 s vs 800.0 s",
      verdict: "info",
    });
  });

  it("prints the engine floor next to ours at S = 300 under default settings, as information", () => {
    const all = rows({
      deployments: [
        sample("ours", "default", 300, { upMs: 48_000, destroyMs: 39_900 }),
        sample("floor", "default", 300, { upMs: 35_800, destroyMs: 31_900 }),
      ],
      plain: [],
    });
    expect(
      row(all, "2", "engine floor (a dynamic provider that calls nothing), S = 300, default"),
    ).toMatchObject({
      value: "up 35.8 s / destroy 31.9 s (ours 48.0 s / 39.9 s)",
      verdict: "info",
    });
    // The floor explains; it never judges: ours still misses on its own numbers.
    expect(row(all, "2", "`up` at S = 300").verdict).toBe("MISSED");
    const floorOnly = rows({ deployments: [sample("floor", "default", 300, { upMs: 1 })], plain: [] });
    expect(row(floorOnly, "2", "engine floor").value).toContain("(ours not run)");
  });

  it("says the engine floor of goal 2 was not measured without a default-settings run at S = 300", () => {
    for (const deployments of [[], [sample("floor", "skip", 300)], [sample("floor", "default", 100)]]) {
      expect(row(rows({ deployments, plain: [] }), "2", "engine floor")).toMatchObject({
        value: "(needs BENCH_FLOOR_SHOPS with 300, BENCH_SETTINGS with default)",
        verdict: "not measured",
      });
    }
  });

  it("prints the engine floor's state as a share of naive's per naive size and setting, only where both ran", () => {
    const all = rows({
      deployments: [
        sample("naive", "default", 10, { stateBytes: 8595 * 30 }),
        sample("floor", "default", 10, { stateBytes: 1245 * 30 }),
        sample("naive", "skip", 10),
        sample("naive", "default", 100),
        sample("floor", "skip", 100),
      ],
      plain: [],
    });
    expect(row(all, "5", "engine floor's state vs naive's, S = 10, default")).toMatchObject({
      value: "37,350 B vs 257,850 B (14%)",
      verdict: "info",
    });
    const floorRows = all.filter((r) => r.measure.startsWith("engine floor's state"));
    expect(floorRows).toHaveLength(1);
  });

  it("prints the engine floor's stack file per resource for every size it ran, and nothing without it", () => {
    const all = rows({
      deployments: [
        sample("floor", "default", 10, { stateBytes: 1300 * 30 }),
        sample("floor", "skip", 10, { stateBytes: 1300 * 30 }),
        sample("floor", "default", 300, { stateBytes: 1245 * 900 }),
      ],
      plain: [],
    });
    expect(row(all, "1", "stack file per resource, engine floor, S = 10")).toMatchObject({
      value: "1,300 B",
      verdict: "info",
    });
    expect(row(all, "1", "stack file per resource, engine floor, S = 300").value).toBe("1,245 B");
    expect(all.filter((r) => r.measure.includes("engine floor, S ="))).toHaveLength(2);
    const without = rows({
      deployments: [sample("ours", "default", 10), sample("naive", "default", 10)],
      plain: [],
    });
    expect(without.filter((r) => r.measure.includes("engine floor") && r.verdict !== "not measured")).toEqual(
      [],
    );
  });
});
