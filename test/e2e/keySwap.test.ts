/**
 * A shop's key changed to another shop's, then refresh or destroy. The new shop cannot always say which shop
 * it is (it lists nothing, or the service sends no shop_id), so the provider asks the service with a DELETE
 * of the recorded id: 403 deleteResourceOwnedByOthers means the key was re-pointed and the step refuses;
 * 404 means the subscription is gone. (Review 13b, finding 2: destroy succeeded and orphaned acme's hook.)
 */
import { describe, expect, it } from "vitest";
import { outOfBand } from "../support/outOfBand";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";
import { engine } from "./support/engine";
import { ORDERS, outcome, recorded, SHIPMENTS, scenario, simulator } from "./twoKeys/support";

const CASES = [
  ["shop_id listed, globex lists nothing", "listed", false],
  ["shop_id omitted, globex has a subscription", "omitted", true],
] as const;

describe("refresh and destroy after shipping:apiKey was changed to another shop's", () => {
  it.each(CASES)(
    "%s: refresh and destroy refuse, naming the key; set back, up then destroy remove the hook",
    async (_, shopFields, globexHasOne) => {
      const sim = await simulator({ shopFields });
      if (globexHasOne)
        await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) =>
          api.create([{ hook: SHIPMENTS, url: "https://globex.example.com/s" }]),
        );
      const globexBefore = sim.subscriptions("globex");
      const run = await scenario(
        sim,
        [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }],
        `keyswap-${shopFields}`,
      );
      await run.stack.up();
      const acme = sim.subscriptions("acme");
      expect(acme).toHaveLength(1);
      await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });

      // `up` refuses at diff when the service lists shop_id (without it, the key swap shows only on refresh), and
      // it records the new key as the provider's configuration, which refresh and destroy then use.
      const up = await outcome(run.stack.up(), "up with globex's key");
      if (shopFields === "listed") expect(up).not.toBe("succeeded");
      for (const [what, step] of [
        ["refresh", () => run.stack.refresh()],
        ["destroy", () => run.stack.destroy()],
        ["destroy --refresh", () => run.stack.destroy({ refresh: true })],
      ] as const) {
        const result = await engine(step(), `${what} with globex's key`).then(String, String);
        expect(result, what).toMatch(
          /shipping:apiKey: subscription \d+ \(order_status_change\) is not in the default shop's listing, and the service answers that it belongs to another shop/,
        );
        // The way out it names is the one this test follows below (review 13c finding 4).
        expect(result, what).toContain(
          "Set shipping:apiKey back to the key it was created with and run `pulumi up`",
        );
        expect(sim.subscriptions("acme"), what).toEqual(acme);
        expect(sim.subscriptions("globex"), what).toEqual(globexBefore);
        expect(await recorded(run.stack), what).toHaveLength(1);
      }

      await run.stack.setConfig("shipping:apiKey", { value: ACME_KEY, secret: true });
      // As the message says: set the key back and run `up` (destroy takes the configuration of the last `up`).
      expect(await outcome(run.stack.up(), "up with acme's key")).toBe("succeeded");
      expect(sim.subscriptions("acme")).toEqual(acme);
      expect(await outcome(run.stack.destroy(), "destroy with acme's key")).toBe("succeeded");
      expect(sim.subscriptions("acme")).toEqual([]);
      expect(sim.subscriptions("globex")).toEqual(globexBefore);
    },
  );

  it.each(["listed", "omitted"] as const)(
    "shop_id %s: a hook deleted in the back office of a shop that now lists nothing is dropped by refresh and subscribed again by up",
    async (shopFields) => {
      const sim = await simulator({ shopFields });
      const run = await scenario(
        sim,
        [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }],
        `backoffice-${shopFields}`,
      );
      await run.stack.up();
      const [gone] = sim.subscriptions("acme");
      await outOfBand(sim.baseUrl, ACME_KEY, (api) => api.delete([gone?.id as number]));
      expect(await outcome(run.stack.up({ refresh: true }), "up --refresh")).toBe("succeeded");
      const live = sim.subscriptions("acme");
      expect(live.map((s) => [s.hook, s.url])).toEqual([[ORDERS, "https://hooks.example.com/o"]]);
      expect((await recorded(run.stack)).map((r) => r.id)).toEqual(live.map((s) => s.id));
      expect(await outcome(run.stack.destroy(), "destroy")).toBe("succeeded");
      expect(sim.subscriptions("acme")).toEqual([]);
    },
  );
});

const GLOBEX_URL = "https://globex.example.com/o";

describe("after shipping:apiKey was changed to another shop's that cannot say which it is (shop_id omitted)", () => {
  it.each([
    ["new-id, a new URL", "new-id", "https://hooks.example.com/o2"],
    ["keep-id, a new URL", "keep-id", "https://hooks.example.com/o2"],
    ["new-id, the URL of globex's own subscription", "new-id", GLOBEX_URL],
  ] as const)(
    "%s: a replacing up refuses before its create writes or adopts anything in globex, and so does destroy",
    async (_, overwrite, url) => {
      const sim = await simulator({ shopFields: "omitted", overwrite });
      await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) => api.create([{ hook: ORDERS, url: GLOBEX_URL }]));
      const globex = sim.subscriptions("globex");
      const run = await scenario(
        sim,
        [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }],
        `swap-replace-${overwrite}`,
      );
      await run.stack.up();
      const acme = sim.subscriptions("acme");
      await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });
      run.state.declared = [{ name: "orders", hook: ORDERS, url }];

      const up = await engine(run.stack.up(), "up replacing orders with globex's key").then(String, String);
      expect(up).toMatch(
        /\(order_status_change\) is not in the default shop's listing, and the service answers that it belongs to another shop/,
      );
      expect(sim.subscriptions("globex")).toEqual(globex);
      expect(sim.subscriptions("acme")).toEqual(acme);
      expect((await recorded(run.stack)).map((r) => r.id)).toEqual(acme.map((s) => s.id));
      expect(await outcome(run.stack.destroy(), "destroy with globex's key")).not.toBe("succeeded");
      expect(sim.subscriptions("globex")).toEqual(globex);
      expect(sim.subscriptions("acme")).toEqual(acme);
    },
  );

  it("a question refused with a 403 that is not about ownership (as a read-only key gets) fails destroy, which orphans nothing", async () => {
    const sim = await simulator({ shopFields: "omitted" });
    const run = await scenario(
      sim,
      [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }],
      "swap-cannot-ask",
    );
    await run.stack.up();
    const acme = sim.subscriptions("acme");
    await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });
    expect(await outcome(run.stack.up(), "up with globex's key (no change without shop_id)")).toBe(
      "succeeded",
    );
    sim.addFault({ kind: "status", status: 403, method: "DELETE", count: 1 });
    const destroy = await engine(run.stack.destroy(), "destroy with globex's key").then(String, String);
    expect(destroy).toMatch(
      /shipping:apiKey: subscription \d+ \(order_status_change\) is not in the default shop's listing, .* refused the DELETE that asks whether it is gone/,
    );
    expect(sim.subscriptions("acme")).toEqual(acme);
    expect((await recorded(run.stack)).map((r) => r.id)).toEqual(acme.map((s) => s.id));
  });
});
