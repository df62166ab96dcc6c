/**
 * `pulumi up --replace` of a `deleteBeforeReplace` resource through the real CLI: the engine deletes the old
 * subscription before it creates the new one, asks the provider no diff, and runs another create of the shop
 * alongside. The replaced hook is posted again rather than adopted from the id just deleted: both hooks live,
 * state id = live id. Every order of such steps runs fast in test/lifecycle/replacement.test.ts.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { engine, subscriptionResources } from "../support/engine";
import { scenario } from "../support/scenario";

const ORDERS = "order_status_change";
const LABELS = "shipment_label_created";

/** The simulator of this file, reset before each test (and its switches set back). */
const simulator = useAcmeSimulator();

describe("deleteBeforeReplace with up --replace, after another create of the shop", () => {
  it("posts the replaced hook again instead of adopting the id it just deleted", async () => {
    const sim = simulator.sim;
    const orders = {
      name: "orders",
      hook: ORDERS,
      url: "https://hooks.example.com/o",
      options: { deleteBeforeReplace: true },
    };
    const run = await scenario(sim, [orders], "replace-dbr");
    await engine(run.stack.up(), "up");
    const [before] = sim.subscriptions("acme");
    run.state.declared = [orders, { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" }];
    const urn = subscriptionResources(await run.stack.exportStack())[0]?.urn as string;
    sim.clearRequests();
    const up = await engine(run.stack.up({ replace: [urn] }), "up --replace");
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1, create: 1 });
    // The delete came first: its DELETE precedes the POST that subscribes orders again.
    const requests = sim.requests();
    const deleted = requests.findIndex((r) => r.method === "DELETE" && r.path.endsWith(`/${before?.id}`));
    const posted = requests.findIndex((r) => r.method === "POST" && JSON.stringify(r.body).includes(ORDERS));
    expect(deleted).toBeGreaterThanOrEqual(0);
    expect(posted).toBeGreaterThan(deleted);
    const live = sim.subscriptions("acme");
    expect(live.map((s) => s.hook).sort()).toEqual([LABELS, ORDERS].sort());
    const recorded = subscriptionResources(await run.stack.exportStack())
      .map((r) => ({ id: Number(r.id), hook: r.outputs.hook, url: r.outputs.url }))
      .sort((a, b) => a.id - b.id);
    expect(recorded).toEqual(live);
  });
});
