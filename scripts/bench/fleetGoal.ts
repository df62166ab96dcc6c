/**
 * HOOK FOR GOAL 6 (BENCH_FLEET=1): "1,000 shops as 10 stacks of 100 vs one stack of 1,000".
 *
 * The measurement lives in `scripts/bench/stacksFleet.ts`, written by the fleet work (examples/fleet), which
 * exports `measureStacksVersusOne({ shops, stacks, concurrency, latencyMs })`. This branch does not have that
 * file, and TypeScript cannot import a module that may be missing, so it is loaded at run time from the
 * compiled output. Once the file is merged, replace {@link loadStacksFleet} with a static import.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FleetComparison } from "./samples";

/** What `measureStacksVersusOne` takes (agreed with the fleet work). */
export interface StacksVersusOneOptions {
  readonly shops: number;
  readonly stacks: number;
  /** Stacks deployed side by side. */
  readonly concurrency: number;
  /** Added latency of every API call in the simulator. */
  readonly latencyMs: number;
}

/** The fields of its answer this bench prints (it may return more). */
export interface StacksVersusOneResult {
  readonly oneStackUpMs: number;
  readonly oneStackDestroyMs: number;
  readonly manyStacksUpMs: number;
  readonly manyStacksDestroyMs: number;
}

type MeasureStacksVersusOne = (options: StacksVersusOneOptions) => Promise<StacksVersusOneResult>;

/** The compiled `stacksFleet.js` beside this module, or undefined when it has not been merged yet. */
export function loadStacksFleet(dir = __dirname): MeasureStacksVersusOne | undefined {
  const file = join(dir, "stacksFleet.js");
  if (!existsSync(file)) return undefined;
  const loaded = require(file) as { measureStacksVersusOne?: unknown };
  if (typeof loaded.measureStacksVersusOne !== "function") {
    throw new Error(`${file} does not export measureStacksVersusOne`);
  }
  return loaded.measureStacksVersusOne as MeasureStacksVersusOne;
}

/**
 * Runs goal 6 when BENCH_FLEET=1 (`shops` as `stacks` stacks vs one stack); undefined (printed "not
 * measured") when the module is missing.
 */
export async function measureFleetGoal(
  options: StacksVersusOneOptions,
): Promise<FleetComparison | undefined> {
  const measure = loadStacksFleet();
  if (measure === undefined) {
    console.log("  goal 6: scripts/bench/stacksFleet.ts is not in this build; not measured");
    return undefined;
  }
  console.log(`... goal 6: ${options.shops} shops as ${options.stacks} stacks vs one stack`);
  const result = await measure(options);
  return { shops: options.shops, stacks: options.stacks, ...result };
}
