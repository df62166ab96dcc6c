/**
 * Review 13, attack 2: re-pointing one shop entry's base URL is not refused when another configured shop at
 * the old API has no subscription; refresh drops the resource and destroy "succeeds", orphaning it.
 *
 * `locate` (provider/runtime.ts) falls back to any configured shop at the recorded API and accepts it when
 * its listing says nothing of its shop (`identity === undefined`): an empty shop, or a service that omits
 * shop_id. The README says re-pointing a base URL is refused by preview, up, refresh and destroy.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, type Switches, startSimulator } from "../../simulator";
import { ACME_KEY, GLOBEX_KEY, TEST_SHOPS } from "../support/shops";
import {
  declarationsProgram,
  engine,
  OutputLog,
  sandbox,
  stackIn,
  subscriptionResources,
} from "./support/engine";

const ORDERS = "order_status_change";

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((s) => s.close()));
});

async function simulator(switches: Partial<Switches> = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ shops: TEST_SHOPS, switches });
  simulators.push(sim);
  return sim;
}

describe("attack: re-pointing a shop entry's baseUrl with another (empty) shop configured at the old API", () => {
  it("refresh and destroy refuse, and the subscription at the old API stays in state", async () => {
    const staging = await simulator();
    const production = await simulator();
    const box = sandbox("attack-repoint");
    const log = new OutputLog();
    const stack = await stackIn(
      box,
      declarationsProgram(() => [
        { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o", shop: "acme" },
      ]),
      {
        // The default shop (globex) is configured at staging too, but this stack declares nothing in it.
        "shipping:apiKey": { value: GLOBEX_KEY, secret: true },
        "shipping:baseUrl": { value: staging.baseUrl },
        "shipping:shops": {
          value: JSON.stringify({ acme: { apiKey: ACME_KEY, baseUrl: staging.baseUrl } }),
          secret: true,
        },
      },
    );
    await engine(stack.up({ onOutput: log.onOutput }), "up");
    const created = staging.subscriptions("acme");
    expect(created).toHaveLength(1);
    // Re-point acme to production.
    await stack.setConfig("shipping:shops", {
      value: JSON.stringify({ acme: { apiKey: ACME_KEY, baseUrl: production.baseUrl } }),
      secret: true,
    });
    const preview = await engine(stack.preview({ onOutput: log.onOutput }), "preview").then(
      () => "succeeded",
      (e: unknown) => `failed: ${String(e).slice(0, 300)}`,
    );
    // The failed `up` saves the new configuration to the provider in state, which refresh and destroy then use.
    const up = await engine(stack.up({ onOutput: log.onOutput }), "up").then(
      () => "succeeded",
      (e: unknown) => `failed: ${String(e).slice(0, 300)}`,
    );
    const refresh = await engine(stack.refresh({ onOutput: log.onOutput }), "refresh").then(
      () => "succeeded",
      (e: unknown) => `failed: ${String(e).slice(0, 300)}`,
    );
    const afterRefresh = subscriptionResources(await stack.exportStack()).length;
    const destroy = await engine(stack.destroy({ onOutput: log.onOutput }), "destroy").then(
      () => "succeeded",
      (e: unknown) => `failed: ${String(e).slice(0, 300)}`,
    );
    const afterDestroy = subscriptionResources(await stack.exportStack()).length;
    console.log({
      preview,
      up,
      refresh,
      afterRefresh,
      destroy,
      afterDestroy,
      staging: staging.subscriptions("acme"),
    });
    // README: "re-pointing the base URL to another service ... is refused by preview, up, refresh and destroy
    // with 0 writes and state unchanged".
    expect(preview).toMatch(/^failed/);
    expect(up).toMatch(/^failed/);
    expect(refresh).toMatch(/^failed/);
    expect(afterRefresh).toBe(1);
    // Guarantee 3: a destroy that succeeds leaves nothing the stack created.
    if (destroy === "succeeded") expect(staging.subscriptions("acme")).toEqual([]);
  });
});
