import { describe, expect, it } from "vitest";
import { BATCH_WINDOW_MS } from "../../provider/writes/batcher";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { freshProvider } from "../support/provider";
import { withoutTimers } from "../support/timers";

const HOOKS = ["shipment_status_change", "shipment_label_created", "order_status_change"] as const;

describe("the creates of one shop share one POST", () => {
  const acme = useAcmeSimulator();
  const fresh = () => freshProvider(acme.config);

  const posts = () => acme.sim.requests().filter((r) => r.method === "POST");
  const live = () =>
    acme.sim
      .subscriptions("acme")
      .map((s) => [s.id, s.hook, s.url])
      .sort();

  it("a hook the service refuses fails alone, with the service's reason; the shop's other hooks are subscribed", async () => {
    const provider = await fresh();
    // Check would stop this URL before any call; here the service is the one to refuse it.
    const urls = ["https://h.example/a", "https://h.example/NOT-LOWERCASE", "https://h.example/c"];
    const outcomes = await Promise.allSettled(
      HOOKS.map((hook, i) => provider.create({ hook, url: urls[i] })),
    );
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const refusal = (outcomes[1] as PromiseRejectedResult).reason as Error;
    expect(refusal.message).toMatch(/422.*POST .*\/webhook_subscriptions/);
    const created = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
    expect(live()).toEqual(created.map((c) => [Number(c.id), c.outs.hook, c.outs.url]).sort());
    // The shared POST was refused as a whole; each hook was then sent alone.
    expect(posts()[0]?.status).toBe(422);
    expect(
      posts()
        .slice(1)
        .map((p) => p.status)
        .sort(),
    ).toEqual([200, 200, 422]);
  });

  it("a POST applied but never answered is found by a fresh listing: each hook once, each create its id", async () => {
    acme.sim.addFault({ kind: "drop-after-write", count: 100, method: "POST" });
    const provider = await fresh();
    const created = await Promise.all(
      HOOKS.map((hook) => provider.create({ hook, url: `https://h.example/${hook}` })),
    );
    expect(live()).toEqual(created.map((c) => [Number(c.id), c.outs.hook, c.outs.url]).sort());
    expect(new Set(created.map((c) => c.id)).size).toBe(3);
  });

  it("two creates of one hook with one key: one is written, the other fails naming the hook, in one POST", async () => {
    const provider = await fresh();
    const outcomes = await Promise.allSettled([
      provider.create({ hook: HOOKS[0], url: "https://h.example/first" }),
      provider.create({ hook: HOOKS[0], url: "https://h.example/second" }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected"]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain(
      `${HOOKS[0]} is declared twice for shop`,
    );
    expect(live()).toEqual([[expect.any(Number), HOOKS[0], "https://h.example/first"]]);
    expect(posts()).toHaveLength(1);
  });

  it("waits for the shop's other declared creates, even when the engine starts them far apart: one POST", async () => {
    const provider = await fresh();
    for (const hook of HOOKS) await provider.check({}, { hook, url: `https://h.example/${hook}` });
    const started: Promise<unknown>[] = [];
    for (const hook of HOOKS) {
      started.push(provider.create({ hook, url: `https://h.example/${hook}` }));
      // The engine starts a big stack's creates one checkpoint save apart: longer than the batch window.
      await new Promise((resolve) => setTimeout(resolve, 3 * BATCH_WINDOW_MS));
    }
    await Promise.all(started);
    expect(posts()).toHaveLength(1);
    expect(acme.sim.subscriptions("acme")).toHaveLength(3);
  });

  it("does not wait for a declared hook whose resource is unchanged: the batch goes when the rest arrive", async () => {
    const provider = await fresh();
    const [kept, ...created] = HOOKS;
    for (const hook of HOOKS) await provider.check({}, { hook, url: `https://h.example/${hook}` });
    const unchanged = { hook: kept, url: `https://h.example/${kept}` };
    expect((await provider.diff("7", unchanged, unchanged)).changes).toBe(false);
    // The creates go as soon as both have arrived: no timer (neither the wait nor the idle one) sends them.
    await withoutTimers("the creates of the shop", () =>
      Promise.all(created.map((hook) => provider.create({ hook, url: `https://h.example/${hook}` }))),
    );
    expect(posts()).toHaveLength(1);
  });
});
