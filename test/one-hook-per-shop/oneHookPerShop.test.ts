/**
 * A shop has one subscription per hook. The same hook under two shop names with the same API and key fails at
 * `check`, with no API call. Under two keys of one shop (the service reports `shop_id`) it fails before the
 * second write, also when the first declaration was deployed before and is unchanged and the second needs no
 * write; in a shop that listed nothing, where the two keys' writes are not ordered, no `up` succeeds with one
 * of them overwritten (either overwrite behaviour). Run in the engine's order of calls (test/support/engineOrder.ts).
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack } from "../support/engineOrder";
import { outOfBand } from "../support/outOfBand";
import { freshProvider } from "../support/provider";
import { configOf, ORDERS, SHIPMENTS, stackWithShops } from "../support/services";
import { ACME_KEY, ACME_SECOND_KEY } from "../support/shops";

const acme = useAcmeSimulator();

const TWICE: Declaration[] = [
  { name: "orders", hook: ORDERS, url: "https://one.example.com/o" },
  { name: "orders-again", hook: ORDERS, url: "https://two.example.com/o", shop: "alias" },
];

describe("one hook declared twice for one shop", () => {
  it("under two names with the same key: preview fails at check, before any write", async () => {
    const sim = acme.sim;
    const stack = stackWithShops(sim, { alias: { apiKey: ACME_KEY } });
    const preview = await stack.preview(TWICE);
    expect(preview.error).toMatch(/^orders-again: hook: order_status_change is declared twice for one shop/);
    // At most the shop's listing, for the first resource's takeover check (a real preview's program hands it).
    expect(sim.requests().map((r) => r.method)).toEqual(["GET"]);
  });

  it("under two keys of one shop that lists a subscription: up fails before the second write", async () => {
    const sim = acme.sim;
    await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
      api.create([{ hook: SHIPMENTS, url: "https://pre.example.com/s" }]),
    );
    sim.clearRequests();
    const stack = stackWithShops(sim, { alias: { apiKey: ACME_SECOND_KEY } });
    const up = await stack.up(TWICE);
    expect(up.error).toContain("is declared twice for shop 1");
    expect(sim.requests().filter((r) => r.method === "POST")).toHaveLength(1);
    expect(sim.subscriptions("acme").filter((s) => s.hook === ORDERS)).toHaveLength(1);
  });

  it.each(["new-id", "keep-id"] as const)(
    "overwrite %s, the first deployed before and unchanged, the second needing no write (its URL is live): up refuses the second",
    async (overwrite) => {
      const sim = acme.withSwitches({ overwrite });
      const stack = stackWithShops(sim, { alias: { apiKey: ACME_SECOND_KEY } });
      const [first] = TWICE;
      expect((await stack.up([first as Declaration])).ok).toBe(true);
      // The back office points the hook at the second declaration's URL: its create would adopt it.
      await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
        api.create([{ hook: ORDERS, url: "https://two.example.com/o" }]),
      );
      const up = await stack.up(TWICE);
      expect(up.ok).toBe(false);
      // Under keep-id the first keeps the live subscription's id: refused at the second's check, before the
      // engine plans a step; under new-id the id is another, and the create refuses by the shop the service names.
      expect(up.error).toMatch(
        overwrite === "keep-id"
          ? /orders-again: hook: order_status_change is declared twice for shop alias: another resource of this stack keeps subscription 1 /
          : /orders-again: order_status_change is declared twice for shop 1 /,
      );
      expect(stack.resource("orders-again")).toBeUndefined();
    },
  );

  it.each(["new-id", "keep-id"] as const)(
    "overwrite %s, in a shop that listed nothing: no up succeeds with one declaration's subscription overwritten",
    async (overwrite) => {
      const sim = acme.withSwitches({ overwrite });
      const stack = stackWithShops(sim, { alias: { apiKey: ACME_SECOND_KEY } });
      const outcomes = [];
      for (let run = 0; run < 3; run++) {
        const up = await stack.up(TWICE);
        outcomes.push(up.ok);
        // Any up that succeeds leaves every recorded resource live with its URL and state id = live id.
        if (up.ok) for (const r of stack.recorded()) expect(sim.subscriptions("acme")).toContainEqual(r);
      }
      // The service reports shop_id once the first write was read back: the contradiction is refused from then on.
      expect(outcomes.slice(1)).toEqual([false, false]);
    },
  );
});

describe("one resource keeping its recorded hook through ignoreChanges", () => {
  it("and another declaring that hook for the same shop: check refuses the second, naming ignoreChanges", async () => {
    const sim = acme.sim;
    const stack = new Stack(configOf(sim));
    expect((await stack.up([{ name: "a", hook: ORDERS, url: "https://a.example.com/o" }])).ok).toBe(true);
    const a = stack.resource("a");
    sim.clearRequests();
    // The engine applies ignoreChanges before check: `a` is checked with its recorded hook, whatever it declares.
    const provider = await freshProvider(configOf(sim));
    const checks = [
      await provider.check(a?.inputs ?? {}, { hook: ORDERS, url: "https://a.example.com/o" }),
      await provider.check({}, { hook: ORDERS, url: "https://b.example.com/o" }),
    ];
    expect(checks[0]?.failures).toEqual([]);
    expect(checks[1]?.failures).toEqual([
      {
        property: "hook",
        reason: expect.stringMatching(
          /^order_status_change is declared twice for the default shop: .*ignoreChanges: \["hook"\]/,
        ),
      },
    ]);
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it.each([
    ["the kept one checked first", ["a", "b"]],
    ["the new one checked first", ["b", "a"]],
  ] as const)(
    "and another declaring it at the same URL (%s): up refuses before any write, naming ignoreChanges",
    async (_, order) => {
      const sim = acme.sim;
      const stack = new Stack(configOf(sim));
      expect((await stack.up([{ name: "a", hook: ORDERS, url: "https://a.example.com/o" }])).ok).toBe(true);
      const live = sim.subscriptions("acme");
      sim.clearRequests();
      // `a` now declares another hook with ignoreChanges: ["hook"] (checked with its recorded one); `b` is new.
      const twice = order.map((name) => ({ name, hook: ORDERS, url: "https://a.example.com/o" }));
      const up = await stack.up(twice);
      expect(up.ok).toBe(false);
      expect(up.error).toMatch(/order_status_change is declared twice for the default shop: .*ignoreChanges/);
      expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
      expect(sim.subscriptions("acme")).toEqual(live);
    },
  );
});
