/**
 * A resource the program keeps unchanged, and the removal of a resource under another key of the same shop in
 * another provider process (the plugin's default provider with acme's key, an explicit provider with acme's
 * second key; the service lists `shop_id`, new-id overwrite): the removed resource's delete never unsubscribes
 * the hook the kept one declares (diff.ts places it in the shop the service named; ownership.ts decides), also
 * when the kept resource's record is stale. Each `up` is a deployment of two real provider processes sharing its
 * files (test/support/deploymentProcesses.ts), in the order the engine runs them, against the simulator.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider/client/shippingClient";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { checkFailures, deployment, type Inputs } from "../support/deploymentProcesses";
import { ORDERS } from "../support/services";
import { ACME_KEY, ACME_SECOND_KEY } from "../support/shops";

const acme = useAcmeSimulator();
const URL = "https://hooks.example.com/orders";
const urn = (name: string) => `urn:pulumi:dev::p::shipping:index:WebhookSubscription::${name}`;

/** The two provider processes of one deployment: P0 with acme's key, P1 with its second key. */
async function processes() {
  const d = deployment();
  const p0 = await d.process({ "shipping:apiKey": ACME_KEY, "shipping:baseUrl": acme.sim.baseUrl });
  const p1 = await d.process({ "shipping:apiKey": ACME_SECOND_KEY, "shipping:baseUrl": acme.sim.baseUrl });
  return { p0, p1 };
}

/** The shop's live subscriptions as id, hook and URL. */
const live = () => acme.sim.subscriptions("acme").map((s) => ({ id: s.id, hook: s.hook, url: s.url }));

/**
 * up 1: k (P0) subscribes the hook. The back office deletes it; up 2 adds d (P1, same hook and URL), checked and
 * created first (the engine's order, the limit docs/safety.md names): d subscribes the hook again, and k is
 * refused as a second declaration of it. k's record is now stale; d's subscription calls k's URL.
 */
async function staleKeptAndOther() {
  const first = await processes();
  const kInputs = (await checkFailures(first.p0, {}, { hook: ORDERS, url: URL }, urn("k"))).inputs;
  const k = await first.p0.create(kInputs);
  const office = new ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey: ACME_KEY });
  await office.delete([Number(k.id)]);
  await office.close();
  const second = await processes();
  const dInputs = (await checkFailures(second.p1, {}, { hook: ORDERS, url: URL }, urn("d"))).inputs;
  const d = await second.p1.create(dInputs);
  const kOuts = k.outs as unknown as Inputs;
  const refused = await checkFailures(second.p0, kInputs, kInputs, urn("k"));
  await expect(second.p0.diff(k.id, kOuts, refused.inputs)).rejects.toThrow(/declared twice/);
  const dLive = live();
  expect(dLive).toEqual([{ id: Number(d.id), hook: ORDERS, url: URL }]);
  return {
    k: { id: k.id, outs: kOuts, inputs: kInputs },
    d: { id: d.id, outs: d.outs as unknown as Inputs },
    dLive,
  };
}

/** up 3: d removed, k unchanged (checked, then diffed with `kOuts`): d's delete (P1) leaves the hook subscribed. */
async function removeOtherKeepingK(
  { k, d, dLive }: Awaited<ReturnType<typeof staleKeptAndOther>>,
  kOuts: Inputs = k.outs,
): Promise<void> {
  const third = await processes();
  expect((await checkFailures(third.p0, k.inputs, k.inputs, urn("k"))).failures).toEqual([]);
  expect((await third.p0.diff(k.id, kOuts, k.inputs)).changes).toBe(false);
  await third.p1.delete(d.id, d.outs);
  expect(live()).toEqual(dLive);
}

describe("a resource kept unchanged, and the removal of one under another key of the shop", () => {
  it("at the same URL, its record stale: the delete leaves the live subscription to it, and refresh records it", async () => {
    const stale = await staleKeptAndOther();
    const { k, dLive } = stale;
    // d removed, as the refusal says.
    await removeOtherKeepingK(stale);

    // A refresh of k records the subscription that took its gone id's place.
    const refresh = await processes();
    const read = await refresh.p0.read(k.id, k.outs);
    expect(read.id).toBe(String(dLive[0]?.id));
  });

  it("... k's state naming its shop without the account (a listing that named none then): the same", async () => {
    const stale = await staleKeptAndOther();
    const { accountId: _account, ...withoutAccount } = stale.k.outs;
    await removeOtherKeepingK(stale, withoutAccount);
  });

  it("... then `pulumi destroy` with no refresh: k's delete deletes that subscription as k's, leaving nothing", async () => {
    const stale = await staleKeptAndOther();
    const { k } = stale;
    await removeOtherKeepingK(stale);
    const destroy = await processes();
    await destroy.p0.delete(k.id, k.outs);
    expect(live()).toEqual([]);
  });
});
