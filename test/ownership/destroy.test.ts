/**
 * What destroy leaves: nothing the stack created. A POST the service applied but never answered (every try's
 * answer lost) is found by a fresh listing and recorded, so `up` succeeds and destroy removes it; a
 * subscription deleted in the back office is nothing to delete; a service that answers 404 for a whole id list
 * when one id is unknown loses nothing: refresh drops only the deleted one, and destroy removes the rest.
 * Run in the engine's order of calls (test/support/engineOrder.ts).
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { Stack } from "../support/engineOrder";
import { outOfBand } from "../support/outOfBand";
import { configOf, deployed, QUICK_RETRY, THREE_HOOKS } from "../support/services";
import { ACME_KEY } from "../support/shops";

const acme = useAcmeSimulator();

describe("destroy leaves nothing the stack created", () => {
  it("after an up whose POST was applied but never answered: the write was found and recorded", async () => {
    const sim = acme.sim;
    const stack = new Stack(configOf(sim, ACME_KEY, QUICK_RETRY));
    sim.addFault({ kind: "drop-after-write", method: "POST" });
    const up = await stack.up(THREE_HOOKS.slice(0, 1));
    sim.clearFaults();
    // Sent once, never again blind (its outcome was unknown): the fresh listing found it applied.
    expect(sim.requests().filter((r) => r.method === "POST")).toHaveLength(1);
    expect(up.ok).toBe(true);
    expect(stack.recorded()).toEqual(sim.subscriptions("acme"));
    expect((await stack.destroy()).ok).toBe(true);
    expect(sim.subscriptions("acme")).toEqual([]);
  });

  it("after a subscription was deleted in the back office", async () => {
    const { sim, stack } = await deployed(acme, THREE_HOOKS);
    const gone = stack.resource("shipments")?.id;
    await outOfBand(sim.baseUrl, ACME_KEY, (api) => api.delete([Number(gone)]));
    expect(await stack.destroy()).toMatchObject({ ok: true, steps: { delete: 3 } });
    expect(sim.subscriptions("acme")).toEqual([]);
    expect(stack.resources).toEqual([]);
  });

  it("id lists with an unknown id answered 404 as a whole: refresh drops only the deleted one, destroy removes the rest", async () => {
    const { sim, stack } = await deployed(acme, THREE_HOOKS, { partialIds: "404" });
    const [gone, ...kept] = sim.subscriptions("acme");
    await outOfBand(sim.baseUrl, ACME_KEY, (api) => api.delete([gone?.id ?? 0]));
    expect((await stack.refresh()).ok).toBe(true);
    expect(stack.recorded()).toEqual(kept);
    const [goneToo] = kept;
    await outOfBand(sim.baseUrl, ACME_KEY, (api) => api.delete([goneToo?.id ?? 0]));
    expect((await stack.destroy()).ok).toBe(true);
    expect(sim.subscriptions("acme")).toEqual([]);
  });
});
