/**
 * (Review 13b, finding 1; kept as a regression test.)
 * Finding 1, second cause, deterministic: the adopt branch of createAll checks no `kept`. `orders` (default key)
 * is deployed and unchanged; the hook's URL is changed outside the stack to B's URL; `orders-again` (acme's
 * second key, same hook, that URL) is added. README: under two keys of one shop (shop_id reported) the second
 * declaration "fails before the second write, also when the first declaration was deployed before and is
 * unchanged". Here it needs no write, and `up` accepts both declarations of one hook on one id.
 */
import { describe, expect, it } from "vitest";
import { outOfBand } from "../../support/outOfBand";
import { ACME_KEY, ACME_SECOND_KEY } from "../../support/shops";
import { ORDERS, outcome, recorded, scenario, simulator } from "./support";

describe("a second key's declaration that needs no write", () => {
  it.each(["new-id", "keep-id"] as const)("overwrite %s: up refuses it", async (overwrite) => {
    const sim = await simulator({ overwrite });
    const run = await scenario(
      sim,
      [{ name: "orders", hook: ORDERS, url: "https://one.example.com/o" }],
      `adopt-kept-${overwrite}`,
    );
    await run.stack.setConfig("shipping:shops", {
      value: JSON.stringify({ alias: { apiKey: ACME_SECOND_KEY } }),
      secret: true,
    });
    await run.stack.up();
    await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
      api.create([{ hook: ORDERS, url: "https://two.example.com/o" }]),
    );
    run.state.declared = [
      ...run.state.declared,
      { name: "orders-again", hook: ORDERS, url: "https://two.example.com/o", shop: "alias" },
    ];
    const up = await outcome(run.stack.up(), "up (second key declares the hook)");
    console.log(
      JSON.stringify(
        { overwrite, up, live: sim.subscriptions("acme"), state: await recorded(run.stack) },
        null,
        1,
      ),
    );
    expect(up).not.toBe("succeeded");
  });
});
