import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Fleet, type FleetGroup, groupName, splitEvenly } from "../../examples/fleet/fleet";
import { type FleetOperation, type FleetResult, runFleet } from "../../examples/fleet/runner";
import { HOOKS } from "../../provider";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { pulumiCommand } from "../lib/pulumiCli";
import { DEMO_PASSPHRASE } from "../lib/stacks";
import { callbackUrl, shopSeeds } from "./fleet";
import { PARALLEL } from "./scaling";

const REPO_ROOT = resolve(__dirname, "..", "..", "..");
/** Bound of one stack's operation: a single stack of 1,000 shops may take many minutes on the file backend. */
const STACK_TIMEOUT_MS = 90 * 60_000;

/** What to compare: `shops` shops x 3 hooks as one stack, and as `stacks` stacks run `concurrency` at a time. */
interface StacksVersusOneOptions {
  readonly shops: number;
  readonly stacks: number;
  /** Stacks running at once in the many-stacks run (the one-stack run has one). */
  readonly concurrency: number;
  /** Added latency of every API call (the simulator's latency fault), as in the scaling benchmark. */
  readonly latencyMs: number;
  /** The engine's --parallel within each stack; default {@link PARALLEL}, as in the scaling benchmark. */
  readonly parallel?: number;
  /** Extra environment of every CLI, e.g. `{ PULUMI_SKIP_CHECKPOINTS: "true" }` to compare settings. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Wall times, API calls and state sizes of both layouts. */
interface StacksVersusOneResult {
  readonly shops: number;
  readonly stacks: number;
  readonly concurrency: number;
  readonly latencyMs: number;
  readonly parallel: number;
  readonly resources: number;
  readonly oneStackUpMs: number;
  readonly oneStackDestroyMs: number;
  readonly manyStacksUpMs: number;
  readonly manyStacksDestroyMs: number;
  /** The slowest single stack of the many-stacks run: the wall time with unbounded concurrency. */
  readonly slowestStackUpMs: number;
  readonly slowestStackDestroyMs: number;
  readonly oneStackUpCalls: number;
  readonly oneStackDestroyCalls: number;
  readonly manyStacksUpCalls: number;
  readonly manyStacksDestroyCalls: number;
  /** Bytes of the one stack's state file after `up`. */
  readonly oneStackFileBytes: number;
  /** Bytes of the largest state file of the many stacks after `up`. */
  readonly manyStacksLargestFileBytes: number;
}

/** The fleet of `seeds` split into `stacks` groups; each shop has the three hooks at their bench URLs. */
function benchFleet(shopNames: readonly string[], stacks: number, baseUrl: string): Fleet {
  const parts = splitEvenly(shopNames, stacks);
  const groups: FleetGroup[] = parts.map((names, i) => ({
    stack: groupName(i, parts.length),
    shops: names.map((name) => ({
      name,
      hooks: HOOKS.map((hook) => ({ hook, url: callbackUrl(name, hook) })),
    })),
  }));
  return { project: "bench-fleet", baseUrl, groups };
}

/** Bytes of the largest stack file in a file backend. */
function largestStackFile(backendDir: string, project: string): number {
  const dir = join(backendDir, ".pulumi", "stacks", project);
  const sizes = readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => statSync(join(dir, name)).size);
  return Math.max(0, ...sizes);
}

/** Throws naming every failed stack and its error: a benchmark of a failed run would mean nothing. */
function requireSuccess(result: FleetResult, what: string): FleetResult {
  const failed = result.stacks.filter((s) => s.status !== "done");
  if (failed.length > 0) {
    throw new Error(
      `${what}: ${failed.length} stack(s) failed: ${failed.map((s) => `${s.stack}: ${s.error} (log: ${s.logFile})`).join("; ")}`,
    );
  }
  return result;
}

/** Deploys and destroys `fleet` with the runner; measures each, and checks the shops before and after. */
async function upAndDestroy(
  sim: RunningSimulator,
  fleet: Fleet,
  options: StacksVersusOneOptions,
  concurrency: number,
  label: string,
): Promise<{
  up: FleetResult;
  destroy: FleetResult;
  upCalls: number;
  destroyCalls: number;
  fileBytes: number;
}> {
  const root = join(REPO_ROOT, ".tmp", "bench", `${label}-${randomBytes(4).toString("hex")}`);
  const backendDir = join(root, "backend");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
    PULUMI_HOME: join(REPO_ROOT, ".tmp", "bench", "home"),
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    SHIPPING_SHOPS: JSON.stringify(
      Object.fromEntries(
        fleet.groups.flatMap((g) => g.shops).map((shop) => [shop.name, { apiKey: `bench-key-${shop.name}` }]),
      ),
    ),
    ...options.env,
  };
  const command = await pulumiCommand();
  const run = async (operation: FleetOperation) =>
    requireSuccess(
      await runFleet({
        fleet,
        operation,
        concurrency,
        workRoot: join(root, "work"),
        backendUrl: `file://${backendDir}`,
        env,
        parallel: options.parallel ?? PARALLEL,
        stackTimeoutMs: STACK_TIMEOUT_MS,
        pulumiCommand: command,
      }),
      `${label} ${operation}`,
    );
  sim.reset();
  sim.addFault({ kind: "latency", ms: options.latencyMs });
  const up = await run("up");
  const upCalls = sim.requests().length;
  const live = fleet.groups
    .flatMap((g) => g.shops)
    .reduce((n, shop) => n + sim.subscriptions(shop.name).length, 0);
  if (live !== options.shops * HOOKS.length) {
    throw new Error(
      `${label} up: expected ${options.shops * HOOKS.length} live subscriptions, found ${live}`,
    );
  }
  const fileBytes = largestStackFile(backendDir, fleet.project);
  sim.clearRequests();
  const destroy = await run("destroy");
  const destroyCalls = sim.requests().length;
  const left = fleet.groups.flatMap((g) => g.shops).filter((shop) => sim.subscriptions(shop.name).length > 0);
  if (left.length > 0) throw new Error(`${label} destroy: ${left.length} shop(s) still have subscriptions`);
  return { up, destroy, upCalls, destroyCalls, fileBytes };
}

/**
 * Issue 15 item 6: `shops` shops x 3 hooks deployed and destroyed as one stack, then as `stacks` stacks of
 * shops/stacks each, `concurrency` at a time, with the examples/fleet runner (the same code users run), against
 * the simulator with `latencyMs` added to every API call. One run each; the caller takes medians.
 */
export async function measureStacksVersusOne(
  options: StacksVersusOneOptions,
): Promise<StacksVersusOneResult> {
  const { shops, stacks, concurrency, latencyMs } = options;
  if (!Number.isInteger(shops) || shops < 1 || !Number.isInteger(stacks) || stacks < 1 || stacks > shops) {
    throw new Error(`need whole numbers 1 <= stacks (${stacks}) <= shops (${shops})`);
  }
  const seeds = shopSeeds(shops);
  const names = seeds.map((s) => s.name);
  // A log big enough to keep every request of the largest run, so the call counts are complete.
  const sim = await startSimulator({
    shops: seeds,
    requestLogLimit: Math.max(100_000, shops * 20),
    requestLogBytes: 512 * 1024 * 1024,
  });
  try {
    const one = await upAndDestroy(sim, benchFleet(names, 1, sim.baseUrl), options, 1, `fleet-one-s${shops}`);
    const many = await upAndDestroy(
      sim,
      benchFleet(names, stacks, sim.baseUrl),
      options,
      concurrency,
      `fleet-many-s${shops}x${stacks}`,
    );
    return {
      shops,
      stacks,
      concurrency,
      latencyMs,
      parallel: options.parallel ?? PARALLEL,
      resources: shops * HOOKS.length,
      oneStackUpMs: one.up.ms,
      oneStackDestroyMs: one.destroy.ms,
      manyStacksUpMs: many.up.ms,
      manyStacksDestroyMs: many.destroy.ms,
      slowestStackUpMs: Math.max(...many.up.stacks.map((s) => s.ms)),
      slowestStackDestroyMs: Math.max(...many.destroy.stacks.map((s) => s.ms)),
      oneStackUpCalls: one.upCalls,
      oneStackDestroyCalls: one.destroyCalls,
      manyStacksUpCalls: many.upCalls,
      manyStacksDestroyCalls: many.destroyCalls,
      oneStackFileBytes: one.fileBytes,
      manyStacksLargestFileBytes: many.fileBytes,
    };
  } finally {
    await sim.close();
  }
}

/** `node dist/scripts/bench/stacksFleet.js [shops] [stacks] [concurrency] [latencyMs]`: one comparison, as JSON. */
if (require.main === module) {
  const [shops = 20, stacks = 4, concurrency = 4, latencyMs = 50] = process.argv.slice(2).map(Number);
  measureStacksVersusOne({ shops, stacks, concurrency, latencyMs }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}
