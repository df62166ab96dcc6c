/**
 * A pinned shop (`shipping:shopId`) is written to only when the service reports the pinned `shop_id`. After
 * its key was swapped to another shop's, an added resource, a rename without an alias and `up --replace` (for
 * which the engine asks the provider nothing about a recorded resource) are refused by preview and up at
 * `check`, naming the pin, with no write in either shop and the state unchanged; the ways out the message
 * names work. A service that sends no `shop_id` fails a pinned shop at preview with no write; a correctly
 * pinned `shipping:shops` entry (id given as a number) deploys, previews with one GET and destroys. Run in the
 * engine's order of calls (test/support/engineOrder.ts); test/ownership/refusals.engine.test.ts shows the pin refusal
 * through the real CLI. What a write into another, empty shop does: pinUndo.test.ts.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack, type UpOptions } from "../support/engineOrder";
import { outOfBand } from "../support/outOfBand";
import {
  ACME_SHOP_ID,
  configOf,
  GLOBEX_SHOP_ID,
  hooksIn,
  ORDERS,
  SHIPMENTS,
  shops,
  shopsOf,
  writes,
} from "../support/services";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";

const service = useAcmeSimulator();

const ACME_O = "https://hooks.example.com/o";
const ORDERS_ONLY: Declaration[] = [{ name: "orders", hook: ORDERS, url: ACME_O }];

/** A change a team makes after the key swap, as the program it declares and the `up` options it needs. */
const CHANGES: Array<[string, Declaration[], UpOptions]> = [
  [
    "an added resource",
    [{ name: "shipments", hook: SHIPMENTS, url: "https://hooks.example.com/s" }, ...ORDERS_ONLY],
    {},
  ],
  ["a rename without an alias", [{ name: "orders-renamed", hook: ORDERS, url: ACME_O }], {}],
  ["up --replace", ORDERS_ONLY, { replace: ["orders"] }],
];

describe("shipping:shopId after a key swap to another shop's (shop_id listed)", () => {
  it.each(CHANGES)(
    "%s: preview and up refuse naming the pin, with no write in either shop and state unchanged; the key set back, the same up works",
    async (_, program, options) => {
      const sim = service.withSwitches({ shopFields: "listed", overwrite: "new-id" });
      await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) =>
        api.create([
          { hook: SHIPMENTS, url: "https://globex.example.com/s" },
          { hook: ORDERS, url: "https://globex.example.com/o" },
        ]),
      );
      const globex = sim.subscriptions("globex");
      const stack = new Stack(configOf(sim, ACME_KEY, { "shipping:shopId": ACME_SHOP_ID }));
      expect((await stack.up(ORDERS_ONLY)).ok).toBe(true);
      const acme = sim.subscriptions("acme");
      const state = stack.recorded();
      stack.set({ "shipping:apiKey": GLOBEX_KEY });

      sim.clearRequests();
      const pinned = `shipping:shopId: pins shop ${ACME_SHOP_ID}, but the service at ${sim.baseUrl} reports shop ${GLOBEX_SHOP_ID} for the key in shipping:apiKey`;
      const preview = await stack.preview(program);
      expect(preview.error).toContain(pinned);
      const up = await stack.up(program, options);
      expect(up.error).toContain(pinned);
      expect(up.error).toContain(`Set the key of shop ${ACME_SHOP_ID} in shipping:apiKey`);
      // And the way out when it is the pin that is wrong.
      expect(up.error).toContain(`\`pulumi config set shipping:shopId ${GLOBEX_SHOP_ID}\``);
      expect(writes(sim)).toEqual([]);
      expect(shopsOf(sim)).toEqual({ acme, globex });
      expect(stack.recorded()).toEqual(state);

      // The way out the message names: set the key back and run `up`; the stack then destroys cleanly.
      stack.set({ "shipping:apiKey": ACME_KEY });
      expect((await stack.up(program, options)).ok).toBe(true);
      expect((await stack.destroy()).ok).toBe(true);
      expect(shopsOf(sim)).toEqual({ acme: [], globex });
    },
  );

  it("the pin that is wrong: set as the message says, the stack deploys with the new key", async () => {
    const sim = service.sim;
    await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) =>
      api.create([{ hook: SHIPMENTS, url: "https://globex.example.com/s" }]),
    );
    const stack = new Stack(configOf(sim, GLOBEX_KEY, { "shipping:shopId": ACME_SHOP_ID }));
    expect((await stack.preview(ORDERS_ONLY)).error).toContain(
      `pulumi config set shipping:shopId ${GLOBEX_SHOP_ID}`,
    );
    stack.set({ "shipping:shopId": GLOBEX_SHOP_ID });
    expect((await stack.up(ORDERS_ONLY)).ok).toBe(true);
    expect(hooksIn(sim, "globex")).toEqual([ORDERS, SHIPMENTS].sort());
  });
});

describe("a service that sends no shop_id", () => {
  it("preview and up refuse a pinned shop with subscriptions, saying the pin cannot be checked, with no write", async () => {
    const sim = service.withSwitches({ shopFields: "omitted" });
    await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
      api.create([{ hook: SHIPMENTS, url: "https://hooks.example.com/s" }]),
    );
    const acme = sim.subscriptions("acme");
    const stack = new Stack(configOf(sim, ACME_KEY, { "shipping:shopId": ACME_SHOP_ID }));
    sim.clearRequests();
    const preview = await stack.preview(ORDERS_ONLY);
    expect(preview.error).toContain(`shipping:shopId: pins shop ${ACME_SHOP_ID}, but the service at`);
    expect(preview.error).toContain("sends no shop_id on the subscriptions of the default shop");
    // Removing the pin takes an `up` before refresh or destroy sees it.
    expect(preview.error).toContain("Remove shipping:shopId and run `pulumi up`");
    expect((await stack.up(ORDERS_ONLY)).ok).toBe(false);
    expect(writes(sim)).toEqual([]);
    expect(sim.subscriptions("acme")).toEqual(acme);
  });
});

describe("the right key", () => {
  it("a shop entry pinned by number in shipping:shops deploys, previews with one GET and no write, and destroys", async () => {
    const sim = service.withSwitches({ shopFields: "listed" });
    const program: Declaration[] = [{ name: "orders", hook: ORDERS, url: ACME_O, shop: "main" }];
    const stack = new Stack({
      "shipping:baseUrl": sim.baseUrl,
      "shipping:shops": shops({ main: { apiKey: ACME_KEY, shopId: Number(ACME_SHOP_ID) } }),
    });
    expect((await stack.up(program)).ok).toBe(true);
    expect(sim.subscriptions("acme").map((s) => [s.hook, s.url])).toEqual([[ORDERS, ACME_O]]);
    expect(stack.resource("orders")?.outs.shopId).toBe(ACME_SHOP_ID);
    sim.clearRequests();
    expect(await stack.preview(program)).toMatchObject({ ok: true, steps: { same: 1 } });
    expect(sim.requests().map((r) => r.method)).toEqual(["GET"]);
    expect((await stack.destroy()).ok).toBe(true);
    expect(sim.subscriptions("acme")).toEqual([]);
  });
});
