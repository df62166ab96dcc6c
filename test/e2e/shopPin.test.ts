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
import { dist, engine, sandbox, stackIn, subscriptionResources } from "./support/engine";
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
      // And the way out when it is the pin that is wrong (review 13e, finding 3).
      expect(up).toContain(`set shipping:shopId to ${globexShop} and run \`pulumi up\``);
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
    expect(preview).toContain("sends no shop_id on the subscriptions of the default shop");
    // Removing the pin takes an `up` before refresh or destroy sees it (review 13e, finding 5).
    expect(preview).toContain(
      "Remove shipping:shopId and run `pulumi up` (refresh and destroy use the configuration of the last `up`",
    );
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

/** Polls until the simulator has begun answering a POST, then arms `arm` (bounded in time). */
async function whenPostArrives(sim: RunningSimulator, arm: () => void): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (sim.requests().some((r) => r.method === "POST")) return arm();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no POST arrived within 60 s");
}

/** A fresh stack of the default shop pinned to acme whose key is globex's (review 13e, finding 2). */
async function mispinned(sim: RunningSimulator, name: string, hooks: readonly string[]) {
  const run = await scenario(
    sim,
    hooks.map((hook, i) => ({ name: `h${i}`, hook, url: `https://hooks.example.com/${i}` })),
    name,
  );
  await run.stack.setConfig("shipping:apiKey", { value: GLOBEX_KEY, secret: true });
  await run.stack.setConfig("shipping:shopId", { value: await shopIdOf(sim, ACME_KEY) });
  return run;
}

describe("a pinned shop's write into another, empty shop is undone under faults (review 13e, finding 2)", () => {
  it("the undoing DELETE answers 500 once: it is sent again, globex ends empty and up fails naming the pin", async () => {
    const sim = await simulator({ shopFields: "listed" });
    const run = await mispinned(sim, "pin-undo-500", [ORDERS]);
    sim.addFault({ kind: "status", status: 500, method: "DELETE", count: 1 });
    const up = await engine(run.stack.up(), "up").then(String, String);
    expect(up).toContain("shipping:shopId: pins shop");
    expect(up).toContain("which was deleted again");
    expect(sim.subscriptions("globex")).toEqual([]);
    expect(await recorded(run.stack)).toEqual([]);
  });

  it("the undoing DELETE keeps failing: up fails naming the pin and the subscription left in the other shop", async () => {
    const sim = await simulator({ shopFields: "listed" });
    const run = await mispinned(sim, "pin-undo-fails", [ORDERS]);
    sim.addFault({ kind: "status", status: 500, method: "DELETE", count: 50 });
    const up = await engine(run.stack.up(), "up").then(String, String);
    sim.clearFaults();
    const [left] = sim.subscriptions("globex");
    expect(up).toContain("shipping:shopId: pins shop");
    expect(up).toContain(`Undoing the write failed`);
    expect(up).toContain(
      `subscription ${left?.id} may be in the shop shipping:apiKey reaches, recorded nowhere`,
    );
    expect(await recorded(run.stack)).toEqual([]);
  });

  it.each([
    ["one hook (the read-back of the new id)", [ORDERS]],
    ["two hooks (the read-back that matches ids to hooks)", [ORDERS, SHIPMENTS]],
  ])(
    "%s: the read-back after the POST answers 500: the write is undone and up fails naming the pin",
    async (_, hooks) => {
      const sim = await simulator({ shopFields: "listed" });
      const run = await mispinned(sim, `pin-readback-500-${hooks.length}`, hooks);
      sim.addFault({ kind: "latency", ms: 2_000, method: "POST", count: 1 });
      sim.clearRequests();
      const up = engine(run.stack.up(), "up").then(String, String);
      await whenPostArrives(sim, () =>
        sim.addFault({ kind: "status", status: 500, method: "GET", count: 20 }),
      );
      const result = await up;
      sim.clearFaults();
      expect(result).toContain("shipping:shopId: pins shop");
      expect(result).toMatch(/read (it|them) back to learn the shop, but the read failed/);
      expect(sim.subscriptions("globex")).toEqual([]);
      expect(await recorded(run.stack)).toEqual([]);
    },
  );
});

describe("a pinned shop's write into another, empty shop whose POST answers are all lost (review 13f)", () => {
  it.each(["new-id", "keep-id"] as const)(
    "%s: the applied write is found, read back, undone, and up fails naming the pin",
    async (overwrite) => {
      const sim = await simulator({ shopFields: "listed", overwrite });
      const run = await mispinned(sim, `pin-drop-${overwrite}`, [ORDERS]);
      // The first try and every retry are applied, and their answers dropped.
      sim.addFault({ kind: "drop-after-write", method: "POST", count: 5 });
      const up = await engine(run.stack.up(), "up").then(String, String);
      expect(up).toContain("shipping:shopId: pins shop");
      expect(up).toContain("which was deleted again");
      expect(sim.subscriptions("globex")).toEqual([]);
      expect(await recorded(run.stack)).toEqual([]);
    },
  );

  it("the right key: the lost answers are recovered from the listing and recorded with the pinned shop", async () => {
    const sim = await simulator({ shopFields: "listed" });
    const run = await scenario(sim, [{ name: "orders", hook: ORDERS, url: ACME_O }], "pin-drop-right");
    const acmeShop = await shopIdOf(sim, ACME_KEY);
    await run.stack.setConfig("shipping:shopId", { value: acmeShop });
    sim.addFault({ kind: "drop-after-write", method: "POST", count: 5 });
    expect(await outcome(run.stack.up(), "up")).toBe("succeeded");
    expect(sim.subscriptions("acme").map((s) => [s.hook, s.url])).toEqual([[ORDERS, ACME_O]]);
    expect((await recorded(run.stack)).map((r) => [r.hook, r.shopId])).toEqual([[ORDERS, acmeShop]]);
  });

  it("once a read-back told the other shop, a later create of the same run is refused without a write (--parallel 1)", async () => {
    const sim = await simulator({ shopFields: "listed" });
    const run = await mispinned(sim, "pin-learnt", [ORDERS, SHIPMENTS]);
    sim.clearRequests();
    const up = await engine(run.stack.up({ parallel: 1, continueOnError: true }), "up").then(String, String);
    expect(up).toContain("shipping:shopId: pins shop");
    // One write and its undo: the second create knows the shop from the first one's read-back.
    expect(writes(sim).filter((w) => w.startsWith("POST"))).toHaveLength(1);
    expect(sim.subscriptions("globex")).toEqual([]);
  });
});

describe("two shop entries with one key, pinned to different shops (review 13e, finding 1)", () => {
  it("the mis-pinned entry's create after the other's (dependsOn) is refused, though the other entry's write told the shop", async () => {
    const sim = await simulator({ shopFields: "listed" });
    const acmeShop = await shopIdOf(sim, ACME_KEY);
    const globexShop = await shopIdOf(sim, GLOBEX_KEY);
    // "main" is pinned to acme, but its key was pasted from the globex entry; globex is empty.
    const shops = {
      main: { apiKey: GLOBEX_KEY, shopId: acmeShop },
      globex: { apiKey: GLOBEX_KEY, shopId: globexShop },
    };
    const stack = await stackIn(
      sandbox("pin-shared-key"),
      async () => {
        const g = new dist.provider.WebhookSubscription("g", {
          hook: SHIPMENTS,
          url: GLOBEX_S,
          shop: "globex",
        });
        new dist.provider.WebhookSubscription(
          "m",
          { hook: ORDERS, url: ACME_O, shop: "main" },
          { dependsOn: [g] },
        );
      },
      {
        "shipping:baseUrl": { value: sim.baseUrl },
        "shipping:shops": { value: JSON.stringify(shops), secret: true },
      },
    );
    const up = await engine(stack.up(), "up").then(String, String);
    expect(up).toContain(`shipping:shops.main.shopId: pins shop ${acmeShop}, but the service at`);
    expect(sim.subscriptions("globex").map((s) => [s.hook, s.url])).toEqual([[SHIPMENTS, GLOBEX_S]]);
    expect(subscriptionResources(await stack.exportStack()).map((r) => r.urn.split("::").pop())).toEqual([
      "g",
    ]);
  });
});
