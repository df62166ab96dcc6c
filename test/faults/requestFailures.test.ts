/**
 * A request that fails during `up` names the shop it was for, by the name the stack gives it (issue 28): with
 * several shops in one stack, `POST http://api/webhook_subscriptions` alone does not say whose key to check.
 * A request that got no answer also says what to do. Nothing is written or recorded by a failed create.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { Stack } from "../support/engineOrder";
import { ORDERS, SHIPMENTS, shops } from "../support/services";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";

const acme = useAcmeSimulator();

const NO_RETRY = { "shipping:retry": JSON.stringify({ maxRetries: 0 }) };

describe("a failed request names its shop", () => {
  it("a POST whose connection is reset, in shop acme of two: the shop, the request, the code and the way out", async () => {
    const sim = acme.sim;
    const config = {
      "shipping:baseUrl": sim.baseUrl,
      "shipping:shops": shops({ acme: { apiKey: ACME_KEY }, globex: { apiKey: GLOBEX_KEY } }),
      ...NO_RETRY,
    };
    const stack = new Stack(config);
    sim.addFault({ kind: "reset", method: "POST" });
    const failed = await stack.up([
      { name: "acme-orders", hook: ORDERS, url: "https://hooks.example.com/a", shop: "acme" },
    ]);
    sim.clearFaults();

    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(
      /^acme-orders: Request failed: POST http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions \(shop acme\) — .*\(ECONNRESET|UND_ERR_SOCKET\)\. hint: is the service up at that URL/,
    );
    expect(failed.error).not.toContain(ACME_KEY);
    expect(sim.subscriptions("acme")).toEqual([]);
    expect(stack.recorded()).toEqual([]);
  });

  it("a listing answered 500 for the default shop: the status, the request and the shop", async () => {
    const sim = acme.sim;
    const stack = new Stack({ "shipping:apiKey": ACME_KEY, "shipping:baseUrl": sim.baseUrl, ...NO_RETRY });
    sim.addFault({ kind: "status", status: 500, method: "GET" });
    const failed = await stack.up([{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }]);
    sim.clearFaults();

    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(
      /^orders: Request failed with status code 500 Internal Server Error: GET http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions\/ \(the default shop\) — API says: .*hint: the service failed to answer; run the command again later/,
    );
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(stack.recorded()).toEqual([]);
  });

  it("two entries of one key: a request is both shops', and its error names both", async () => {
    const sim = acme.sim;
    const stack = new Stack({
      "shipping:baseUrl": sim.baseUrl,
      "shipping:shops": shops({ main: { apiKey: ACME_KEY }, eu: { apiKey: ACME_KEY } }),
      ...NO_RETRY,
    });
    sim.addFault({ kind: "reset", method: "POST" });
    const failed = await stack.up([
      { name: "main-orders", hook: ORDERS, url: "https://hooks.example.com/a", shop: "main" },
      { name: "eu-shipments", hook: SHIPMENTS, url: "https://hooks.example.com/b", shop: "eu" },
    ]);
    expect(failed.errors).toHaveLength(2);
    for (const error of failed.errors)
      expect(error).toContain("/webhook_subscriptions (shop eu and shop main, one key) — ");
  });
});
