/**
 * Goal 6 (BENCH_FLEET=1): a fleet as many stacks, deployed side by side by the examples/fleet runner, versus
 * one stack (`scripts/bench/stacksFleet.ts` measures it).
 */
import { type EngineSetting, settingEnv, settingLabel } from "./options";
import type { FleetComparison } from "./samples";
import { measureStacksVersusOne } from "./stacksFleet";

/** What goal 6 compares: `shops` as `stacks` stacks, `concurrency` at a time, with `latencyMs` per call. */
interface FleetGoalOptions {
  readonly shops: number;
  readonly stacks: number;
  readonly concurrency: number;
  readonly latencyMs: number;
  /** The engine setting of every stack (the safe one: one stack of 1,000 under the defaults takes ~20 min). */
  readonly setting: EngineSetting;
}

/** Runs goal 6: `shops` as `stacks` stacks versus one stack. */
export async function measureFleetGoal(options: FleetGoalOptions): Promise<FleetComparison> {
  console.log(
    `... goal 6: ${options.shops} shops as ${options.stacks} stacks vs one stack (${settingLabel(options.setting)})`,
  );
  const result = await measureStacksVersusOne({ ...options, env: settingEnv(options.setting) });
  return {
    shops: options.shops,
    stacks: options.stacks,
    oneStackUpMs: result.oneStackUpMs,
    oneStackDestroyMs: result.oneStackDestroyMs,
    manyStacksUpMs: result.manyStacksUpMs,
    manyStacksDestroyMs: result.manyStacksDestroyMs,
  };
}
