/**
 * Review 13, attack 3: two resources of ONE stack recording the same subscription id.
 *
 * A rename without alias (a -> b, same hook and URL) is safe in one complete `up`: b's create adopts a's id
 * and a's delete skips it because it is `claimed` in that deployment. But the claim lives only in the
 * provider process. When a's delete runs in a later deployment (here: `up --target b` first, as a team does
 * to roll out one resource; a failed `up` that aborts before its deletes does the same), nothing remembers
 * that b adopted the id: `up --refresh` keeps both (both match id, hook, URL, shop), then a's delete removes
 * the subscription b records. The `up --refresh` succeeds; the declared hook is not live.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { acmeStackConfig, TEST_SHOPS } from "../support/shops";
import {
  type Declaration,
  declarationsProgram,
  engine,
  sandbox,
  stackIn,
  subscriptionResources,
} from "./support/engine";

const ORDERS = "order_status_change";
const URL = "https://hooks.example.com/o";

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((s) => s.close()));
});

describe("attack: a renamed resource applied with --target, then up --refresh", () => {
  it("keeps the subscription the renamed resource adopted", async () => {
    const sim = await startSimulator({ shops: TEST_SHOPS });
    simulators.push(sim);
    const box = sandbox("attack-shared-id");
    const state: { declared: Declaration[] } = { declared: [{ name: "a", hook: ORDERS, url: URL }] };
    const stack = await stackIn(
      box,
      declarationsProgram(() => state.declared),
      acmeStackConfig(sim.baseUrl),
    );
    await engine(stack.up(), "up");
    // Rename a -> b (no alias), rolled out with --target b.
    state.declared = [{ name: "b", hook: ORDERS, url: URL }];
    const urnA = subscriptionResources(await stack.exportStack())[0]?.urn as string;
    const urnB = urnA.replace(/::a$/, "::b");
    await engine(stack.up({ target: [urnB] }), "up --target b");
    const between = subscriptionResources(await stack.exportStack()).map((r) => [
      r.urn.split("::").pop(),
      r.id,
    ]);
    // The full rollout.
    await engine(stack.up({ refresh: true }), "up --refresh");
    const recorded = subscriptionResources(await stack.exportStack()).map((r) => ({
      id: Number(r.id),
      hook: r.outputs.hook,
      url: r.outputs.url,
    }));
    console.log({ between, recorded, live: sim.subscriptions("acme") });
    // Guarantee 1: after a successful `up --refresh` every declared hook is live, state id = live id.
    expect(sim.subscriptions("acme")).toEqual(recorded);
  });

  it("same, when the rename's up failed on another resource (no --target): the next up --refresh keeps b's subscription", async () => {
    const sim = await startSimulator({ shops: TEST_SHOPS });
    simulators.push(sim);
    const box = sandbox("attack-shared-id-failed");
    const state: { declared: Declaration[] } = { declared: [{ name: "a", hook: ORDERS, url: URL }] };
    const stack = await stackIn(
      box,
      declarationsProgram(() => state.declared),
      acmeStackConfig(sim.baseUrl),
    );
    await engine(stack.up(), "up");
    // One change: rename a -> b (no alias) and add labels. The labels POST fails once with a 500 (not retried),
    // so the up fails before the deletes of removed resources run.
    state.declared = [
      { name: "b", hook: ORDERS, url: URL },
      { name: "labels", hook: "shipment_label_created", url: "https://hooks.example.com/l" },
    ];
    sim.addFault({ kind: "status", status: 500, method: "POST", count: 1 });
    const failed = await engine(stack.up(), "up (fails)").then(
      () => "succeeded",
      () => "failed",
    );
    expect(failed).toBe("failed");
    sim.clearFaults();
    await engine(stack.up({ refresh: true }), "up --refresh (retry)");
    const recorded = subscriptionResources(await stack.exportStack())
      .map((r) => ({ id: Number(r.id), hook: r.outputs.hook, url: r.outputs.url }))
      .sort((x, y) => x.id - y.id);
    console.log({ recorded, live: sim.subscriptions("acme") });
    expect(sim.subscriptions("acme")).toEqual(recorded);
  });
});
