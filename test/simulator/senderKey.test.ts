/**
 * Issue 36 item 7 (part): an event sent with a wrong sender key (`senderKey`, `trigger --sender-key`), to test
 * that the receiver refuses it; the key stays redacted in the delivery log.
 */
import { describe, expect, it } from "vitest";
import { parseClientCommand } from "../../simulator/cliTrigger";
import { api, b64, call, RW_KEY, startSim, subs } from "./helpers";
import { useReceiver } from "./httpsReceiver";

const receiver = useReceiver();

async function subscribed() {
  const sim = await startSim({ deliveryCa: receiver.ca.caPem, switches: { deliveryAttempts: 1 } });
  const reply = await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(["order_status_change", `${receiver.url}/order`]),
  });
  expect(reply.status).toBe(200);
  return sim;
}

describe("senderKey", () => {
  it("sends the given key instead of the shop's (base64, x-shipping-api-key), redacted in the log", async () => {
    const sim = await subscribed();
    receiver.script.push({ status: 401, body: "wrong sender" });
    const reply = await call(sim.baseUrl, "POST", "/__sim/events", {
      body: { kind: "order_status_change", senderKey: "not-the-shop-key" },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ delivered: true, accepted: false });
    expect(receiver.arrivals[0]?.headers["x-shipping-api-key"]).toBe(b64("not-the-shop-key"));
    expect(sim.deliveries()[0]?.headers["x-shipping-api-key"]).toBe("[REDACTED]");
    await sim.emit({ kind: "order_status_change" });
    expect(receiver.arrivals[1]?.headers["x-shipping-api-key"]).toBe(b64(RW_KEY));
  });

  it.each([
    ["empty", "", 422],
    ["257 characters", "k".repeat(257), 422],
    ["a number", 5, 422],
  ])("refuses a senderKey that is %s (422)", async (_, senderKey, status) => {
    const sim = await subscribed();
    const reply = await call(sim.baseUrl, "POST", "/__sim/events", {
      body: { kind: "order_status_change", senderKey },
    });
    expect(reply.status).toBe(status);
    expect(receiver.arrivals).toHaveLength(0);
  });

  it("trigger --sender-key puts it in the event", () => {
    const command = parseClientCommand("trigger", ["order_status_change", "--sender-key", "wrong"], {});
    expect(command.body).toEqual({ kind: "order_status_change", senderKey: "wrong" });
  });
});
