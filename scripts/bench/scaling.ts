import { existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { HOOKS } from "../../provider";
import { TRACE_FILE_VARIABLE } from "../../provider/operations/trace";
import { PROVIDER_MODULE } from "../../provider/program/dynamicProvider";
import { type RunningSimulator, type ShopSeed, startSimulator } from "../../simulator";
import { fleetProgram, shopSeeds, shopsConfig } from "./fleet";
import { floorFleetProgram } from "./floor/program";
import { naiveFleetProgram } from "./naive/program";
import { type EngineSetting, settingEnv } from "./options";
import { plainRun } from "./plainClient";
import type { Contender, DeploymentSample, FleetMedians, PlainSample } from "./samples";
import { traceFilesTable } from "./slotTrace";
import { stateFigures } from "./stateFile";
import { median } from "./table";
import { BENCH_STACK_NAME, benchStack, timed } from "./workspace";

/** Added latency of every API call, as a distant service would have. */
export const ADDED_LATENCY_MS = 50;
/** Pulumi's default --parallel on this 2-core machine, used by the plain script too. */
export const PARALLEL = 8;
/** Room in the simulator's request log for the largest fleet's calls. */
const REQUEST_LOG_LIMIT = 100_000;

/**
 * Time the dynamic-provider host takes to compile `__provider` into the provider (once per process; the
 * runtime module it requires is loaded already, its cost is in the cold start). Nothing is serialized: the
 * module text is a constant.
 */
export async function serializationMs(): Promise<number> {
  const requireFromString = require("require-from-string") as (code: string) => { handler(): unknown };
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    requireFromString(PROVIDER_MODULE).handler();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/** The simulator's logged API calls by HTTP method. */
function callsByMethod(sim: RunningSimulator): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of sim.requests()) counts[entry.method] = (counts[entry.method] ?? 0) + 1;
  return counts;
}

/** Per method, the median count over runs (a method absent from a run counts 0 there). */
function medianByMethod(runs: ReadonlyArray<Readonly<Record<string, number>>>): Record<string, number> {
  const methods = [...new Set(runs.flatMap((r) => Object.keys(r)))].sort();
  return Object.fromEntries(methods.map((m) => [m, median(runs.map((r) => r[m] ?? 0))]));
}

function liveSubscriptions(sim: RunningSimulator): number {
  return Object.values(sim.state().shops).reduce((sum, subs) => sum + subs.length, 0);
}

async function freshSimulator(sim: RunningSimulator): Promise<void> {
  await sim.reset();
  sim.addFault({ kind: "latency", ms: ADDED_LATENCY_MS });
}

interface Contestant {
  readonly program: PulumiFn;
  readonly config: Record<string, { value: string; secret: boolean }>;
  readonly typeSuffix: string;
  /** Whether its resources are subscriptions in the simulator (the floor's are not). */
  readonly writesSubscriptions: boolean;
}

function contestant(contender: Contender, seeds: readonly ShopSeed[], baseUrl: string): Contestant {
  if (contender === "naive")
    return {
      program: naiveFleetProgram(seeds, baseUrl),
      config: {},
      typeSuffix: "NaiveWebhook",
      writesSubscriptions: true,
    };
  if (contender === "floor")
    return { program: floorFleetProgram(seeds), config: {}, typeSuffix: "Floor", writesSubscriptions: false };
  return {
    program: fleetProgram(
      () => seeds,
      () => 1,
    ),
    config: { "shipping:shops": { value: shopsConfig(seeds, baseUrl), secret: true } },
    typeSuffix: "WebhookSubscription",
    writesSubscriptions: true,
  };
}

type Measured = Omit<
  DeploymentSample,
  "contender" | "setting" | "shops" | "resources" | "upByMethod" | "destroyByMethod"
> & {
  readonly upByMethod: Record<string, number>;
  readonly destroyByMethod: Record<string, number>;
};
type MeasuredNumber = Exclude<keyof Measured, "upByMethod" | "destroyByMethod">;
/** One run's times and API calls, as every fleet measurement takes them. */
type RunFigures = Omit<FleetMedians, "shops" | "resources">;

/** The fleet of `shops` and the medians of its runs' times and API calls. */
function fleetMedians(shops: number, samples: readonly RunFigures[]): FleetMedians {
  const med = (key: keyof RunFigures) => median(samples.map((s) => s[key]));
  return {
    shops,
    resources: shops * HOOKS.length,
    upMs: med("upMs"),
    destroyMs: med("destroyMs"),
    upCalls: med("upCalls"),
    destroyCalls: med("destroyCalls"),
  };
}

async function deployOnce(
  sim: RunningSimulator,
  seeds: readonly ShopSeed[],
  contender: Contender,
  setting: EngineSetting,
  label: string,
  trace?: string,
): Promise<Measured> {
  await freshSimulator(sim);
  const { program, config, typeSuffix, writesSubscriptions } = contestant(contender, seeds, sim.baseUrl);
  const traced = trace === undefined ? {} : { [TRACE_FILE_VARIABLE]: `${trace}.jsonl` };
  const bench = await benchStack(`${contender}-${setting}-s${seeds.length}`, program, config, {
    ...settingEnv(setting),
    ...traced,
  });
  /** Keeps what the trace file holds as `command`'s, and prints its summary. */
  const traceOf = (command: "up" | "destroy") => {
    if (trace === undefined || !existsSync(`${trace}.jsonl`)) return;
    renameSync(`${trace}.jsonl`, `${trace}-${command}.jsonl`);
    console.log(
      `\n  Slot time of ${label}: ${command} (${trace}-${command}.jsonl)\n\n${traceFilesTable([`${trace}-${command}.jsonl`])}\n`,
    );
  };
  try {
    const upMs = await timed(() => bench.stack.up({ parallel: PARALLEL }), `${label}: up`);
    traceOf("up");
    const upCalls = sim.requests().length;
    const upByMethod = callsByMethod(sim);
    const state = stateFigures(bench.backendDir, BENCH_STACK_NAME, typeSuffix);
    const expected = seeds.length * HOOKS.length;
    const expectedLive = writesSubscriptions ? expected : 0;
    if (state.resources !== expected || liveSubscriptions(sim) !== expectedLive) {
      throw new Error(
        `${label}: expected ${expected} resources in state and ${expectedLive} subscriptions live, got ${state.resources} in state, ${liveSubscriptions(sim)} live`,
      );
    }
    sim.clearRequests();
    const destroyMs = await timed(() => bench.stack.destroy({ parallel: PARALLEL }), `${label}: destroy`);
    traceOf("destroy");
    const destroyCalls = sim.requests().length;
    const destroyByMethod = callsByMethod(sim);
    if (liveSubscriptions(sim) !== 0)
      throw new Error(`${label}: destroy left ${liveSubscriptions(sim)} subscriptions`);
    return {
      upMs,
      destroyMs,
      upCalls,
      destroyCalls,
      upByMethod,
      destroyByMethod,
      providerBytes: state.providerBytes,
      stateBytes: state.stateBytes,
    };
  } finally {
    bench.remove();
  }
}

/**
 * `up` then `destroy` of S shops x 3 hooks with `contender`'s provider under `setting`; medians of `runs`.
 * With `traceDir`, our provider's engine calls are traced there (a file per run and command) and summarised.
 */
export async function measureDeployment(
  contender: Contender,
  setting: EngineSetting,
  shops: number,
  runs: number,
  traceDir?: string,
): Promise<DeploymentSample> {
  const seeds = shopSeeds(shops);
  const sim = await startSimulator({ shops: seeds, requestLogLimit: REQUEST_LOG_LIMIT });
  const samples: Measured[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      samples.push(
        await deployOnce(
          sim,
          seeds,
          contender,
          setting,
          `${contender} ${setting} S=${shops} run ${run}/${runs}`,
          contender === "ours" && traceDir !== undefined
            ? join(traceDir, `${contender}-${setting}-s${shops}-run${run}`)
            : undefined,
        ),
      );
    }
  } finally {
    await sim.close();
  }
  const med = (key: MeasuredNumber) => median(samples.map((s) => s[key]));
  return {
    contender,
    setting,
    ...fleetMedians(shops, samples),
    upByMethod: medianByMethod(samples.map((s) => s.upByMethod)),
    destroyByMethod: medianByMethod(samples.map((s) => s.destroyByMethod)),
    providerBytes: med("providerBytes"),
    stateBytes: med("stateBytes"),
  };
}

/** The plain script's `up` and `destroy` of the same fleet (the lower bound); medians of `runs`. */
export async function measurePlain(shops: number, runs: number): Promise<PlainSample> {
  const seeds = shopSeeds(shops);
  const sim = await startSimulator({ shops: seeds, requestLogLimit: REQUEST_LOG_LIMIT });
  const samples: RunFigures[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      await freshSimulator(sim);
      const upMs = await plainRun(sim.baseUrl, seeds, "up", PARALLEL);
      const upCalls = sim.requests().length;
      sim.clearRequests();
      const ids = new Map(seeds.map((s) => [s.name, sim.subscriptions(s.name).map((x) => x.id)]));
      const destroyMs = await plainRun(sim.baseUrl, seeds, "destroy", PARALLEL, ids);
      const destroyCalls = sim.requests().length;
      if (liveSubscriptions(sim) !== 0) throw new Error(`plain S=${shops}: destroy left subscriptions`);
      console.log(
        `  plain S=${shops} run ${run}/${runs}: up ${(upMs / 1000).toFixed(1)} s, destroy ${(destroyMs / 1000).toFixed(1)} s`,
      );
      samples.push({ upMs, destroyMs, upCalls, destroyCalls });
    }
  } finally {
    await sim.close();
  }
  return fleetMedians(shops, samples);
}
