/** The environment knobs of `npm run bench`. */
import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, parseOptions, runsAt, settingEnv } from "../../scripts/bench/options";

describe("parseOptions", () => {
  it("defaults to the sizes and settings the benchmark's goals name (docs/performance.md)", () => {
    expect(parseOptions({})).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS.shops).toEqual([10, 100, 300, 1000]);
    expect(DEFAULT_OPTIONS.naiveShops).toEqual([10, 100, 300]);
    expect(DEFAULT_OPTIONS.floorShops).toEqual([10, 100, 300]);
    expect(DEFAULT_OPTIONS.settings).toEqual(["default", "skip"]);
    // Skip-checkpoints is the safe setting: test/state/skipCheckpoints.faults.test.ts kills `up` mid-way.
    expect(DEFAULT_OPTIONS.safeSetting).toBe("skip");
  });

  it("reads small sizes, one setting, the safe setting and the fleet switch", () => {
    const options = parseOptions({
      BENCH_SHOPS: "10, 1,10",
      BENCH_RUNS: "2",
      BENCH_NAIVE_SHOPS: "none",
      BENCH_SETTINGS: "skip",
      BENCH_SAFE_SETTING: "default",
      BENCH_FLEET: "1",
      BENCH_FLEET_SHOPS: "20",
      BENCH_FLEET_STACKS: "4",
      BENCH_DETAILS: "0",
      BENCH_TRACE: "1",
    });
    expect(options).toMatchObject({
      shops: [1, 10],
      runs: 2,
      naiveShops: [],
      settings: ["skip"],
      safeSetting: "default",
      fleet: true,
      fleetShops: 20,
      fleetStacks: 4,
      details: false,
      trace: true,
    });
  });

  it("takes the median of several runs at small sizes, where one run flips a verdict with noise", () => {
    const defaults = parseOptions({});
    expect(runsAt(defaults, 10)).toBe(3);
    expect(runsAt(defaults, 100)).toBe(3);
    expect(runsAt(defaults, 300)).toBe(1);
    const options = parseOptions({ BENCH_RUNS: "5", BENCH_SMALL_RUNS: "2" });
    expect(runsAt(options, 10)).toBe(5);
    expect(runsAt(options, 1000)).toBe(5);
    expect(runsAt(parseOptions({ BENCH_SMALL_RUNS: "1" }), 10)).toBe(1);
    expect(() => parseOptions({ BENCH_SMALL_RUNS: "0" })).toThrow(/BENCH_SMALL_RUNS/);
  });

  it("reads the engine floor's sizes like the naive ones, and switches it off with 0 or none", () => {
    expect(parseOptions({ BENCH_FLOOR_SHOPS: "300, 10,300" }).floorShops).toEqual([10, 300]);
    expect(parseOptions({ BENCH_FLOOR_SHOPS: " " }).floorShops).toEqual(DEFAULT_OPTIONS.floorShops);
    expect(parseOptions({ BENCH_FLOOR_SHOPS: "0" }).floorShops).toEqual([]);
    expect(parseOptions({ BENCH_FLOOR_SHOPS: " none " }).floorShops).toEqual([]);
    // Switching the floor off leaves the naive provider's sizes alone, and the other way round.
    expect(parseOptions({ BENCH_FLOOR_SHOPS: "none" }).naiveShops).toEqual(DEFAULT_OPTIONS.naiveShops);
    expect(parseOptions({ BENCH_NAIVE_SHOPS: "none" }).floorShops).toEqual(DEFAULT_OPTIONS.floorShops);
  });

  it("refuses a value it cannot use, naming the variable", () => {
    expect(() => parseOptions({ BENCH_FLOOR_SHOPS: "10,x" })).toThrow(/BENCH_FLOOR_SHOPS="10,x"/);
    expect(() => parseOptions({ BENCH_FLOOR_SHOPS: "-1" })).toThrow(/BENCH_FLOOR_SHOPS/);
    expect(() => parseOptions({ BENCH_SHOPS: "10,abc" })).toThrow(/BENCH_SHOPS="10,abc"/);
    expect(() => parseOptions({ BENCH_SHOPS: "0" })).toThrow(/BENCH_SHOPS/);
    expect(() => parseOptions({ BENCH_RUNS: "1.5" })).toThrow(/BENCH_RUNS/);
    expect(() => parseOptions({ BENCH_SETTINGS: "default,fast" })).toThrow(
      /BENCH_SETTINGS="fast".*default, skip/,
    );
    expect(() => parseOptions({ BENCH_SAFE_SETTING: "yes" })).toThrow(/BENCH_SAFE_SETTING/);
  });

  it("passes PULUMI_SKIP_CHECKPOINTS=true to the engine for skip, and nothing for default", () => {
    expect(settingEnv("skip")).toEqual({ PULUMI_SKIP_CHECKPOINTS: "true" });
    expect(settingEnv("default")).toEqual({});
  });
});
