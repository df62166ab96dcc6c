import { fleetRows, floorStateRows, naiveRows } from "./comparisonRows";
import { byMethod, bytes, count, millis, seconds } from "./format";
import { floor, GOALS, type GoalRow, notMeasured, ours, sizesOf, verdict } from "./goalRow";
import { exponentBound, fitGrowth } from "./growth";
import { type EngineSetting, settingLabel } from "./options";
import { type BenchData, type DeploymentSample, findDeployment, perResource } from "./samples";

/** The targets of issue 15 and the row every goal prints (`goalRow.ts`, with the verdict). */
export { GOALS, type GoalRow } from "./goalRow";

/** Rounding allowance of the fitted exponent at the goal's boundary. */
const FIT_TOLERANCE = 1e-9;

/** The measure of goal 2's engine-floor row. */
const FLOOR_DEFAULT_MEASURE = `engine floor (a dynamic provider that calls nothing), S = ${GOALS.defaultAtShops}, default`;

function bytesRows(data: BenchData): GoalRow[] {
  const rows: GoalRow[] = [];
  for (const shops of sizesOf(ours(data))) {
    const sample = ours(data).find((d) => d.shops === shops);
    if (sample === undefined) continue;
    rows.push({
      goal: "1 bytes",
      measure: `\`__provider\` per resource, S = ${count(shops)}`,
      value: bytes(sample.providerBytes),
      target: `<= ${bytes(GOALS.providerBytes)}`,
      verdict: verdict(sample.providerBytes <= GOALS.providerBytes),
    });
    rows.push({
      goal: "1 bytes",
      measure: `stack file per resource, S = ${count(shops)}`,
      value: bytes(perResource(sample.stateBytes, sample.resources)),
      target: "as small as the provider allows",
      verdict: "info",
    });
  }
  for (const shops of sizesOf(floor(data))) {
    const sample = floor(data).find((d) => d.shops === shops);
    if (sample === undefined) continue;
    rows.push({
      goal: "1 bytes",
      measure: `stack file per resource, engine floor, S = ${count(shops)}`,
      value: bytes(perResource(sample.stateBytes, sample.resources)),
      target: "(what the engine stores for these inputs)",
      verdict: "info",
    });
  }
  return rows;
}

function defaultSettingsRows(data: BenchData): GoalRow[] {
  const sample = findDeployment(data, "ours", "default", GOALS.defaultAtShops);
  const target = `<= ${seconds(GOALS.defaultOperationMs)}`;
  return (["up", "destroy"] as const).map((op) => {
    const measure = `\`${op}\` at S = ${GOALS.defaultAtShops}, default settings`;
    if (sample === undefined) {
      return notMeasured(
        "2 default settings",
        measure,
        target,
        "needs BENCH_SHOPS with 300, BENCH_SETTINGS with default",
      );
    }
    const ms = op === "up" ? sample.upMs : sample.destroyMs;
    return {
      goal: "2 default settings",
      measure,
      value: seconds(ms),
      target,
      verdict: verdict(ms <= GOALS.defaultOperationMs),
    };
  });
}

/** Goal 2's engine floor: `up` / `destroy` of a provider that calls nothing, next to ours (explains, not judged). */
function floorDefaultRow(data: BenchData): GoalRow {
  const theirs = findDeployment(data, "floor", "default", GOALS.defaultAtShops);
  const target = `(the engine's share of <= ${seconds(GOALS.defaultOperationMs)})`;
  if (theirs === undefined) {
    return notMeasured(
      "2 default settings",
      FLOOR_DEFAULT_MEASURE,
      target,
      "needs BENCH_FLOOR_SHOPS with 300, BENCH_SETTINGS with default",
    );
  }
  const mine = findDeployment(data, "ours", "default", GOALS.defaultAtShops);
  const floorTimes = `up ${seconds(theirs.upMs)} / destroy ${seconds(theirs.destroyMs)}`;
  return {
    goal: "2 default settings",
    measure: FLOOR_DEFAULT_MEASURE,
    value:
      mine === undefined
        ? `${floorTimes} (ours not run)`
        : `${floorTimes} (ours ${seconds(mine.upMs)} / ${seconds(mine.destroyMs)})`,
    target,
    verdict: "info",
  };
}

/**
 * The samples the exponent is fitted on: S >= `fitMinShops` when at least two sizes qualify (`judged`), else
 * all of them, printed but not judged (small fleets measure the CLI's start-up, not growth).
 */
function fitSamples(
  samples: readonly DeploymentSample[],
  fitMinShops: number,
): { used: DeploymentSample[]; judged: boolean } {
  const large = samples.filter((s) => s.shops >= fitMinShops);
  return new Set(large.map((s) => s.shops)).size >= 2
    ? { used: large, judged: true }
    : { used: [...samples], judged: false };
}

function linearRows(
  data: BenchData,
  settings: readonly EngineSetting[],
  safe: EngineSetting,
  fitMinShops: number,
): GoalRow[] {
  const rows: GoalRow[] = [];
  // The bound is where the ratio goal sits exactly; allow for rounding of the least-squares sums.
  const bound = exponentBound(GOALS.linearRatio, GOALS.linearTo / GOALS.linearFrom) + FIT_TOLERANCE;
  for (const setting of settings) {
    const samples = ours(data).filter((d) => d.setting === setting);
    for (const s of samples) {
      rows.push({
        goal: "3 linear",
        measure: `time per resource up / destroy, S = ${count(s.shops)}, ${settingLabel(setting)}`,
        value: `${millis(perResource(s.upMs, s.resources))} / ${millis(perResource(s.destroyMs, s.resources))}`,
        target: "flat in S",
        verdict: "info",
      });
    }
    const { used, judged } = fitSamples(samples, fitMinShops);
    const up = fitGrowth(used.map((s) => ({ resources: s.resources, ms: s.upMs })));
    const destroy = fitGrowth(used.map((s) => ({ resources: s.resources, ms: s.destroyMs })));
    const measure = `growth exponent up / destroy, ${settingLabel(setting)}${setting === safe ? " (safe)" : ""}, S = ${sizesOf(used).join(", ")}${judged ? "" : ` (not judged: fewer than two sizes >= ${fitMinShops})`}`;
    const target = setting === safe ? `<= ${bound.toFixed(2)} (1 is linear)` : "1 is linear";
    if (up === undefined || destroy === undefined) {
      rows.push(notMeasured("3 linear", measure, target, "needs two sizes"));
      continue;
    }
    rows.push({
      goal: "3 linear",
      measure,
      value: `${up.exponent.toFixed(2)} / ${destroy.exponent.toFixed(2)}`,
      target,
      verdict:
        setting === safe && judged ? verdict(up.exponent <= bound && destroy.exponent <= bound) : "info",
    });
  }
  const from = findDeployment(data, "ours", safe, GOALS.linearFrom);
  const to = findDeployment(data, "ours", safe, GOALS.linearTo);
  for (const op of ["up", "destroy"] as const) {
    const measure = `\`${op}\` time per resource at S = 1,000 / at S = 100, ${settingLabel(safe)} (safe)`;
    const target = `<= ${GOALS.linearRatio}x`;
    if (from === undefined || to === undefined) {
      rows.push(
        notMeasured(
          "3 linear",
          measure,
          target,
          `needs BENCH_SHOPS with 100 and 1000, BENCH_SETTINGS with ${safe}`,
        ),
      );
      continue;
    }
    const key = op === "up" ? "upMs" : "destroyMs";
    const ratio = perResource(to[key], to.resources) / perResource(from[key], from.resources);
    rows.push({
      goal: "3 linear",
      measure,
      value: `${ratio.toFixed(2)}x`,
      target,
      verdict: verdict(ratio <= GOALS.linearRatio),
    });
  }
  return rows;
}

function callRows(data: BenchData, settings: readonly EngineSetting[]): GoalRow[] {
  const rows: GoalRow[] = [];
  for (const setting of settings) {
    const sample = findDeployment(data, "ours", setting, GOALS.callsAtShops);
    for (const op of ["up", "destroy"] as const) {
      const budget = op === "up" ? GOALS.upCalls : GOALS.destroyCalls;
      const measure = `API calls of \`${op}\` at S = ${GOALS.callsAtShops}, ${settingLabel(setting)}`;
      if (sample === undefined) {
        rows.push(notMeasured("4 API calls", measure, `<= ${budget}`, "needs BENCH_SHOPS with 100"));
        continue;
      }
      const calls = op === "up" ? sample.upCalls : sample.destroyCalls;
      const methods = byMethod(op === "up" ? sample.upByMethod : sample.destroyByMethod);
      rows.push({
        goal: "4 API calls",
        measure,
        value: methods === "" ? count(calls) : `${count(calls)} (${methods})`,
        target: `<= ${budget}`,
        verdict: verdict(calls <= budget),
      });
    }
  }
  return rows;
}

/** Every goal of issue 15 as rows, judged on `data`. */
export function goalRows(
  data: BenchData,
  options: { settings: readonly EngineSetting[]; safeSetting: EngineSetting; fitMinShops: number },
): GoalRow[] {
  return [
    ...bytesRows(data),
    ...defaultSettingsRows(data),
    floorDefaultRow(data),
    ...linearRows(data, options.settings, options.safeSetting, options.fitMinShops),
    ...callRows(data, options.settings),
    ...naiveRows(data),
    ...floorStateRows(data),
    ...fleetRows(data),
  ];
}
