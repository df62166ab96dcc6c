/** The comparison goals of issue 15: ours against the naive provider and the engine floor (5), and the fleet (6). */
import { bytes, count, seconds } from "./format";
import { GOALS, type GoalRow, notMeasured, verdict } from "./goalRow";
import { settingLabel } from "./options";
import { type BenchData, findDeployment } from "./samples";

/** Goal 5: ours against the naive provider at each size both ran (time, destroy calls, state bytes). */
export function naiveRows(data: BenchData): GoalRow[] {
  const rows: GoalRow[] = [];
  const naive = data.deployments.filter((d) => d.contender === "naive");
  for (const theirs of naive) {
    const mine = findDeployment(data, "ours", theirs.setting, theirs.shops);
    const where = `S = ${count(theirs.shops)}, ${settingLabel(theirs.setting)}`;
    if (mine === undefined) {
      rows.push(
        notMeasured("5 vs naive", `ours faster, ${where}`, "both lower", "ours not run at this size"),
      );
      continue;
    }
    rows.push({
      goal: "5 vs naive",
      measure: `ours faster (up, destroy), ${where}`,
      value: `${seconds(mine.upMs)} vs ${seconds(theirs.upMs)}, ${seconds(mine.destroyMs)} vs ${seconds(theirs.destroyMs)}`,
      target: "both lower",
      verdict: verdict(mine.upMs < theirs.upMs && mine.destroyMs < theirs.destroyMs),
    });
    rows.push({
      goal: "5 vs naive",
      measure: `fewer destroy calls, ${where}`,
      value: `${count(mine.destroyCalls)} vs ${count(theirs.destroyCalls)}`,
      target: "lower",
      verdict: verdict(mine.destroyCalls < theirs.destroyCalls),
    });
    const share = mine.stateBytes / theirs.stateBytes;
    rows.push({
      goal: "5 vs naive",
      measure: `state bytes a tenth of naive's, ${where}`,
      value: `${bytes(mine.stateBytes)} vs ${bytes(theirs.stateBytes)} (${(100 * share).toFixed(0)}%)`,
      target: `<= ${100 * GOALS.naiveStateFraction}%`,
      verdict: verdict(share <= GOALS.naiveStateFraction),
    });
  }
  if (naive.length === 0)
    rows.push(
      notMeasured(
        "5 vs naive",
        "ours against the naive provider",
        "faster, fewer calls, 1/10 bytes",
        "BENCH_NAIVE_SHOPS=none",
      ),
    );
  return rows;
}

/** Goal 5's reach: the engine floor's state as a share of naive's (can any dynamic provider be a tenth?). */
export function floorStateRows(data: BenchData): GoalRow[] {
  const rows: GoalRow[] = [];
  for (const theirs of data.deployments.filter((d) => d.contender === "naive")) {
    const base = findDeployment(data, "floor", theirs.setting, theirs.shops);
    if (base === undefined) continue;
    const share = base.stateBytes / theirs.stateBytes;
    rows.push({
      goal: "5 vs naive",
      measure: `engine floor's state vs naive's, S = ${count(theirs.shops)}, ${settingLabel(theirs.setting)}`,
      value: `${bytes(base.stateBytes)} vs ${bytes(theirs.stateBytes)} (${(100 * share).toFixed(0)}%)`,
      target: `(ours must be <= ${100 * GOALS.naiveStateFraction}%)`,
      verdict: "info",
    });
  }
  return rows;
}

/** Goal 6: a fleet as many stacks against one stack (a comparison, not judged). */
export function fleetRows(data: BenchData): GoalRow[] {
  const f = data.fleet;
  const measure = "1,000 shops as 10 stacks of 100 vs one stack of 1,000";
  if (f === undefined)
    return [
      notMeasured(
        "6 fleet",
        measure,
        "(comparison)",
        "run with BENCH_FLEET=1; needs scripts/bench/stacksFleet.ts",
      ),
    ];
  return [
    {
      goal: "6 fleet",
      measure: `${count(f.shops)} shops as ${f.stacks} stacks of ${count(f.shops / f.stacks)} vs one stack (up, destroy)`,
      value: `${seconds(f.manyStacksUpMs)} vs ${seconds(f.oneStackUpMs)}, ${seconds(f.manyStacksDestroyMs)} vs ${seconds(f.oneStackDestroyMs)}`,
      target: "(comparison)",
      verdict: "info",
    },
  ];
}
