/**
 * With the simulator enforcing the spec's `User-Agent: CustomApiCall/2` (the `requireUserAgent` switch),
 * the client and the provider work unchanged: every request they send carries it.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider/client/shippingClient";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { freshProvider } from "../support/provider";
import { ACME_KEY } from "../support/shops";

const acme = useAcmeSimulator({ switches: { requireUserAgent: true } });

/** Every API request so far, as [method, status, user-agent]. */
const seen = () => acme.sim.requests().map((r) => [r.method, r.status, r.headers["user-agent"]]);

describe("requireUserAgent on", () => {
  it("a request without the header is refused (the switch is really on)", async () => {
    const reply = await fetch(`${acme.sim.baseUrl}/webhook_subscriptions`, {
      headers: { authorization: `bearer ${Buffer.from(ACME_KEY).toString("base64")}`, "user-agent": "x/1" },
    });
    expect(reply.status).toBe(400);
  });

  it("ShippingClient: status, create, list, list by ids, delete", async () => {
    const client = new ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey: ACME_KEY });
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
    const config = { "shipping:apiKey": ACME_KEY, "shipping:baseUrl": acme.sim.baseUrl };
    const provider = await freshProvider(config);
    const inputs = { hook: "shipment_status_change", url: "https://h.example/s" };
    const { id, outs } = await provider.create(inputs);
    expect(acme.sim.subscriptions("acme")).toEqual([{ id: Number(id), ...inputs }]);
    expect(await provider.read(id, { ...inputs, ...outs })).toMatchObject({ id });
    // A later deployment (a new provider process) deletes: one that created the hook leaves it alone.
    await (await freshProvider(config)).deleteSubscription(id, { ...inputs, ...outs });
    expect(acme.sim.subscriptions("acme")).toEqual([]);
    for (const [, status, agent] of seen()) {
      expect(status).toBeLessThan(400);
      expect(agent).toBe("CustomApiCall/2");
    }
  });
});
