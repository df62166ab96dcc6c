/**
 * (Review 13b, finding 1; kept as a regression test.)
 * Finding 1: one hook declared under two keys of one shop, deployed when the shop lists nothing. README says such
 * a declaration is refused "after the first write when the shop had no subscription yet". Under new-id the
 * first `up` succeeds with one declaration's id gone (the read-back of a just-posted id that another key's POST
 * replaced falls back to a made-up subscription); under keep-id, when the first `up` fails after both writes,
 * the retry `up` succeeds by adopting the id the other resource keeps (the adopt branch checks no `kept`).
 */
import { describe, expect, it } from "vitest";
import { ACME_SECOND_KEY } from "../../support/shops";
import { ORDERS, outcome, recorded, scenario, simulator } from "./support";

describe("one hook under two keys of one empty shop", () => {
  it.each(["new-id", "keep-id"] as const)(
    "overwrite %s: a retried up must not succeed",
    async (overwrite) => {
      const sim = await simulator({ overwrite });
      const run = await scenario(
        sim,
        [
          { name: "orders", hook: ORDERS, url: "https://one.example.com/o" },
          { name: "orders-again", hook: ORDERS, url: "https://two.example.com/o", shop: "alias" },
        ],
        `twokeys-${overwrite}`,
      );
      await run.stack.setConfig("shipping:shops", {
        value: JSON.stringify({ alias: { apiKey: ACME_SECOND_KEY } }),
        secret: true,
      });
      const first = await outcome(run.stack.up(), "up 1");
      const afterFirst = { live: sim.subscriptions("acme"), state: await recorded(run.stack) };
      const second = await outcome(run.stack.up(), "up 2 (same program)");
      const afterSecond = { live: sim.subscriptions("acme"), state: await recorded(run.stack) };
      const third = await outcome(run.stack.up(), "up 3 (same program)");
      console.log(JSON.stringify({ overwrite, first, afterFirst, second, afterSecond, third }, null, 1));
      // Expected: the contradictory declaration is refused by every up (the service reports shop_id now).
      // Any up that succeeds must leave every declared hook live with its URL and state id = live id.
      for (const [result, after] of [
        [first, afterFirst],
        [second, afterSecond],
      ] as const) {
        if (result !== "succeeded") continue;
        for (const r of after.state) {
          expect(after.live, `${r.name} after a successful up`).toContainEqual({
            id: r.id,
            hook: r.hook,
            url: r.url,
          });
        }
      }
      expect(second).not.toBe("succeeded");
    },
  );
});
