/**
 * A shop's key changed to another shop's. When the service names the shop (`shop_id`), every command refuses
 * a recorded resource naming both shops. When the other shop cannot say which shop it is (it lists nothing,
 * or the service sends no `shop_id`), refresh, destroy and an `up` that replaces the resource ask the service
 * with a DELETE of the recorded id, which deletes nothing: 403 deleteResourceOwnedByOthers refuses, naming the
 * key and the way out, which works; 404 means gone (a hook deleted in the back office is dropped and
 * subscribed again); any other 403 fails destroy rather than orphan. No write lands in either shop. Run in
 * the engine's order of calls (test/support/engineOrder.ts); test/ownership/refusals.engine.test.ts shows one through the CLI.
 */
import { describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack } from "../support/engineOrder";
import { outOfBand } from "../support/outOfBand";
import { configOf, deployed, ORDERS, SHIPMENTS, shopsOf, writes } from "../support/services";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";

const service = useAcmeSimulator();

const URL = "https://hooks.example.com/o";
const PROGRAM: Declaration[] = [{ name: "orders", hook: ORDERS, url: URL }];
const ASKED =
  /orders: shipping:apiKey: subscription \d+ \(order_status_change\) is not in the default shop's listing, and the service answers that it belongs to another shop/;

/**
 * globex holds `globexHolds` (when given, made outside any stack); acme's stack deploys {@link PROGRAM}, then
 * its key is changed to globex's. The stack, and both shops' subscriptions before the swap.
 */
async function swappedToGlobex(sim: RunningSimulator, globexHolds?: { hook: string; url: string }) {
  if (globexHolds !== undefined) await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) => api.create([globexHolds]));
  const globex = sim.subscriptions("globex");
  const stack = new Stack(configOf(sim));
  expect((await stack.up(PROGRAM)).ok).toBe(true);
  const acme = sim.subscriptions("acme");
  stack.set({ "shipping:apiKey": GLOBEX_KEY });
  return { stack, acme, globex };
}

describe("shipping:apiKey changed to another shop's, which the service names (shop_id listed)", () => {
  it("preview, up (with a URL change), refresh and destroy refuse before any write, naming both shops", async () => {
    const sim = service.sim;
    await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) =>
      api.create([{ hook: SHIPMENTS, url: "https://globex.example.com/s" }]),
    );
    const stack = new Stack(configOf(sim));
    expect((await stack.up(PROGRAM)).ok).toBe(true);
    const before = shopsOf(sim);
    const state = stack.recorded();
    stack.set({ "shipping:apiKey": GLOBEX_KEY });
    const changed: Declaration[] = [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o2" }];
    sim.clearRequests();
    for (const [what, outcome] of [
      ["preview", await stack.preview(changed)],
      ["up", await stack.up(changed)],
      ["refresh", await stack.refresh()],
      ["destroy", await stack.destroy()],
    ] as const) {
      expect(outcome.error, what).toMatch(
        /the key of the default shop now reaches shop_id 2, but subscription \d+ \(order_status_change\) was created in shop_id 1\. Nothing was changed/,
      );
    }
    expect(writes(sim)).toEqual([]);
    expect(shopsOf(sim)).toEqual(before);
    expect(stack.recorded()).toEqual(state);
  });
});

describe("refresh and destroy after shipping:apiKey was changed to another shop's that cannot say which it is", () => {
  it.each([
    ["shop_id listed, globex lists nothing", "listed", false],
    ["shop_id omitted, globex has a subscription", "omitted", true],
  ] as const)(
    "%s: they refuse, naming the key; set back, up then destroy remove the hook",
    async (_, shopFields, globexHasOne) => {
      const sim = service.withSwitches({ shopFields });
      const globexHolds = { hook: SHIPMENTS, url: "https://globex.example.com/s" };
      const { stack, acme, globex } = await swappedToGlobex(sim, globexHasOne ? globexHolds : undefined);
      // `up` refuses at diff when the service lists shop_id (an empty shop cannot say it is the recorded one);
      // without it, the key swap shows only to the questions below. Either way it records the new key.
      expect((await stack.up(PROGRAM)).ok).toBe(shopFields === "omitted");
      for (const [what, run] of [
        ["refresh", () => stack.refresh()],
        ["destroy", () => stack.destroy()],
        ["destroy --refresh", () => stack.destroy({ refresh: true })],
      ] as const) {
        const outcome = await run();
        expect(outcome.error, what).toMatch(ASKED);
        expect(outcome.error, what).toContain(
          "Set shipping:apiKey back to the key it was created with and run `pulumi up`",
        );
        expect(shopsOf(sim), what).toEqual({ acme, globex });
        expect(stack.recorded(), what).toHaveLength(1);
      }
      // The way out the message names: set the key back and run `up`; destroy then removes the hook.
      stack.set({ "shipping:apiKey": ACME_KEY });
      expect((await stack.up(PROGRAM)).ok).toBe(true);
      expect(sim.subscriptions("acme")).toEqual(acme);
      expect((await stack.destroy()).ok).toBe(true);
      expect(shopsOf(sim)).toEqual({ acme: [], globex });
    },
  );

  it.each([
    ["new-id, a new URL", "new-id", "https://hooks.example.com/o2"],
    ["keep-id, a new URL", "keep-id", "https://hooks.example.com/o2"],
    ["new-id, the URL of globex's own subscription", "new-id", "https://globex.example.com/o"],
  ] as const)(
    "shop_id omitted, %s: a replacing up refuses before its create writes or adopts anything in globex, and so does destroy",
    async (_, overwrite, url) => {
      const sim = service.withSwitches({ shopFields: "omitted", overwrite });
      const globexHolds = { hook: ORDERS, url: "https://globex.example.com/o" };
      const { stack, acme, globex } = await swappedToGlobex(sim, globexHolds);
      sim.clearRequests();
      // globex's subscription of the hook is no resource's: without the opt-in the diff refuses to take it over.
      const refused = await stack.up([{ name: "orders", hook: ORDERS, url }]);
      if (url !== "https://globex.example.com/o")
        expect(refused.error).toMatch(/already has subscription \d+, which calls another URL/);
      // With it, the replacement's create still asks whether the recorded id is this shop's first.
      const up = await stack.up([{ name: "orders", hook: ORDERS, url, takeOver: true }]);
      expect(up.steps.replace).toBe(1);
      expect(up.error).toMatch(ASKED);
      expect(writes(sim).filter((w) => w.startsWith("POST"))).toEqual([]);
      expect(shopsOf(sim)).toEqual({ acme, globex });
      expect(stack.recorded().map((r) => r.id)).toEqual(acme.map((s) => s.id));
      expect((await stack.destroy()).error).toMatch(ASKED);
      expect(shopsOf(sim)).toEqual({ acme, globex });
    },
  );

  it("shop_id omitted: a question refused with a 403 that is not about ownership (a read-only key's) fails destroy, which orphans nothing", async () => {
    const { sim, stack } = await deployed(service, PROGRAM, { shopFields: "omitted" });
    const acme = sim.subscriptions("acme");
    stack.set({ "shipping:apiKey": GLOBEX_KEY });
    expect((await stack.up(PROGRAM)).ok).toBe(true); // no change can be seen without shop_id
    sim.addFault({ kind: "status", status: 403, method: "DELETE", count: 1 });
    const destroy = await stack.destroy();
    expect(destroy.error).toMatch(
      /shipping:apiKey: subscription \d+ \(order_status_change\) is not in the default shop's listing, .* refused the DELETE that asks whether it is gone/,
    );
    expect(sim.subscriptions("acme")).toEqual(acme);
    expect(stack.recorded().map((r) => r.id)).toEqual(acme.map((s) => s.id));
  });
});

describe("the same question answered 404: a hook deleted in the back office of a shop left empty", () => {
  it.each(["listed", "omitted"] as const)(
    "shop_id %s: up --refresh drops it and subscribes it again; destroy removes it",
    async (shopFields) => {
      const { sim, stack } = await deployed(service, PROGRAM, { shopFields });
      const [gone] = sim.subscriptions("acme");
      await outOfBand(sim.baseUrl, ACME_KEY, (api) => api.delete([gone?.id as number]));
      const up = await stack.up(PROGRAM, { refresh: true });
      expect(up).toMatchObject({ ok: true, steps: { create: 1 } });
      const live = sim.subscriptions("acme");
      expect(live.map((s) => [s.hook, s.url])).toEqual([[ORDERS, URL]]);
      expect(stack.recorded()).toEqual(live);
      expect((await stack.destroy()).ok).toBe(true);
      expect(sim.subscriptions("acme")).toEqual([]);
    },
  );
});
