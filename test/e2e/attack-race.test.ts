/**
 * Review 13, attack 1: a deleteBeforeReplace delete races a create of the same hook in the same deployment.
 *
 * Resource `a` holds order_status_change (id N). In one `up`, `a` (deleteBeforeReplace) moves to another
 * hook and a new resource `b` declares order_status_change. The engine runs a's delete and b's create in
 * parallel: the delete checks `claimed` and the listing, then waits BATCH_WINDOW_MS (25 ms) before sending
 * DELETE; meanwhile b's create finds id N in the listing (not yet updated by the delete) and adopts it with no
 * write (same URL, new-id mode) or POSTs over it (keep-id, same id). Then the DELETE removes it.
 * `up` succeeds; state says b is subscribed with id N; the shop has no order_status_change.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, type Switches, startSimulator } from "../../simulator";
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
const LABELS = "shipment_label_created";

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((s) => s.close()));
});

async function run(switches: Partial<Switches>, bUrl: string) {
  const sim = await startSimulator({ shops: TEST_SHOPS, switches });
  simulators.push(sim);
  const box = sandbox("attack-race");
  const state: { declared: Declaration[] } = {
    declared: [
      {
        name: "a",
        hook: ORDERS,
        url: "https://hooks.example.com/o",
        options: { deleteBeforeReplace: true },
      },
    ],
  };
  const stack = await stackIn(
    box,
    declarationsProgram(() => state.declared),
    acmeStackConfig(sim.baseUrl),
  );
  await engine(stack.up(), "up");
  state.declared = [
    { name: "a", hook: LABELS, url: "https://hooks.example.com/l", options: { deleteBeforeReplace: true } },
    { name: "b", hook: ORDERS, url: bUrl },
  ];
  sim.clearRequests();
  await engine(stack.up({ refresh: true }), "up --refresh (a moves hook, b takes order_status_change)");
  const requests = sim
    .requests()
    .map((r) => `${r.method} ${r.path} ${r.status}`)
    .join("\n");
  const recorded = subscriptionResources(await stack.exportStack()).map((r) => ({
    name: r.urn.split("::").pop(),
    id: Number(r.id),
    hook: r.outputs.hook,
    url: r.outputs.url,
  }));
  return { live: sim.subscriptions("acme"), recorded, requests };
}

describe("attack: deleteBeforeReplace delete vs a create of the same hook in one deployment", () => {
  it("new-id, b has a's URL: the hook stays subscribed with b's id in state", async () => {
    const r = await run({}, "https://hooks.example.com/o");
    console.log(JSON.stringify(r, null, 1));
    // Guarantee 1: every declared hook is live with its declared URL, and state id = live id.
    expect(r.live.map((s) => s.hook).sort()).toEqual([LABELS, ORDERS].sort());
    for (const rec of r.recorded) expect(r.live).toContainEqual({ id: rec.id, hook: rec.hook, url: rec.url });
  });

  it("keep-id, b has another URL: a's delete does not remove the id b's POST kept", async () => {
    const r = await run({ overwrite: "keep-id" }, "https://other.example.com/o");
    console.log(JSON.stringify(r, null, 1));
    expect(r.live.map((s) => s.hook).sort()).toEqual([LABELS, ORDERS].sort());
    for (const rec of r.recorded) expect(r.live).toContainEqual({ id: rec.id, hook: rec.hook, url: rec.url });
  });
});
