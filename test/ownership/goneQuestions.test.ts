import { describe, expect, it } from "vitest";
import { Clients } from "../../provider/config/clients";
import { resolveShop } from "../../provider/config/settings";
import { Claims } from "../../provider/facts/claims";
import { ShopViews } from "../../provider/facts/shopViews";
import { Writes } from "../../provider/writes/writes";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { outOfBand } from "../support/outOfBand";
import { freshProvider } from "../support/provider";
import { ACME_KEY, ACME_READ_ONLY_KEY, GLOBEX_KEY } from "../support/shops";

const acme = useAcmeSimulator({ switches: { deleteCheckOrder: "ownership", partialIds: "subset" } });

/** The writes of a new deployment, and acme's target (or `key`'s). */
function deployment(key = ACME_KEY) {
  const clients = new Clients();
  const views = new ShopViews((t) => clients.for(t).list());
  const config = (name: string) => ({ "shipping:baseUrl": acme.sim.baseUrl, "shipping:apiKey": key })[name];
  return { writes: new Writes(clients, views, new Claims()), target: resolveShop(undefined, config, {}) };
}

/** Asks with acme's key (or `key`) about `ids`, in one batch. */
async function ask(ids: number[], key = ACME_KEY) {
  const { writes, target } = deployment(key);
  return Promise.all(ids.map((id) => writes.goneAnswer(target, id)));
}

async function globexSubscription(): Promise<number> {
  const [id] = await outOfBand(acme.sim.baseUrl, GLOBEX_KEY, (api) =>
    api.create([{ hook: "order_status_change", url: "https://globex.example.com/o" }]),
  );
  return id as number;
}

describe("asking whether an id the shop does not list is gone", () => {
  it("an unknown id is gone, another shop's is elsewhere, and neither is deleted", async () => {
    const globex = await globexSubscription();
    expect(await ask([999, globex])).toEqual(["gone", "elsewhere"]);
    expect(acme.sim.subscriptions("globex").map((s) => s.id)).toEqual([globex]);
  });

  it.each([
    ["ownership", "subset"],
    ["ownership", "404"],
    ["existence", "subset"],
    ["existence", "404"],
  ] as const)(
    "checks %s first, partial ids %s: an unknown id asked with another shop's is gone, the other is elsewhere",
    async (deleteCheckOrder, partialIds) => {
      acme.sim.setSwitches({ deleteCheckOrder, partialIds });
      const globex = await globexSubscription();
      // Under existence-first with 404 for partial lists, the batch gets 404 as a whole: only asked alone
      // is each id's answer its own.
      expect(await ask([999, globex])).toEqual(["gone", "elsewhere"]);
      expect(await ask([globex, 998, 997])).toEqual(["elsewhere", "gone", "gone"]);
      expect(acme.sim.subscriptions("globex").map((s) => s.id)).toEqual([globex]);
    },
  );

  it("a deployment asks about an id once: a replacement's create and the old resource's delete share the answer", async () => {
    acme.sim.setSwitches({ shopFields: "omitted" });
    const { writes, target } = deployment();
    acme.sim.clearRequests();
    for (let asked = 0; asked < 3; asked++) expect(await writes.goneAnswer(target, 999)).toBe("gone");
    expect(acme.sim.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "DELETE /webhook_subscriptions/999 404",
    ]);
  });

  it("a read-only key cannot ask (403 for any DELETE), and deletes nothing", async () => {
    const globex = await globexSubscription();
    expect(await ask([globex, 999], ACME_READ_ONLY_KEY)).toEqual(["cannotAsk", "cannotAsk"]);
    expect(acme.sim.subscriptions("globex").map((s) => s.id)).toEqual([globex]);
  });
});

describe("a replacement of a resource recorded by 0.1 (no api or shopId in state)", () => {
  it("after the key was swapped to another shop's (shop_id omitted), its create asks first and writes nothing there", async () => {
    acme.sim.setSwitches({ shopFields: "omitted" });
    const [recorded] = await outOfBand(acme.sim.baseUrl, ACME_KEY, (api) =>
      api.create([{ hook: "order_status_change", url: "https://hooks.example.com/o" }]),
    );
    const globex = await globexSubscription();
    acme.sim.clearRequests();
    const runtime = await freshProvider({
      "shipping:baseUrl": acme.sim.baseUrl,
      "shipping:apiKey": GLOBEX_KEY,
    });
    const olds = {
      hook: "order_status_change",
      url: "https://hooks.example.com/o",
      subscriptionId: recorded,
    };
    const declared = { hook: "order_status_change", url: "https://hooks.example.com/o2" };
    // globex's subscription of the hook is no resource's: the diff refuses to take it over...
    await expect(runtime.diff(String(recorded), olds, declared)).rejects.toThrow(
      `already has subscription ${globex}, which calls another URL`,
    );
    // ...and with the opt-in, the create still asks whether the recorded id is this shop's first.
    const news = { ...declared, takeOver: true };
    expect((await runtime.diff(String(recorded), olds, news)).replaces).toEqual(["url"]);
    await expect(runtime.create(news)).rejects.toThrow(/belongs to another shop/);
    expect(acme.sim.subscriptions("globex").map((s) => [s.id, s.url])).toEqual([
      [globex, "https://globex.example.com/o"],
    ]);
    expect(acme.sim.requests().map((r) => r.method)).not.toContain("POST");
  });
});
