/**
 * The receiver example (examples/receiver) as a user would run it in CI: a private CA, the receiver over
 * HTTPS, the simulator trusting only that CA, the hooks subscribed through the package's client, then every
 * hook triggered, a duplicate and a retry, and what arrived checked. Copy this file and the example's three
 * modules into a receiving service's repository to test it the same way.
 */
import { type RunningSimulator, startSimulator } from "pulumi-shipping-webhooks/simulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPrivateCa, type PrivateCa } from "../../examples/receiver/privateCa";
import { type RunningReceiver, startReceiver } from "../../examples/receiver/receiver";
import { subscribeReceiver } from "../../examples/receiver/subscribe";

const SHOP = { name: "acme", keys: { readWrite: ["acme-test-key"] } };
const ORDER_UUID = "6f1c1d7e-58a4-4c1e-9d7b-2b4f0c1e7a11";

let ca: PrivateCa;
let receiver: RunningReceiver;
let sim: RunningSimulator;

beforeAll(async () => {
  ca = await createPrivateCa();
  receiver = await startReceiver({ tls: ca.server, apiKey: SHOP.keys.readWrite[0] as string });
  // Retries a tenth of a second apart, so a test waits for them in no time.
  // By hand, not the fixture: the example's own shop, a private CA for its HTTPS receiver, quick retries.
  sim = await startSimulator({ shops: [SHOP], deliveryCa: ca.caPem, switches: { deliveryBackoffMs: 100 } });
  const ids = await subscribeReceiver(sim.baseUrl, SHOP.keys.readWrite[0] as string, receiver.url);
  expect(ids).toHaveLength(3);
});

afterAll(async () => {
  await sim.close();
  await receiver.close();
});

beforeEach(() => {
  receiver.events.length = 0;
  receiver.arrivals.length = 0;
  sim.setSwitches({ deliveryDuplicates: 0 });
});

describe("a webhook receiver, end to end", () => {
  it("takes every hook, with the fields production sends and no `event` key", async () => {
    await sim.emit({ kind: "shipment_status_change", shipmentId: 501, status: 7, orderId: ORDER_UUID });
    await sim.emit({ kind: "shipment_label_created", shipmentIds: [501, 502] });
    await sim.emit({ kind: "order_status_change", uuid: ORDER_UUID, status: "processed" });
    expect(receiver.events.map((e) => e.hook)).toEqual([
      "shipment_status_change",
      "shipment_label_created",
      "order_status_change",
    ]);
    expect(receiver.events.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        shipment_id: 501,
        status: 7,
        order_id: ORDER_UUID,
        barcode: expect.any(String),
      }),
      expect.objectContaining({ status: "success", shipment_ids: [501, 502], pdf: expect.any(String) }),
      { uuid: ORDER_UUID, status: "processed" },
    ]);
    expect(receiver.events.every((e) => !("event" in e.payload))).toBe(true);
    expect(receiver.arrivals.map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it("processes a duplicate once", async () => {
    sim.setSwitches({ deliveryDuplicates: 1, duplicateDeliveryId: "same" });
    const sent = await sim.emit({ kind: "order_status_change", uuid: ORDER_UUID, status: "cancelled" });
    expect(sent).toMatchObject({ delivered: true, accepted: true });
    expect(receiver.arrivals.map((a) => [a.status, a.note])).toEqual([
      [200, undefined],
      [200, "duplicate"],
    ]);
    expect(receiver.events).toHaveLength(1);
  });

  it("gets a delivery it could not process again, and processes it then", async () => {
    receiver.failNext(1);
    const sent = await sim.emit({ kind: "shipment_status_change", shipmentId: 502, status: 3 });
    expect(sent).toMatchObject({ delivered: true, accepted: true });
    expect(receiver.arrivals.map((a) => a.status)).toEqual([503, 200]);
    expect(new Set(receiver.arrivals.map((a) => a.deliveryId)).size).toBe(1);
    expect(receiver.events.map((e) => e.payload.shipment_id)).toEqual([502]);
  });

  it("takes every event of a delivery that holds several", async () => {
    await sim.emit({ kind: "shipment_status_change", shipmentId: 600, count: 3 });
    expect(receiver.arrivals).toHaveLength(1);
    expect(receiver.events.map((e) => e.payload.shipment_id)).toEqual([600, 601, 602]);
  });

  it("refuses a sender that does not hold the shop's key", async () => {
    // A second simulator whose acme holds another key: the sender the receiver must refuse.
    const impostor = await startSimulator({
      shops: [{ name: "acme", keys: { readWrite: ["not-the-key"] } }],
      deliveryCa: ca.caPem,
      switches: { deliveryAttempts: 1 },
    });
    try {
      await subscribeReceiver(impostor.baseUrl, "not-the-key", receiver.url);
      const sent = await impostor.emit({ kind: "order_status_change", uuid: ORDER_UUID, status: "open" });
      expect(sent).toMatchObject({ delivered: true, accepted: false });
      expect(receiver.arrivals.map((a) => [a.status, a.note])).toEqual([
        [401, "sender key missing or wrong"],
      ]);
      expect(receiver.events).toEqual([]);
    } finally {
      await impostor.close();
    }
  });
});
