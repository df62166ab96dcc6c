/**
 * Why inline programs need connections of their own (test/program/inlineProgramConnections.test.ts shows
 * how a reused port made the engine unreachable): with the real CLI, an inline program whose engine cannot be
 * reached at its first call is skipped by the SDK, the run is reported successful, and `up` deletes every
 * resource of the stack. The engine address the program is given is replaced by a refused loopback port; the
 * resource monitor is left alone. If this test starts failing, the SDK reports the failure itself.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { declarationsProgram, engine, sandbox, stackIn, subscriptionResources } from "../support/engine";
import { acmeStackConfig, TEST_SHOPS } from "../support/shops";
import { UNREACHABLE_ENGINE_MARKER } from "../support/unreachableEngine";

const load = createRequire(__filename);
type ResetOptions = (
  project: string,
  stack: string,
  parallel: number,
  engineAddr: string,
  ...rest: unknown[]
) => void;
const settings = load(load.resolve("@pulumi/pulumi/runtime/settings")) as { resetOptions: ResetOptions };

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((s) => s.close()));
});

describe("an inline program that cannot reach its engine", () => {
  it("is skipped by the SDK and its up deletes the stack while reporting success", async () => {
    const sim = await startSimulator({ shops: TEST_SHOPS });
    simulators.push(sim);
    const declared = [
      { name: "orders", hook: "order_status_change", url: "https://hooks.example.com/o" },
      { name: "events", hook: "shipment_status_change", url: "https://hooks.example.com/e" },
    ];
    const box = sandbox("engine-unreachable");
    const stack = await stackIn(
      box,
      declarationsProgram(() => declared),
      acmeStackConfig(sim.baseUrl),
    );
    await engine(stack.up(), "up");
    expect(sim.subscriptions("acme")).toHaveLength(2);

    const original = settings.resetOptions;
    const dead = `unix://${join(box.root, `${UNREACHABLE_ENGINE_MARKER}.sock`)}`;
    settings.resetOptions = (project, name, parallel, _engineAddr, ...rest) =>
      original(project, name, parallel, dead, ...rest);
    let summary: Record<string, number> | undefined;
    try {
      summary = (await engine(stack.up(), "up, engine unreachable")).summary.resourceChanges;
    } finally {
      settings.resetOptions = original;
    }
    expect(summary).toEqual({ delete: 2, same: 1 });
    expect(sim.subscriptions("acme")).toEqual([]);
    expect(subscriptionResources(await stack.exportStack())).toEqual([]);

    // The same program with its engine reachable subscribes both hooks again.
    expect((await engine(stack.up(), "up")).summary.resourceChanges).toEqual({ create: 2, same: 1 });
    expect(sim.subscriptions("acme")).toHaveLength(2);
  });
});
