/**
 * A pinned shop whose key reaches another shop that lists nothing: such a shop cannot say which shop it is,
 * so the create writes, reads the new ids back to learn the shop, deletes what it wrote and fails, leaving
 * that shop empty and nothing in state: with or without `shop_id` listed, when the read-back or the undoing
 * DELETE answers 500 (once; when the undo keeps failing, the message names the subscription left behind),
 * and when every answer of the POST is lost (keep-id and new-id). Once a read-back told the other shop, later
 * creates of the deployment send no POST, also those of another entry with the same key pinned elsewhere.
 * Run in the engine's order of calls (test/support/engineOrder.ts).
 */
import { describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack } from "../support/engineOrder";
import {
  ACME_SHOP_ID,
  configOf,
  GLOBEX_SHOP_ID,
  ORDERS,
  QUICK_RETRY,
  SHIPMENTS,
  shops,
  writes,
} from "../support/services";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";

const acme = useAcmeSimulator();

const PINNED = `shipping:shopId: pins shop ${ACME_SHOP_ID}, but the service at`;
const UNDONE = "which was deleted again";

/** A program of `hooks` in the default shop. */
const programOf = (hooks: readonly string[]): Declaration[] =>
  hooks.map((hook, i) => ({ name: `h${i}`, hook, url: `https://hooks.example.com/${i}` }));

/** A new stack of the default shop pinned to acme whose key is globex's (globex lists nothing). */
const mispinned = (sim: RunningSimulator) =>
  new Stack(configOf(sim, GLOBEX_KEY, { "shipping:shopId": ACME_SHOP_ID, ...QUICK_RETRY }));

describe("a pinned shop's key reaches another shop that lists nothing", () => {
  it.each(["listed", "omitted"] as const)(
    "shop_id %s: up posts once, reads back, deletes what it wrote and fails; the other shop ends empty",
    async (shopFields) => {
      const sim = acme.withSwitches({ shopFields, overwrite: "new-id" });
      const stack = mispinned(sim);
      const up = await stack.up(programOf([ORDERS, SHIPMENTS]));
      expect(up.error).toContain(PINNED);
      expect(up.error).toContain(UNDONE);
      if (shopFields === "omitted") expect(up.error).toContain("sends no shop_id");
      // One POST of both hooks, then the DELETEs of what it wrote: nothing else is written.
      const [post, ...undo] = writes(sim);
      expect(post).toMatch(/^POST 2\d\d$/);
      expect(undo.length).toBeGreaterThan(0);
      for (const write of undo) expect(write).toMatch(/^DELETE 2\d\d$/);
      expect(sim.subscriptions("globex")).toEqual([]);
      expect(sim.subscriptions("acme")).toEqual([]);
      expect(stack.resources).toEqual([]);
    },
  );

  it("once a read-back told the other shop, a later create of the same run is refused without a write (--parallel 1)", async () => {
    const sim = acme.sim;
    const stack = mispinned(sim);
    const up = await stack.up(programOf([ORDERS, SHIPMENTS]), { parallel: 1, continueOnError: true });
    expect(up.errors).toHaveLength(2);
    for (const error of up.errors) expect(error).toContain(PINNED);
    expect(writes(sim).filter((w) => w.startsWith("POST"))).toEqual(["POST 200"]);
    expect(sim.subscriptions("globex")).toEqual([]);
    expect(stack.resources).toEqual([]);
  });

  it("an entry pinned to acme with globex's key, created after a correctly pinned globex entry with that key, is refused before its write", async () => {
    const sim = acme.sim;
    // "main" is pinned to acme, but its key was pasted from the globex entry; globex is empty.
    const stack = new Stack({
      "shipping:baseUrl": sim.baseUrl,
      "shipping:shops": shops({
        main: { apiKey: GLOBEX_KEY, shopId: ACME_SHOP_ID },
        globex: { apiKey: GLOBEX_KEY, shopId: GLOBEX_SHOP_ID },
      }),
    });
    const up = await stack.up([
      { name: "g", hook: SHIPMENTS, url: "https://globex.example.com/s", shop: "globex" },
      { name: "m", hook: ORDERS, url: "https://hooks.example.com/o", shop: "main", dependsOn: ["g"] },
    ]);
    expect(up.error).toContain(
      `m: shop: shipping:shops.main.shopId: pins shop ${ACME_SHOP_ID}, but the service at`,
    );
    expect(sim.subscriptions("globex").map((s) => [s.hook, s.url])).toEqual([
      [SHIPMENTS, "https://globex.example.com/s"],
    ]);
    expect(writes(sim)).toEqual(["POST 200"]);
    expect(stack.resources.map((r) => r.name)).toEqual(["g"]);
  });
});

describe("the write into the other, empty shop is undone under faults", () => {
  it("the undoing DELETE answers 500 once: it is sent again, globex ends empty and up fails naming the pin", async () => {
    const sim = acme.sim;
    sim.addFault({ kind: "status", status: 500, method: "DELETE", count: 1 });
    const stack = mispinned(sim);
    const up = await stack.up(programOf([ORDERS]));
    expect(up.error).toContain(PINNED);
    expect(up.error).toContain(UNDONE);
    expect(writes(sim)).toEqual(["POST 200", "DELETE 500", "DELETE 204"]);
    expect(sim.subscriptions("globex")).toEqual([]);
    expect(stack.resources).toEqual([]);
  });

  it("the undoing DELETE keeps failing: up fails naming the pin and the subscription left in the other shop", async () => {
    const sim = acme.sim;
    sim.addFault({ kind: "status", status: 500, method: "DELETE", count: 50 });
    const stack = mispinned(sim);
    const up = await stack.up(programOf([ORDERS]));
    const [left] = sim.subscriptions("globex");
    expect(up.error).toContain(PINNED);
    expect(up.error).toContain("Undoing the write failed");
    expect(up.error).toContain(
      `subscription ${left?.id} may be in the shop shipping:apiKey reaches, recorded nowhere`,
    );
    expect(stack.resources).toEqual([]);
  });

  it.each([
    ["one hook (the read-back of the new id)", [ORDERS]],
    ["two hooks (the read-back that matches ids to hooks)", [ORDERS, SHIPMENTS]],
  ])(
    "%s: the read-back after the POST answers 500: the write is undone and up fails naming the pin",
    async (_, hooks) => {
      const sim = acme.sim;
      sim.addFault({ kind: "status", status: 500, method: "GET", after: "POST", count: 20 });
      const stack = mispinned(sim);
      const up = await stack.up(programOf(hooks));
      expect(up.error).toContain(`shipping:shopId: pins shop ${ACME_SHOP_ID}, and the default shop at`);
      expect(up.error).toMatch(/read (it|them) back to learn the shop, but the read failed/);
      expect(writes(sim).filter((w) => w.startsWith("DELETE 2"))).not.toEqual([]);
      expect(sim.subscriptions("globex")).toEqual([]);
      expect(stack.resources).toEqual([]);
    },
  );

  it.each(["new-id", "keep-id"] as const)(
    "%s, every answer of the POST lost: the applied write is found, read back, undone, and up fails naming the pin",
    async (overwrite) => {
      const sim = acme.withSwitches({ overwrite });
      // The first try and every retry are applied, and their answers dropped.
      sim.addFault({ kind: "drop-after-write", method: "POST", count: 5 });
      const stack = mispinned(sim);
      const up = await stack.up(programOf([ORDERS]));
      expect(up.error).toContain(PINNED);
      expect(up.error).toContain(UNDONE);
      expect(sim.subscriptions("globex")).toEqual([]);
      expect(stack.resources).toEqual([]);
    },
  );

  it("the right key, every answer of the POST lost: the write is recovered from the listing and recorded with the pinned shop", async () => {
    const sim = acme.sim;
    sim.addFault({ kind: "drop-after-write", method: "POST", count: 5 });
    const stack = new Stack(configOf(sim, ACME_KEY, { "shipping:shopId": ACME_SHOP_ID, ...QUICK_RETRY }));
    expect((await stack.up(programOf([ORDERS]))).ok).toBe(true);
    expect(sim.subscriptions("acme").map((s) => [s.hook, s.url])).toEqual([
      [ORDERS, "https://hooks.example.com/0"],
    ]);
    expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
    expect(stack.resource("h0")?.outs.shopId).toBe(ACME_SHOP_ID);
  });

  it("a pinned entry and an unpinned one share the key: the pinned one's write is undone on its own pin", async () => {
    const sim = acme.sim;
    sim.addFault({ kind: "status", status: 500, method: "GET", after: "POST" });
    const stack = new Stack({
      "shipping:baseUrl": sim.baseUrl,
      ...QUICK_RETRY,
      "shipping:shops": shops({
        pinned: { apiKey: GLOBEX_KEY, shopId: ACME_SHOP_ID },
        free: { apiKey: GLOBEX_KEY },
      }),
    });
    const up = await stack.up([
      { name: "free-orders", hook: ORDERS, url: "https://hooks.example.com/f", shop: "free" },
      { name: "pinned-shipments", hook: SHIPMENTS, url: "https://hooks.example.com/p", shop: "pinned" },
    ]);
    expect(up.error).toContain(`shipping:shops.pinned.shopId: pins shop ${ACME_SHOP_ID}`);
    expect(sim.subscriptions("globex").filter((s) => s.hook === SHIPMENTS)).toEqual([]);
    expect(stack.resource("pinned-shipments")).toBeUndefined();
    sim.clearFaults();
    // What the unpinned entry wrote is its own: recorded (confirmed or not), and destroy removes it.
    expect((await stack.destroy()).ok).toBe(true);
    expect(sim.subscriptions("globex")).toEqual([]);
  });
});
