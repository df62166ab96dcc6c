/**
 * Events and what a receiver gets: the fixtures as production is known to send them
 * (../shared/spec/observed-behaviour.md), overrides, the headers, and the records of each attempt.
 */
import { describe, expect, it } from "vitest";
import { type Emitted, InvalidInputError, type RunningSimulator, type SimEvent } from "../../simulator/index";
import { api, b64, call, RW_KEY, startSim, subs } from "./helpers";
import { useReceiver } from "./httpsReceiver";

const receiver = useReceiver();

const UUID = "0b7d3c1e-3f8a-4c55-9a53-6a0e2f1d9b10";

async function subscribed(options: { trust?: boolean; switches?: object } = {}): Promise<RunningSimulator> {
  const sim = await startSim({
    ...(options.trust === false ? {} : { deliveryCa: receiver.ca.caPem }),
    switches: { deliveryAttempts: 1, ...options.switches },
  });
  const reply = await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(
      ["shipment_status_change", `${receiver.url}/status`],
      ["shipment_label_created", `${receiver.url}/label`],
      ["order_status_change", `${receiver.url}/order`],
    ),
  });
  expect(reply.status).toBe(200);
  return sim;
}

async function sent(sim: RunningSimulator, event: SimEvent): Promise<Emitted> {
  const result = await sim.emit(event);
  if (!result.delivered) throw new Error(`not delivered: ${result.reason}`);
  return result;
}

const bodies = (): unknown[] => receiver.arrivals.map((a) => JSON.parse(a.text));

describe("fixtures as production sends them", () => {
  it("shipment_status_change: the observed fields, no `event` key, over HTTPS with the sender headers", async () => {
    const sim = await subscribed();
    const result = await sent(sim, {
      kind: "shipment_status_change",
      shop: "demo",
      shipmentId: 42,
      status: 7,
    });
    const body = {
      data: {
        hooks: [
          {
            shipment_id: 42,
            account_id: 1,
            shop_id: 1,
            status: 7,
            barcode: "3SSIM0000000042",
            shipment_reference_identifier: "sim-shipment-42",
          },
        ],
      },
    };
    expect(bodies()).toEqual([body]);
    const [arrival] = receiver.arrivals;
    const id = result.deliveryIds[0] ?? "";
    expect(arrival?.path).toBe("/status");
    expect(arrival?.headers).toMatchObject({
      "content-type": "application/json; charset=utf-8",
      "x-shipping-hook": "shipment_status_change",
      "x-shipping-delivery-id": id,
      "x-shipping-api-key": b64(RW_KEY),
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result).toMatchObject({ delivered: true, accepted: true, deliveryIds: [id] });
    expect(result.attempts).toEqual(sim.deliveries());
    expect(sim.requests()).toHaveLength(1); // deliveries are not API requests
  });

  it("order_id on a shipment of an order; fixture values for what the event leaves out", async () => {
    const sim = await subscribed();
    await sent(sim, { kind: "shipment_status_change", orderId: UUID });
    await sent(sim, { kind: "shipment_status_change" });
    const [ofOrder, plain] = bodies() as Array<{ data: { hooks: Array<Record<string, unknown>> } }>;
    expect(ofOrder?.data.hooks[0]).toMatchObject({ order_id: UUID, shipment_id: 100_001, status: 3 });
    expect(plain?.data.hooks[0]).toMatchObject({ shipment_id: 100_002, status: 3 });
    expect(plain?.data.hooks[0]).not.toHaveProperty("order_id");
  });

  it("shipment_label_created: success carries the pdf, failure a reason and no pdf", async () => {
    const sim = await subscribed();
    await sent(sim, { kind: "shipment_label_created", shipmentIds: [5, 6], status: "success" });
    await sent(sim, { kind: "shipment_label_created", shipmentIds: [7], status: "failed" });
    expect(bodies()).toEqual([
      {
        data: {
          hooks: [
            {
              status: "success",
              shipment_ids: [5, 6],
              printer_identifier: null,
              pdf: "https://labels.shipping-sim.invalid/5-6.pdf",
            },
          ],
        },
      },
      {
        data: {
          hooks: [
            {
              status: "failed",
              shipment_ids: [7],
              printer_identifier: null,
              pdf: null,
              reason: "label creation failed (simulated)",
            },
          ],
        },
      },
    ]);
  });

  it("order_status_change through POST /__sim/events answers what was sent", async () => {
    const sim = await subscribed();
    const reply = await call(sim.baseUrl, "POST", "/__sim/events", {
      body: { kind: "order_status_change", shop: "demo", uuid: UUID, status: "processed" },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ delivered: true, accepted: true });
    expect(bodies()).toEqual([{ data: { hooks: [{ uuid: UUID, status: "processed" }] } }]);
    // The answer leaves each attempt's body and headers out (GET /__sim/deliveries has them).
    expect((reply.json as Emitted).attempts).toEqual(
      sim.deliveries().map(({ body: _body, headers: _headers, ...rest }) => rest),
    );
  });

  it("the `event` key comes back behind the eventField switch, first in each payload", async () => {
    const sim = await subscribed({ switches: { eventField: "included" } });
    await sent(sim, { kind: "order_status_change", uuid: UUID, status: "open" });
    const [body] = bodies() as Array<{ data: { hooks: Array<Record<string, unknown>> } }>;
    expect(Object.keys(body?.data.hooks[0] ?? {})).toEqual(["event", "uuid", "status"]);
    expect(body?.data.hooks[0]?.event).toBe("order_status_change");
  });

  it("set and unset override fields on the wire, any JSON value", async () => {
    const sim = await subscribed();
    await sent(sim, {
      kind: "shipment_status_change",
      shipmentId: 9,
      set: { barcode: "3SCUSTOM", carrier: { id: 1 }, event: "custom" },
      unset: ["shipment_reference_identifier"],
    });
    const [body] = bodies() as Array<{ data: { hooks: Array<Record<string, unknown>> } }>;
    expect(body?.data.hooks[0]).toEqual({
      shipment_id: 9,
      account_id: 1,
      shop_id: 1,
      status: 3,
      barcode: "3SCUSTOM",
      carrier: { id: 1 },
      event: "custom",
    });
  });

  it("count: several events go in one delivery, up to eventsPerDelivery", async () => {
    const sim = await subscribed({ switches: { eventsPerDelivery: 2 } });
    const result = await sent(sim, { kind: "shipment_status_change", shipmentId: 10, count: 5 });
    const ids = (bodies() as Array<{ data: { hooks: Array<{ shipment_id: number }> } }>).map((b) =>
      b.data.hooks.map((h) => h.shipment_id),
    );
    expect(ids).toEqual([[10, 11], [12, 13], [14]]);
    expect(result.deliveryIds).toHaveLength(3);
    expect(new Set(result.deliveryIds).size).toBe(3);
    expect(result.attempts.map((a) => a.events)).toEqual([2, 2, 1]);
  });
});

describe("what is not sent", () => {
  it("shipment status 1, a shop without the hook, an unknown shop: nothing, and the reason", async () => {
    const sim = await subscribed();
    expect(await sim.emit({ kind: "shipment_status_change", status: 1 })).toEqual({
      delivered: false,
      reason: "shipment status 1 (pending - concept) never notifies",
    });
    const bare = await startSim();
    expect(await bare.emit({ kind: "order_status_change" })).toEqual({
      delivered: false,
      reason: 'shop "demo" has no subscription for hook "order_status_change"',
    });
    expect(await bare.emit({ kind: "order_status_change", shop: "nope" })).toEqual({
      delivered: false,
      reason: 'unknown shop "nope"',
    });
    expect(receiver.arrivals).toEqual([]);
    expect(sim.deliveries()).toEqual([]);
  });

  it.each([
    [{ kind: "shipment_status_change", shipmentId: 0 }, "shipmentId"],
    [{ kind: "shipment_status_change", status: 25 }, "status"],
    [{ kind: "shipment_label_created", shipmentIds: [] }, "shipmentIds"],
    [{ kind: "order_status_change", uuid: "x" }, "uuid"],
    [{ kind: "order_status_change", status: "done" }, "status"],
    [{ kind: "order_status_change", count: 101 }, "count"],
    [{ kind: "order_status_change", set: { "a b": 1 } }, "set"],
    [
      { kind: "order_status_change", set: { deep: JSON.parse(`${"[".repeat(40)}${"]".repeat(40)}`) } },
      "set.deep",
    ],
    [{ kind: "order_status_change", set: { big: "x".repeat(20_000) } }, "set.big"],
    [{ kind: "order_status_change", unset: [1] }, "unset"],
    [{ kind: "order_status_change", extra: 1 }, "extra"],
  ])("refuses %j naming %s", async (event, field) => {
    const sim = await subscribed();
    const error = await sim.emit(event as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toContain(field);
  });

  it("refuses an event whose delivery body would exceed 64 KiB, sending nothing", async () => {
    const sim = await subscribed();
    const set = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`pad${i}`, "x".repeat(12_000)]));
    await expect(sim.emit({ kind: "order_status_change", set })).rejects.toThrow(/exceed 65536 bytes/);
    expect(receiver.arrivals).toEqual([]);
  });

  it("refuses a count whose deliveries would hold more than 256 KiB in all", async () => {
    const sim = await subscribed({ switches: { eventsPerDelivery: 1 } });
    const event: SimEvent = { kind: "order_status_change", count: 30, set: { pad: "x".repeat(10_000) } };
    await expect(sim.emit(event)).rejects.toThrow(/more than 262144; send a smaller count/);
    expect(receiver.arrivals).toEqual([]);
  });
});

describe("records of failed attempts", () => {
  it("without the CA the TLS handshake fails: recorded as unreachable, naming the certificate", async () => {
    const sim = await subscribed({ trust: false });
    const result = await sent(sim, { kind: "order_status_change" });
    expect(result.accepted).toBe(false);
    expect(result.attempts[0]).toMatchObject({ result: "unreachable" });
    expect(result.attempts[0]?.status).toBeUndefined();
    expect(result.attempts[0]?.error).toMatch(/certificate/i);
    expect(receiver.arrivals).toEqual([]);
  });

  it("a connection refused is recorded as unreachable with ECONNREFUSED", async () => {
    const sim = await startSim({ deliveryCa: receiver.ca.caPem, switches: { deliveryAttempts: 1 } });
    await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", "https://127.0.0.1:1/x"]),
    });
    const result = await sent(sim, { kind: "order_status_change" });
    expect(result.attempts[0]).toMatchObject({ result: "unreachable" });
    expect(result.attempts[0]?.error).toMatch(/ECONNREFUSED/);
  });
});
