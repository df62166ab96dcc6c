/**
 * A delete never unsubscribes a hook that another resource of the deployment declares for the same shop, in
 * another provider process, whatever release wrote the state: state of 0.1 holds no `api`, and subscription ids
 * are unique per API only, so an unchanged resource of another API whose id is the same number is another
 * subscription's (an outside review found the delete taking it for "a replacement that keeps its hook", and
 * unsubscribing the hook the renamed resource declares).
 *
 * Sequence: stack of 0.1 with `a` (default shop at API X: order_status_change, id 1) and `c` (entry "other" at
 * API Y: id 1 there too). `up --skip-preview --continue-on-error` renames `a` to `b` without an alias (URL
 * changed, takeOver: true) in an explicit provider's process (same key); `c` unchanged. b's POST fails (500):
 * the engine goes on to `a`'s delete (test/takeover/takeover.plugin.test.ts shows that it does).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { checkFailures, deployment, type Inputs } from "../support/deploymentProcesses";
import { LABELS, ORDERS, shops } from "../support/services";
import { ACME_KEY, TEST_SHOPS } from "../support/shops";

const acme = useAcmeSimulator();
let other: RunningSimulator;
beforeAll(async () => {
  other = await startSimulator({ shops: TEST_SHOPS });
});
afterAll(() => other.close());

const U1 = "https://hooks.example.com/a";
const U2 = "https://hooks.example.com/b";
const URN_B = "urn:pulumi:dev::p::shipping:index:WebhookSubscription::b";

/** State as release 0.1 wrote it: no api, no shop the service named. */
function as01(outs: Record<string, unknown>): Record<string, unknown> {
  const { api: _api, shopId: _shopId, accountId: _accountId, ...rest } = outs;
  return rest;
}

describe("a removed resource of 0.1 state, whose hook a renamed resource declares (its create failed)", () => {
  it.each([
    ["no other resource shares its id number (control)", false],
    ["an unchanged resource of another API records the same id number", true],
  ])("%s: the delete keeps the hook subscribed", async (_name, withC) => {
    await other.reset();
    const config = {
      ...acme.config,
      "shipping:shops": shops({ other: { apiKey: ACME_KEY, baseUrl: other.baseUrl } }),
    };
    // First up (state then as 0.1 wrote it).
    const d1 = deployment();
    const p = await d1.process(config);
    const aIn = (await checkFailures(p, {}, { hook: ORDERS, url: U1 })).inputs;
    const a = await p.create(aIn);
    const cIn = (await checkFailures(p, {}, { hook: LABELS, url: U1, shop: "other" })).inputs;
    const c = await p.create(cIn);
    expect([a.id, c.id]).toEqual(["1", "1"]);
    const aOuts = as01(a.outs as unknown as Inputs);
    const cOuts = c.outs as unknown as Inputs;

    // The next up: the dynamic host keeps `c` (and deletes `a` at the end); `b` is in an explicit provider.
    const d2 = deployment();
    const host = await d2.process(config);
    const explicit = await d2.process(acme.config);
    if (withC) {
      const checked = await checkFailures(host, cIn, cIn);
      expect(checked.failures).toEqual([]);
      expect((await host.diff(c.id, cOuts, checked.inputs)).changes).toBe(false);
    }
    const bIn = await checkFailures(explicit, {}, { hook: ORDERS, url: U2, takeOver: true }, URN_B);
    expect(bIn.failures).toEqual([]);
    acme.sim.addFault({ kind: "status", status: 500, method: "POST", count: 20 });
    await expect(explicit.create(bIn.inputs)).rejects.toThrow();
    acme.sim.clearFaults();
    // The engine goes on to a's delete.
    const deleted = host.delete(a.id, aOuts).then(
      () => "deleted",
      (error: unknown) => String(error),
    );
    expect(await deleted).toMatch(/not deleting subscription 1 \(order_status_change\)/);
    expect(acme.liveHooks()).toEqual([`${ORDERS}=${U1}`]);
  });
});
