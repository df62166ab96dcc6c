/**
 * With the simulator enforcing the spec's `User-Agent: CustomApiCall/2` (the `requireUserAgent` switch),
 * the client and the provider work unchanged: every request they send carries it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider/client/shippingClient";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { freshProvider } from "../support/provider";
import { ACME_KEY, TEST_SHOPS } from "../support/shops";

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ shops: TEST_SHOPS, switches: { requireUserAgent: true } });
});
afterAll(() => sim.close());

/** Every API request so far, as [method, status, user-agent]. */
const seen = () => sim.requests().map((r) => [r.method, r.status, r.headers["user-agent"]]);

describe("requireUserAgent on", () => {
  it("a request without the header is refused (the switch is really on)", async () => {
    await sim.reset();
    const reply = await fetch(`${sim.baseUrl}/webhook_subscriptions`, {
      headers: { authorization: `bearer ${Buffer.from(ACME_KEY).toString("base64")}`, "user-agent": "x/1" },
    });
    expect(reply.status).toBe(400);
  });

  it("ShippingClient: status, create, list, list by ids, delete", async () => {
    await sim.reset();
    const client = new ShippingClient({ baseUrl: sim.baseUrl, apiKey: ACME_KEY });
    try {
      expect((await client.status()).status).toBe("OK");
      const [id] = await client.create([{ hook: "order_status_change", url: "https://h.example/o" }]);
      expect(await client.list()).toMatchObject([
        { id, hook: "order_status_change", url: "https://h.example/o" },
      ]);
      expect(await client.list([id as number])).toHaveLength(1);
      await client.delete([id as number]);
      expect(await client.list()).toEqual([]);
    } finally {
      await client.close();
    }
    const requests = seen();
    expect(requests).toHaveLength(6);
    for (const [, status, agent] of requests) {
      expect(status).toBeLessThan(400);
      expect(agent).toBe("CustomApiCall/2");
    }
  });

  it("the provider: create, read, then delete in a later deployment", async () => {
    await sim.reset();
    const config = { "shipping:apiKey": ACME_KEY, "shipping:baseUrl": sim.baseUrl };
    const provider = await freshProvider(config);
    const inputs = { hook: "shipment_status_change", url: "https://h.example/s" };
    const { id, outs } = await provider.create(inputs);
    expect(sim.subscriptions("acme")).toEqual([{ id: Number(id), ...inputs }]);
    expect(await provider.read(id, { ...inputs, ...outs })).toMatchObject({ id });
    // A later deployment (a new provider process) deletes: one that created the hook leaves it alone.
    await (await freshProvider(config)).deleteSubscription(id, { ...inputs, ...outs });
    expect(sim.subscriptions("acme")).toEqual([]);
    for (const [, status, agent] of seen()) {
      expect(status).toBeLessThan(400);
      expect(agent).toBe("CustomApiCall/2");
    }
  });
});
