/**
 * The pin's undo is for writes whose shop is not known yet. In the right, pinned shop that listed nothing, once
 * an earlier write of the deployment told the shop, a failed read-back of a later batch is reported as it is:
 * the writes of that batch stay (the next `up` adopts them), rather than being deleted as unchecked.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { freshProvider } from "../support/provider";
import { ACME_KEY, ACME_SHOP_ID } from "../support/shops";

const acme = useAcmeSimulator();

describe("a pinned shop that listed nothing, with the right key", () => {
  it("a read-back that fails after the shop is known deletes nothing: the error is the service's, not the pin's", async () => {
    const runtime = await freshProvider({
      "shipping:baseUrl": acme.sim.baseUrl,
      "shipping:apiKey": ACME_KEY,
      "shipping:shopId": ACME_SHOP_ID,
    });
    const first = { hook: "order_status_change", url: "https://hooks.example.com/a" };
    expect((await runtime.check({}, first)).failures).toEqual([]);
    await runtime.create(first);

    const later = [
      { hook: "shipment_status_change", url: "https://hooks.example.com/b" },
      { hook: "shipment_label_created", url: "https://hooks.example.com/c" },
    ];
    for (const inputs of later) expect((await runtime.check({}, inputs)).failures).toEqual([]);
    // Every GET fails from here on: the read-back that matches the two new ids to their hooks.
    acme.sim.addFault({ kind: "status", status: 500, method: "GET", count: 10 });
    const outcomes = await Promise.allSettled(later.map((inputs) => runtime.create(inputs)));
    acme.sim.clearFaults();
    for (const outcome of outcomes) {
      expect(outcome.status).toBe("rejected");
      const message = String((outcome as PromiseRejectedResult).reason);
      expect(message).toContain("500 Internal Server Error: GET");
      expect(message).not.toContain("pins shop");
    }
    expect(acme.sim.requests().filter((r) => r.method === "DELETE")).toEqual([]);
    expect(
      acme.sim
        .subscriptions("acme")
        .map((s) => s.url)
        .sort(),
    ).toEqual(["https://hooks.example.com/a", "https://hooks.example.com/b", "https://hooks.example.com/c"]);
  });
});
