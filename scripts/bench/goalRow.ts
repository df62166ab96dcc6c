/** The targets of issue 15 and the row every goal prints, with the helpers all goal rows share. */
import type { BenchData, DeploymentSample } from "./samples";

/** The targets of issue 15. */
export const GOALS = {
  /** Goal 1: `__provider` bytes per resource. */
  providerBytes: 400,
  /** Goal 2: `up` and `destroy` each at most this long at {@link GOALS.defaultAtShops}, default settings. */
  defaultOperationMs: 35_000,
  defaultAtShops: 300,
  /** Goal 3: time per resource at `linearTo` shops within `linearRatio` x that at `linearFrom`. */
  linearRatio: 1.25,
  linearFrom: 100,
  linearTo: 1000,
  /** Goal 4: API calls at `callsAtShops`. */
  callsAtShops: 100,
  upCalls: 300,
  destroyCalls: 400,
  /** Goal 5: our state at most this fraction of the naive provider's. */
  naiveStateFraction: 0.1,
} as const;

/** The verdict of one goal row. */
type Verdict = "met" | "MISSED" | "not measured" | "info";

/** One printed row: which goal, what was measured, its value, the target, the verdict. */
export interface GoalRow {
  readonly goal: string;
  readonly measure: string;
  readonly value: string;
  readonly target: string;
  readonly verdict: Verdict;
}

/** `met` when `ok`, `MISSED` otherwise. */
export function verdict(ok: boolean): Verdict {
  return ok ? "met" : "MISSED";
}

/** A row of a goal that this run did not measure, saying what it needs (`how`). */
export function notMeasured(goal: string, measure: string, target: string, how: string): GoalRow {
  return { goal, measure, value: `(${how})`, target, verdict: "not measured" };
}

/** The samples of this provider. */
export function ours(data: BenchData): DeploymentSample[] {
  return data.deployments.filter((d) => d.contender === "ours");
}

/** The samples of the engine floor (a dynamic provider that calls nothing). */
export function floor(data: BenchData): DeploymentSample[] {
  return data.deployments.filter((d) => d.contender === "floor");
}

/** The fleet sizes (S) of `samples`, ascending, each once. */
export function sizesOf(samples: readonly DeploymentSample[]): number[] {
  return [...new Set(samples.map((s) => s.shops))].sort((a, b) => a - b);
}
