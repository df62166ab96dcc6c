/**
 * Targeted operations (issue 26, item 1). Under `--target` or `--exclude` the engine neither checks nor diffs
 * the other resources, so the provider cannot see that another resource of the stack records the subscription
 * a step acts on: a rename without an alias rolled out with `up --target <new>` leaves two records of one id,
 * and a later targeted step on the old one deletes it (the engine's own behaviour, shown here). What stays
 * true: the next plain `preview` or `up` names the resource whose subscription is gone, the drift check fails,
 * and `up --refresh` subscribes the hook again. Nothing else of the shop is touched.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, engine } from "../support/engine";
import { scenario } from "../support/scenario";
import { ACME_KEY } from "../support/shops";

const ORDERS: Declaration = {
  name: "orders",
  hook: "order_status_change",
  url: "https://hooks.example.com/o",
};
const RENAMED: Declaration = { ...ORDERS, name: "orders-v2" };
/** Another hook of the stack, untouched: the shop keeps a subscription, so it can say which shop it is. */
const SHIPMENTS: Declaration = {
  name: "shipments",
  hook: "shipment_status_change",
  url: "https://hooks.example.com/s",
};
const ordersOf = (sim: { subscriptions(shop: string): Array<{ id: number; hook: string; url: string }> }) =>
  sim.subscriptions("acme").filter((s) => s.hook === ORDERS.hook);
const DRIFT =
  /shipping: subscription (\d+) \(order_status_change\) of the default shop is gone .* `pulumi up --refresh` subscribes the hook again/;

/** The URN of a WebhookSubscription of the stack's project. */
async function urnOf(stack: Stack, name: string): Promise<string> {
  const state = await stack.exportStack();
  const resources = (state.deployment as { resources: Array<{ urn: string }> }).resources;
  const urn = resources.find((r) => r.urn.endsWith(`::${name}`))?.urn;
  if (urn !== undefined) return urn;
  // Not in state yet: the URN the engine will give it.
  const stackUrn = resources.find((r) => r.urn.includes("pulumi:pulumi:Stack"))?.urn ?? "";
  return stackUrn.replace(
    /pulumi:pulumi:Stack::.*$/,
    `pulumi-nodejs:dynamic/shipping:WebhookSubscription::${name}`,
  );
}

/** The simulator of this file, reset before each test (and its switches set back). */
const simulator = useAcmeSimulator();

describe("a rename without an alias rolled out with up --target <new>", () => {
  it.each([
    ["keep-id", "destroy --target <old>"],
    ["new-id", "up --exclude <new>"],
  ] as const)(
    "%s, then %s: the shared subscription is deleted; preview names it, the drift check fails, up --refresh restores it",
    async (overwrite, then) => {
      const sim = simulator.withSwitches({ overwrite });
      const run = await scenario(sim, [SHIPMENTS, ORDERS], `targeted-${overwrite}`);
      await engine(run.stack.up(), "up");
      const shipments = sim.subscriptions("acme").find((s) => s.hook === SHIPMENTS.hook);
      run.state.declared = [SHIPMENTS, RENAMED];
      await engine(run.stack.up({ target: [await urnOf(run.stack, RENAMED.name)] }), "up --target <new>");
      const [live] = ordersOf(sim);
      const ids = (await run.stack.exportStack()).deployment.resources
        .filter((r: { type: string; outputs: { hook: string } }) => r.outputs?.hook === ORDERS.hook)
        .map((r: { id: string }) => Number(r.id));
      expect(ids).toEqual([live?.id, live?.id]); // two records of one subscription: the engine told no one

      const old = await urnOf(run.stack, ORDERS.name);
      if (then === "destroy --target <old>") await engine(run.stack.destroy({ target: [old] }), then);
      else await engine(run.stack.up({ exclude: [await urnOf(run.stack, RENAMED.name)] }), then);
      expect(ordersOf(sim)).toEqual([]); // the engine's behaviour: the provider saw only the old one
      expect(sim.subscriptions("acme").filter((s) => s.hook === SHIPMENTS.hook)).toEqual([shipments]);

      sim.clearRequests();
      const preview = await engine(run.stack.preview(), "preview");
      const printed = `${preview.stdout}${preview.stderr}`;
      expect(printed).toMatch(DRIFT);
      expect(printed.match(DRIFT)?.[1]).toBe(String(live?.id));
      const drift = await run.stack.preview({ refresh: true, expectNoChanges: true }).then(
        () => "clean",
        () => "drift",
      );
      expect(drift).toBe("drift");

      await engine(run.stack.up({ refresh: true }), "up --refresh");
      const [restored] = ordersOf(sim);
      expect(restored).toMatchObject({ hook: ORDERS.hook, url: ORDERS.url });
      const state = (await run.stack.exportStack()).deployment.resources.filter(
        (r: { outputs: { hook: string } }) => r.outputs?.hook === ORDERS.hook,
      );
      expect(state.map((r: { id: string }) => Number(r.id))).toEqual([restored?.id]);
      expect(sim.subscriptions("acme").filter((s) => s.hook === SHIPMENTS.hook)).toEqual([shipments]);
    },
  );
});

describe("a second declaration of a deployed hook under an entry with the same key, up --target <second>", () => {
  it("is refused before any write (the first's subscription is no targeted resource's), and the full preview refuses it as declared twice", async () => {
    const sim = simulator.withSwitches({ overwrite: "new-id" });
    const run = await scenario(sim, [ORDERS], "targeted-second");
    await run.stack.setConfig("shipping:shops", {
      value: JSON.stringify({ alt: { apiKey: ACME_KEY } }),
      secret: true,
    });
    await engine(run.stack.up(), "up");
    const second: Declaration = {
      name: "orders-alt",
      hook: ORDERS.hook,
      url: "https://hooks.example.com/alt",
      shop: "alt",
    };
    run.state.declared = [ORDERS, second];
    const live = sim.subscriptions("acme");
    const targeted = await run.stack.up({ target: [await urnOf(run.stack, second.name)] }).then(
      () => "",
      (error: unknown) => String(error),
    );
    expect(targeted).toMatch(
      /order_status_change of shop alt at \S+ already has subscription \d+, which calls another URL/,
    );
    expect(sim.subscriptions("acme")).toEqual(live);

    const refused = await run.stack.preview().then(
      () => "",
      (error: unknown) => String(error),
    );
    // Which of the two the engine checks first decides which refusal it shows: both write nothing.
    expect(refused).toMatch(
      /order_status_change is declared twice for one shop|already has subscription \d+, which calls another URL/,
    );
    expect(sim.subscriptions("acme")).toEqual(live);
  });
});

describe("preview --target of an added resource while another's hook edit is pending", () => {
  it("warns of no drift on the untargeted resource: its recorded subscription is as recorded", async () => {
    const sim = simulator.sim;
    const run = await scenario(sim, [ORDERS], "targeted-pending-edit");
    await engine(run.stack.up(), "up");
    const added = { name: "added", hook: "shipment_label_created", url: "https://hooks.example.com/l" };
    run.state.declared = [{ ...ORDERS, hook: SHIPMENTS.hook }, added];
    sim.clearRequests();
    const preview = await engine(
      run.stack.preview({ target: [await urnOf(run.stack, added.name)] }),
      "preview --target <added>",
    );
    const printed = `${preview.stdout}${preview.stderr}`;
    expect(printed).not.toMatch(/now points at another URL|is gone/);
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });
});
