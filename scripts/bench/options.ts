/** The engine settings the benchmark compares. */
const ENGINE_SETTINGS = ["default", "skip"] as const;

/** `default`: the engine saves state after every step; `skip`: `PULUMI_SKIP_CHECKPOINTS=true`, one save at the end. */
export type EngineSetting = (typeof ENGINE_SETTINGS)[number];

/** The environment of the CLI (and the provider it starts) for `setting`. */
export function settingEnv(setting: EngineSetting): Record<string, string> {
  return setting === "skip" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
}

/** A human label of `setting`. */
export function settingLabel(setting: EngineSetting): string {
  return setting === "skip" ? "PULUMI_SKIP_CHECKPOINTS=true" : "default";
}

/** What `npm run bench` measures, from the environment. */
export interface BenchOptions {
  /** Fleet sizes S (shops, 3 hooks each) of our provider and of the plain script. */
  readonly shops: readonly number[];
  /** Runs per size; every figure is the median. */
  readonly runs: number;
  /**
   * Runs per size at S <= {@link SMALL_FLEET_MAX_SHOPS} (at least `runs`): small fleets take seconds, and one run
   * there flips a verdict with noise (review 15b: three quiet pairs at S = 10 reversed a one-run verdict).
   */
  readonly smallRuns: number;
  /** Fleet sizes of the naive provider. */
  readonly naiveShops: readonly number[];
  /** Fleet sizes of the engine floor (a dynamic provider that calls nothing, scripts/bench/floor). */
  readonly floorShops: readonly number[];
  /** The engine settings measured. */
  readonly settings: readonly EngineSetting[];
  /** The setting a SIGKILL-mid-`up` test showed safe: the linear-scaling goal is judged on it. */
  readonly safeSetting: EngineSetting;
  /**
   * Largest S measured under a setting other than the safe one (its cost grows with S squared: S = 1,000
   * under the default settings alone takes about 20 minutes); its exponent is fitted on the sizes up to it.
   */
  readonly otherSettingMaxShops: number;
  /** Smallest S used for the growth-exponent fit (smaller fleets are dominated by the CLI's start-up). */
  readonly fitMinShops: number;
  /** Also run goal 6 (1,000 shops as 10 stacks of 100 versus one stack of 1,000). */
  readonly fleet: boolean;
  /** Goal 6's fleet: shops in all, split into `fleetStacks` stacks (1,000 as 10 in the issue). */
  readonly fleetShops: number;
  readonly fleetStacks: number;
  /** Stacks deployed side by side in goal 6. */
  readonly fleetConcurrency: number;
  /** Also run the per-operation API-call table and the cold-start figures. */
  readonly details: boolean;
  /**
   * Trace our provider's engine calls (SHIPPING_TRACE_FILE, provider/operations/trace.ts) and print, after each
   * of our runs, where the slot time went per operation (slotTrace.ts).
   */
  readonly trace: boolean;
}

/** Largest S measured with {@link BenchOptions.smallRuns} runs. */
export const SMALL_FLEET_MAX_SHOPS = 100;

/** The runs at `shops`: the median of several for small fleets, `runs` for large ones. */
export function runsAt(options: Pick<BenchOptions, "runs" | "smallRuns">, shops: number): number {
  return shops <= SMALL_FLEET_MAX_SHOPS ? Math.max(options.runs, options.smallRuns) : options.runs;
}

/** Defaults: the sizes the goals name. */
export const DEFAULT_OPTIONS: BenchOptions = {
  shops: [10, 100, 300, 1000],
  runs: 1,
  smallRuns: 3,
  naiveShops: [10, 100, 300],
  floorShops: [10, 100, 300],
  settings: ENGINE_SETTINGS,
  // test/state/skipCheckpoints.faults.test.ts: SIGKILL mid-`up` under skip-checkpoints leaves no duplicate, no
  // orphan, and state equal to live after the next `up`.
  safeSetting: "skip",
  otherSettingMaxShops: 300,
  fitMinShops: 100,
  fleet: false,
  fleetShops: 1000,
  fleetStacks: 10,
  fleetConcurrency: 4,
  details: true,
  trace: false,
};

function sizes(name: string, value: string | undefined, fallback: readonly number[]): readonly number[] {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = value.split(",").map((part) => Number(part.trim()));
  if (parsed.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`${name}="${value}": expected positive integers separated by commas, e.g. 10,100,300`);
  }
  return [...new Set(parsed)].sort((a, b) => a - b);
}

/** Sizes from `value`, or none for `0` / `none` (a contender switched off). */
function optionalSizes(
  name: string,
  value: string | undefined,
  fallback: readonly number[],
): readonly number[] {
  const trimmed = value?.trim();
  return trimmed === "0" || trimmed === "none" ? [] : sizes(name, trimmed, fallback);
}

function setting(name: string, value: string): EngineSetting {
  const found = ENGINE_SETTINGS.find((s) => s === value.trim());
  if (found === undefined)
    throw new Error(`${name}="${value}": expected one of ${ENGINE_SETTINGS.join(", ")}`);
  return found;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}="${value}": expected a positive integer`);
  return n;
}

/**
 * Reads BENCH_SHOPS, BENCH_RUNS, BENCH_SMALL_RUNS, BENCH_NAIVE_SHOPS and BENCH_FLOOR_SHOPS (`0` or `none`: no
 * naive / engine floor runs), BENCH_SETTINGS (`default,skip`), BENCH_SAFE_SETTING, BENCH_OTHER_SETTING_MAX_SHOPS,
 * BENCH_FIT_MIN_SHOPS, BENCH_FLEET=1, BENCH_FLEET_SHOPS, BENCH_FLEET_STACKS, BENCH_FLEET_CONCURRENCY,
 * BENCH_DETAILS=0 and BENCH_TRACE=1.
 * Throws a message naming the variable for a value it cannot use.
 */
export function parseOptions(env: Readonly<Record<string, string | undefined>>): BenchOptions {
  const settings =
    env.BENCH_SETTINGS === undefined || env.BENCH_SETTINGS.trim() === ""
      ? DEFAULT_OPTIONS.settings
      : [...new Set(env.BENCH_SETTINGS.split(",").map((s) => setting("BENCH_SETTINGS", s)))];
  return {
    shops: sizes("BENCH_SHOPS", env.BENCH_SHOPS, DEFAULT_OPTIONS.shops),
    runs: positive("BENCH_RUNS", env.BENCH_RUNS, DEFAULT_OPTIONS.runs),
    smallRuns: positive("BENCH_SMALL_RUNS", env.BENCH_SMALL_RUNS, DEFAULT_OPTIONS.smallRuns),
    naiveShops: optionalSizes("BENCH_NAIVE_SHOPS", env.BENCH_NAIVE_SHOPS, DEFAULT_OPTIONS.naiveShops),
    floorShops: optionalSizes("BENCH_FLOOR_SHOPS", env.BENCH_FLOOR_SHOPS, DEFAULT_OPTIONS.floorShops),
    settings,
    safeSetting:
      env.BENCH_SAFE_SETTING === undefined || env.BENCH_SAFE_SETTING.trim() === ""
        ? DEFAULT_OPTIONS.safeSetting
        : setting("BENCH_SAFE_SETTING", env.BENCH_SAFE_SETTING),
    otherSettingMaxShops: positive(
      "BENCH_OTHER_SETTING_MAX_SHOPS",
      env.BENCH_OTHER_SETTING_MAX_SHOPS,
      DEFAULT_OPTIONS.otherSettingMaxShops,
    ),
    fitMinShops: positive("BENCH_FIT_MIN_SHOPS", env.BENCH_FIT_MIN_SHOPS, DEFAULT_OPTIONS.fitMinShops),
    fleet: env.BENCH_FLEET === "1" || env.BENCH_FLEET === "true",
    fleetShops: positive("BENCH_FLEET_SHOPS", env.BENCH_FLEET_SHOPS, DEFAULT_OPTIONS.fleetShops),
    fleetStacks: positive("BENCH_FLEET_STACKS", env.BENCH_FLEET_STACKS, DEFAULT_OPTIONS.fleetStacks),
    fleetConcurrency: positive(
      "BENCH_FLEET_CONCURRENCY",
      env.BENCH_FLEET_CONCURRENCY,
      DEFAULT_OPTIONS.fleetConcurrency,
    ),
    details: !(env.BENCH_DETAILS === "0" || env.BENCH_DETAILS === "false"),
    trace: env.BENCH_TRACE === "1" || env.BENCH_TRACE === "true",
  };
}
