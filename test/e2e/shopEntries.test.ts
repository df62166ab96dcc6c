/**
 * Renaming or removing a `shipping:shops` entry (config and program in one change). Review 13b, findings 5 and
 * 6: the rename failed when the service omits shop_id, and both printed a message about a key change that never
 * happened ("created in shop undefined").
 */
import { describe, expect, it } from "vitest";
import { ACME_SECOND_KEY, GLOBEX_KEY } from "../support/shops";
import { engine } from "./support/engine";
import { ORDERS, recorded, scenario, simulator } from "./twoKeys/support";

const URL = "https://hooks.example.com/o";

function shops(entries: Record<string, { apiKey: string }>) {
  return { value: JSON.stringify(entries), secret: true };
}

describe("shop entries", () => {
  it.each(["listed", "omitted"] as const)(
    "shop_id %s: renaming an entry keeps the subscription (same id, no write)",
    async (shopFields) => {
      const sim = await simulator({ shopFields });
      const run = await scenario(
        sim,
        [{ name: "orders", hook: ORDERS, url: URL, shop: "eu" }],
        `rename-${shopFields}`,
      );
      await run.stack.setConfig("shipping:shops", shops({ eu: { apiKey: ACME_SECOND_KEY } }));
      await run.stack.up();
      const before = sim.subscriptions("acme");
      await run.stack.setConfig("shipping:shops", shops({ "eu-west": { apiKey: ACME_SECOND_KEY } }));
      run.state.declared = [{ name: "orders", hook: ORDERS, url: URL, shop: "eu-west" }];
      await engine(run.stack.up(), "up (entry renamed)");
      expect(sim.subscriptions("acme")).toEqual(before);
      expect((await recorded(run.stack)).map((r) => r.id)).toEqual(before.map((s) => s.id));
    },
  );

  it.each(["listed", "omitted"] as const)(
    "shop_id %s: removing an entry with its resources is refused with the entry named, and nothing is lost",
    async (shopFields) => {
      const sim = await simulator({ shopFields });
      const run = await scenario(
        sim,
        [
          { name: "orders", hook: ORDERS, url: URL },
          { name: "globex-orders", hook: ORDERS, url: "https://hooks.example.com/g", shop: "globex" },
        ],
        `remove-${shopFields}`,
      );
      await run.stack.setConfig("shipping:shops", shops({ globex: { apiKey: GLOBEX_KEY } }));
      await run.stack.up();
      const globex = sim.subscriptions("globex");
      await run.stack.removeConfig("shipping:shops");
      run.state.declared = [{ name: "orders", hook: ORDERS, url: URL }];
      const up = await engine(run.stack.up(), "up (entry removed)").then(String, String);
      expect(up).toMatch(
        /globex-orders.*shipping:shops: subscription \d+ \(order_status_change\) was created with shop entry "globex" at http:\/\/127\.0\.0\.1:\d+, and that entry is gone \(shipping:shops: has no shop "globex"/,
      );
      expect(up).toMatch(/Put the entry back with its key and run `pulumi up`/);
      expect(up).not.toMatch(/shop undefined|\(another\)/);
      expect(sim.subscriptions("globex")).toEqual(globex);
      expect(await recorded(run.stack)).toHaveLength(2);
    },
  );
});
