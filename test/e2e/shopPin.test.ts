/**
 * A pinned shop (`shipping:shopId`) after its key was swapped to another shop's. Without the pin, an added
 * resource, a rename without an alias and `pulumi up --replace` create in the shop the key now reaches before
 * any recorded id is touched (the engine asks the provider nothing about a recorded resource first) and take
 * over that shop's subscription of the hook (review 13d, findings 1-3). With the pin, preview and up refuse at
 * `check`, before any write, and both shops and the state stay as they were.
 */
import { describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../simulator";
import { outOfBand } from "../support/outOfBand";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";
import { engine, subscriptionResources } from "./support/engine";
import { ORDERS, outcome, recorded, SHIPMENTS, scenario, simulator } from "./twoKeys/support";

const ACME_O = "https://hooks.example.com/o";
const ACME_S = "https://hooks.example.com/s";
const GLOBEX_S = "https://globex.example.com/s";
const GLOBEX_O = "https://globex.example.com/o";

/** The shop_id the simulator reports for each test shop. */
async function shopIdOf(sim: RunningSimulator, key: string): Promise<string> {
  const [created] = await outOfBand(sim.baseUrl, key, (api) =>
    api.create([{ hook: "shipment_label_created", url: "https://probe.example.com/p" }]),
  );
  const [live] = await outOfBand(sim.baseUrl, key, (api) => api.list([created as number]));
  await outOfBand(sim.baseUrl, key, (api) => api.delete([created as number]));
  return String(live?.shopId);
}

/** Writes the simulator accepted, as `METHOD status` lines. */
function writes(sim: RunningSimulator): string[] {
  return sim
    .requests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.status}`);
}

type Stack = Awaited<ReturnType<typeof scenario>>["stack"];

const OPERATIONS: [
  string,
  (run: Awaited<ReturnType<typeof scenario>>) => Promise<(s: Stack) => Promise<unknown>>,
][] = [
  [
    "an added resource",
    async (run) => {
      run.state.declared = [{ name: "shipments", hook: SHIPMENTS, url: ACME_S }, ...run.state.declared];
      return (s) => s.up();
    },
  ],
  [
    "a rename without an alias",
    async (run) => {
      run.state.declared = [{ name: "orders-renamed", hook: ORDERS, url: ACME_O }];
      return (s) => s.up();
    },
  ],
  [
    "pulumi up --replace",
    async (run) => {
      const [urn] = subscriptionResources(await run.stack.exportStack()).map((r) => r.urn);
      return (s) => s.up({ replace: [urn as string] });
    },
  ],
];

describe("shipping:shopId pins the shop a key must reach (shop_id listed)", () => {
  it.each(OPERATIONS)(
    "after a key swap, %s: preview and up refuse naming the pin, with no write in either shop and state unchanged",
    async (_, edit) => {
      const sim = await simulator({ shopFields: "listed", overwrite: "new-id" });
      const acmeShop = await shopIdOf(sim, ACME_KEY);
      const globexShop = await shopIdOf(sim, GLOBEX_KEY);
      await outOfBand(sim.baseUrl, GLOBEX_KEY, (api) =>
        api.create([
          { hook: SHIPMENTS, url: GLOBEX_S },
          { hook: ORDERS, url: GLOBEX_O },
        ]),
      );
      const globex = sim.subscriptions("globex");
      const run = await scenario(sim, [{ name: "orders", hook: ORDERS, url: ACME_O }], "pin-swap");
      await run.stack.setConfig("shipping:shopId", { value: acmeShop });
      expect(await outcome(run.stack.up(), "up pinned with acme's key")).toBe("succeeded");
      const acme = sim.subscriptions("acme");
      const state = await recorded(run.stack);
      const operation = await edit(run);
      await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });

      sim.clearRequests();
      const pinned = `shipping:shopId: pins shop ${acmeShop}, but the service at`;
      const preview = await engine(run.stack.preview(), "preview").then(String, String);
      expect(preview).toContain(pinned);
      expect(preview).toContain(`reports shop ${globexShop} for the key in shipping:apiKey`);
      const up = await engine(operation(run.stack), "up with globex's key").then(String, String);
      expect(up).toContain(pinned);
      expect(up).toContain("set shipping:apiKey back to a key of shop");
      expect(writes(sim)).toEqual([]);
      expect(sim.subscriptions("globex")).toEqual(globex);
      expect(sim.subscriptions("acme")).toEqual(acme);
      expect(await recorded(run.stack)).toEqual(state);

      // The way out the message names: set the key back and run `up`; the stack then destroys cleanly.
      await run.stack.setConfig("shipping:apiKey", { value: ACME_KEY, secret: true });
      expect(await outcome(operation(run.stack), "the same up with acme's key")).toBe("succeeded");
      expect(await outcome(run.stack.destroy(), "destroy")).toBe("succeeded");
      expect(sim.subscriptions("acme")).toEqual([]);
      expect(sim.subscriptions("globex")).toEqual(globex);
    },
  );

  it.each(["listed", "omitted"] as const)(
    "shop_id %s, the key reaches another shop that lists nothing: up writes, reads back, deletes what it wrote and fails; the other shop ends empty",
    async (shopFields) => {
      const sim = await simulator({ shopFields, overwrite: "new-id" });
      const run = await scenario(
        sim,
        [
          { name: "orders", hook: ORDERS, url: ACME_O },
          { name: "shipments", hook: SHIPMENTS, url: ACME_S },
        ],
        `pin-empty-${shopFields}`,
      );
      await run.stack.setConfig("shipping:shopId", { value: "acme-shop-that-is-not-globex" });
      await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });
      sim.clearRequests();
      const up = await engine(run.stack.up(), "up pinned with globex's key").then(String, String);
      expect(up).toContain("shipping:shopId: pins shop acme-shop-that-is-not-globex, but the service at");
      expect(up).toContain("which was deleted again");
      if (shopFields === "omitted") expect(up).toContain("sends no shop_id");
      // One POST of both hooks, then the DELETEs of what it wrote: nothing else is written.
      const [post, ...undo] = writes(sim);
      expect(post).toMatch(/^POST 2\d\d$/);
      expect(undo.length).toBeGreaterThan(0);
      for (const write of undo) expect(write).toMatch(/^DELETE 2\d\d$/);
      expect(sim.subscriptions("globex")).toEqual([]);
      expect(sim.subscriptions("acme")).toEqual([]);
      expect(await recorded(run.stack)).toEqual([]);
    },
  );

  it("a service that sends no shop_id: preview refuses a pinned shop with subscriptions, saying the pin cannot be checked", async () => {
    const sim = await simulator({ shopFields: "omitted" });
    await outOfBand(sim.baseUrl, ACME_KEY, (api) => api.create([{ hook: SHIPMENTS, url: ACME_S }]));
    const acme = sim.subscriptions("acme");
    const run = await scenario(sim, [{ name: "orders", hook: ORDERS, url: ACME_O }], "pin-silent");
    await run.stack.setConfig("shipping:shopId", { value: "1" });
    sim.clearRequests();
    const preview = await engine(run.stack.preview(), "preview").then(String, String);
    expect(preview).toContain("shipping:shopId: pins shop 1, but the service at");
    expect(preview).toContain("sends no shop_id on the subscriptions of shop (default)");
    expect(preview).toContain("Remove shipping:shopId");
    expect(await outcome(run.stack.up(), "up")).not.toBe("succeeded");
    expect(writes(sim)).toEqual([]);
    expect(sim.subscriptions("acme")).toEqual(acme);
  });

  it("the right key: a shop entry pinned by number in shipping:shops deploys, previews without a write, and destroys", async () => {
    const sim = await simulator({ shopFields: "listed" });
    const acmeShop = await shopIdOf(sim, ACME_KEY);
    const run = await scenario(
      sim,
      [{ name: "orders", hook: ORDERS, url: ACME_O, shop: "main" }],
      "pin-entry",
    );
    const entry = { apiKey: ACME_KEY, shopId: Number.isNaN(Number(acmeShop)) ? acmeShop : Number(acmeShop) };
    await run.stack.setConfig("shipping:shops", { value: JSON.stringify({ main: entry }), secret: true });
    expect(await outcome(run.stack.up(), "up")).toBe("succeeded");
    expect(sim.subscriptions("acme").map((s) => [s.hook, s.url])).toEqual([[ORDERS, ACME_O]]);
    sim.clearRequests();
    const preview = await run.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(sim.requests().map((r) => r.method)).toEqual(["GET"]);
    expect(await outcome(run.stack.destroy(), "destroy")).toBe("succeeded");
    expect(sim.subscriptions("acme")).toEqual([]);
  });
});
