import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOKS } from "../../provider/inputs/hooks";
import { callbackUrl, fleetProgram, shopSeeds, shopsConfig } from "../../scripts/bench/fleet";
import { killDuringUp, runOperation } from "../../scripts/explorer/engine";
import { pulumiCliRoot } from "../../scripts/lib/pulumiCli";
import { openStack, withDeadline } from "../../scripts/lib/stacks";
import { type RunningSimulator, startSimulator } from "../../simulator";

/**
 * The engine's trade-off `PULUMI_SKIP_CHECKPOINTS=true` saves state only at the end of an operation, so a
 * SIGKILL mid-`up` loses the record of every write it made. This provider adopts a hook whose subscription
 * already has the declared URL, so the next `up` must still end with no duplicate, no orphan and state equal
 * to what is live. Each run: a fresh fleet deployed to a first declaration, then an `up` to a second one
 * killed after its k-th write, `pulumi cancel`, and the recovering `up`. `CHECKPOINT_KILL_RUNS` (default 2)
 * and `CHECKPOINT_KILL_SEED` for long runs; a failure shrinks to a minimal declaration pair.
 */
const RUNS = Number(process.env.CHECKPOINT_KILL_RUNS ?? 2);
const SEED = Number(process.env.CHECKPOINT_KILL_SEED ?? 20261123);
const SHOPS = 4;
const ENGINE_DEADLINE_MS = 180_000;
const SKIP_CHECKPOINTS = { PULUMI_SKIP_CHECKPOINTS: "true" };
/** Added latency of every API call, so that an `up` is still writing when it is killed. */
const LATENCY_MS = 40;

const seeds = shopSeeds(SHOPS);
/** A declaration: per shop and hook, the URL version, or 0 for not declared. */
type Declaration = number[][];
const declaration: fc.Arbitrary<Declaration> = fc.array(
  fc.array(fc.integer({ min: 0, max: 2 }), { minLength: HOOKS.length, maxLength: HOOKS.length }),
  { minLength: SHOPS, maxLength: SHOPS },
);

function versionOf(decl: Declaration, shop: string, hook: string): number | undefined {
  const version = decl[seeds.findIndex((s) => s.name === shop)]?.[HOOKS.indexOf(hook as never)] ?? 0;
  return version === 0 ? undefined : version;
}

let sim: RunningSimulator;
const roots: string[] = [];
beforeAll(async () => {
  sim = await startSimulator({ shops: seeds });
});
afterAll(async () => {
  await sim.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function fleetStack(current: () => Declaration): Promise<Stack> {
  const root = join(__dirname, "..", "..", ".tmp", "skip-checkpoints", randomBytes(4).toString("hex"));
  roots.push(root);
  return openStack({
    workDir: join(root, "project"),
    backendDir: join(root, "backend"),
    projectName: "skipcheckpoints",
    stackName: "fleet",
    program: fleetProgram(
      () => seeds,
      (shop, hook) => versionOf(current(), shop, hook),
    ),
    config: { "shipping:shops": { value: shopsConfig(seeds, sim.baseUrl), secret: true } },
    env: { PULUMI_HOME: join(root, "home"), ...SKIP_CHECKPOINTS },
  });
}

/** What is wrong with live subscriptions and state after the recovering `up`; empty when nothing is. */
async function problems(stack: Stack, decl: Declaration): Promise<string[]> {
  const found: string[] = [];
  const exported = (await stack.exportStack()).deployment as {
    resources?: Array<{ type: string; id?: string; outputs?: Record<string, unknown> }>;
  };
  const inState = (exported.resources ?? []).filter((r) => r.type.endsWith("WebhookSubscription"));
  for (const seed of seeds) {
    const live = sim.subscriptions(seed.name);
    for (const hook of HOOKS) {
      const version = versionOf(decl, seed.name, hook);
      const subs = live.filter((s) => s.hook === hook);
      const want = version === undefined ? [] : [callbackUrl(seed.name, hook, version)];
      if (JSON.stringify(subs.map((s) => s.url)) !== JSON.stringify(want))
        found.push(`${seed.name} ${hook}: live ${JSON.stringify(subs.map((s) => s.url))}, declared ${want}`);
      const recorded = inState.filter((r) => r.outputs?.shop === seed.name && r.outputs?.hook === hook);
      const liveIds = subs.map((s) => String(s.id));
      if (JSON.stringify(recorded.map((r) => r.id)) !== JSON.stringify(liveIds))
        found.push(`${seed.name} ${hook}: state ids ${recorded.map((r) => r.id)}, live ids ${liveIds}`);
    }
  }
  return found;
}

describe("PULUMI_SKIP_CHECKPOINTS with a SIGKILL mid-up", () => {
  it(`ends with no duplicate, no orphan and state equal to live after the next up (${RUNS} runs)`, async () => {
    let kills = 0;
    await fc.assert(
      fc.asyncProperty(
        declaration,
        declaration,
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom("keep-id" as const, "new-id" as const),
        async (first, second, killAfter, overwrite) => {
          await sim.reset();
          sim.setSwitches({ overwrite });
          sim.addFault({ kind: "latency", ms: LATENCY_MS });
          let current = first;
          const stack = await fleetStack(() => current);
          const deployed = await runOperation(stack, "up");
          expect(deployed.ok, deployed.text).toBe(true);
          const stateBefore = JSON.stringify((await stack.exportStack()).deployment.resources ?? []);
          current = second;
          const writesBefore = sim.requests().filter((r) => r.method !== "GET").length;
          const { killed } = await killDuringUp(
            stack,
            pulumiCliRoot(),
            () => sim.requests().filter((r) => r.method !== "GET").length >= writesBefore + killAfter,
          );
          if (killed) {
            await withDeadline(stack.cancel(), ENGINE_DEADLINE_MS, "pulumi cancel");
            // The setting is in force: the killed up saved nothing of what it wrote.
            const stateAfterKill = JSON.stringify((await stack.exportStack()).deployment.resources ?? []);
            expect(stateAfterKill).toBe(stateBefore);
            kills += 1;
          }
          const recovered = await runOperation(stack, "up");
          expect(recovered.ok, recovered.text).toBe(true);
          expect(await problems(stack, second)).toEqual([]);
          const settled = await withDeadline(stack.preview(), ENGINE_DEADLINE_MS, "settled preview");
          expect(Object.keys(settled.changeSummary)).toEqual(["same"]);
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`${kills} of ${RUNS} ups killed mid-way`);
    expect(kills).toBeGreaterThan(0);
  });
});
