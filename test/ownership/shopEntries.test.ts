/**
 * Shop entries (`shipping:shops`) renamed, removed, or standing for a shop already configured. Renaming an
 * entry (config and program in one change) keeps the subscription: same id, no write. Removing an entry with
 * its resources is refused by their deletes, naming the entry, and nothing is lost. Moving a resource to
 * another name of the same shop (a second key of it, or `localhost` for `127.0.0.1`) is a replacement whose
 * create adopts the id and whose delete leaves it: the hook stays subscribed. Run in the engine's order of
 * calls (test/support/engineOrder.ts); test/ownership/refusals.engine.test.ts shows the entry-gone refusal through the CLI.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack } from "../support/engineOrder";
import { configOf, ORDERS, shops, stackWithShops, writes } from "../support/services";
import { ACME_KEY, ACME_SECOND_KEY, GLOBEX_KEY } from "../support/shops";

const acme = useAcmeSimulator();

const URL = "https://hooks.example.com/o";

describe("a shipping:shops entry renamed or removed", () => {
  it.each(["listed", "omitted"] as const)(
    "shop_id %s: renaming an entry keeps the subscription (same id, no write)",
    async (shopFields) => {
      const sim = acme.withSwitches({ shopFields });
      const stack = stackWithShops(sim, { eu: { apiKey: ACME_SECOND_KEY } });
      expect((await stack.up([{ name: "orders", hook: ORDERS, url: URL, shop: "eu" }])).ok).toBe(true);
      const before = sim.subscriptions("acme");
      stack.set({ "shipping:shops": shops({ "eu-west": { apiKey: ACME_SECOND_KEY } }) });
      sim.clearRequests();
      const up = await stack.up([{ name: "orders", hook: ORDERS, url: URL, shop: "eu-west" }]);
      expect(up).toMatchObject({ ok: true, steps: { replace: 1 } });
      expect(writes(sim)).toEqual([]);
      expect(sim.subscriptions("acme")).toEqual(before);
      expect(stack.recorded()).toEqual(before);
    },
  );

  it.each(["listed", "omitted"] as const)(
    "shop_id %s: removing an entry with its resources is refused with the entry named, and nothing is lost",
    async (shopFields) => {
      const sim = acme.withSwitches({ shopFields });
      const stack = stackWithShops(sim, { globex: { apiKey: GLOBEX_KEY } });
      const both: Declaration[] = [
        { name: "orders", hook: ORDERS, url: URL },
        { name: "globex-orders", hook: ORDERS, url: "https://hooks.example.com/g", shop: "globex" },
      ];
      expect((await stack.up(both)).ok).toBe(true);
      const globex = sim.subscriptions("globex");
      stack.set({ "shipping:shops": undefined });
      const up = await stack.up([{ name: "orders", hook: ORDERS, url: URL }]);
      expect(up.error).toMatch(
        /^globex-orders: shipping:shops: subscription \d+ \(order_status_change\) was created with shop entry "globex" at http:\/\/127\.0\.0\.1:\d+, and that entry is gone \(shipping:shops: has no shop "globex"/,
      );
      expect(up.error).toContain("Put the entry back with its key and run `pulumi up`");
      expect(up.error).not.toMatch(/shop undefined|\(another\)/);
      expect(sim.subscriptions("globex")).toEqual(globex);
      expect(stack.resources).toHaveLength(2);
      // The way out it names: the entry back, `up` (which deletes what is no longer declared), then remove it.
      stack.set({ "shipping:shops": shops({ globex: { apiKey: GLOBEX_KEY } }) });
      expect((await stack.up([{ name: "orders", hook: ORDERS, url: URL }])).ok).toBe(true);
      expect(sim.subscriptions("globex")).toEqual([]);
      stack.set({ "shipping:shops": undefined });
      expect(await stack.up([{ name: "orders", hook: ORDERS, url: URL }])).toMatchObject({
        ok: true,
        steps: { same: 1 },
      });
    },
  );
});

describe("a mistake in one shipping:shops entry", () => {
  it("fails that shop's resources only, on `shop`, naming the key; the other shop's are written", async () => {
    const sim = acme.sim;
    const entries = JSON.stringify({ acme: { apiKey: ACME_KEY }, globex: { apikey: GLOBEX_KEY } });
    const stack = new Stack(configOf(sim, ACME_KEY, { "shipping:shops": entries }));
    // globex's resource waits for acme's: the engine ends a deployment at the first failed check, with
    // `--continue-on-error` too, so acme's is written only when its step comes before globex's check
    // (test/config/configMistakes.cli.test.ts, the same through the CLI).
    const up = await stack.up([
      { name: "acme-orders", hook: ORDERS, url: URL, shop: "acme" },
      {
        name: "globex-orders",
        hook: ORDERS,
        url: "https://hooks.example.com/g",
        shop: "globex",
        dependsOn: ["acme-orders"],
      },
    ]);
    expect(up.errors).toEqual([
      expect.stringMatching(
        /^globex-orders: shop: shipping:shops\.globex\.apikey: is not a key of a shop entry .*did you mean `shipping:shops\.globex\.apiKey`\?/,
      ),
    ]);
    expect(up.error).not.toContain(GLOBEX_KEY);
    expect(sim.subscriptions("acme").map((s) => s.url)).toEqual([URL]);
    expect(sim.subscriptions("globex")).toEqual([]);
  });
});

describe("a resource moved to another name of the same shop", () => {
  it.each([
    ["a second key of the shop", { apiKey: ACME_SECOND_KEY }],
    ["the base URL spelled localhost", { apiKey: ACME_KEY, host: "localhost" }],
  ] as const)("to a shop entry with %s: the hook stays subscribed", async (_, entry) => {
    const sim = acme.sim;
    const stack = new Stack(configOf(sim));
    expect((await stack.up([{ name: "orders", hook: ORDERS, url: URL }])).ok).toBe(true);
    const baseUrl = "host" in entry ? { baseUrl: sim.baseUrl.replace("127.0.0.1", entry.host) } : {};
    stack.set({ "shipping:shops": shops({ same: { apiKey: entry.apiKey, ...baseUrl } }) });
    const moved: Declaration[] = [{ name: "orders", hook: ORDERS, url: URL, shop: "same" }];
    expect(await stack.up(moved)).toMatchObject({ ok: true, steps: { replace: 1, delete: 1 } });
    expect(sim.subscriptions("acme")).toHaveLength(1);
    expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
    expect(await stack.preview(moved, { refresh: true })).toMatchObject({ ok: true, steps: { same: 1 } });
  });
});
