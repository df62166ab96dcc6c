import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventPayload } from "../../simulator/events";
import { type Delivery, InvalidInputError, type RunningSimulator } from "../../simulator/index";
import { api, b64, call, RW_KEY, startSim, subs } from "./helpers";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A self-signed certificate for 127.0.0.1, made with the openssl CLI at test time. */
function makeCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "sim-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "pipe" },
    );
  } catch (error) {
    throw new Error(
      `These tests need the openssl CLI to make a test certificate (apt-get install openssl): ${(error as Error).message}`,
    );
  }
  return {
    key: readFileSync(join(dir, "key.pem"), "utf8"),
    cert: readFileSync(join(dir, "cert.pem"), "utf8"),
  };
}

let tls: { key: string; cert: string };
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let answerStatus = 200;

beforeAll(async () => {
  tls = makeCert();
  receiver = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      });
      res.writeHead(answerStatus).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

async function subscribed(options: { trust?: boolean } = {}): Promise<RunningSimulator> {
  const sim = await startSim(options.trust === false ? {} : { deliveryCa: tls.cert });
  const reply = await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(
      ["shipment_status_change", `${receiverUrl}/status`],
      ["shipment_label_created", `${receiverUrl}/label`],
      ["order_status_change", `${receiverUrl}/order`],
    ),
  });
  expect(reply.status).toBe(200);
  received.length = 0;
  answerStatus = 200;
  return sim;
}

describe("events and deliveries", () => {
  it("shipment_status_change: POSTs the notification with body and headers over HTTPS", async () => {
    const sim = await subscribed();
    const result = (await sim.emit({
      kind: "shipment_status_change",
      shop: "demo",
      shipmentId: 42,
      status: 7,
    })) as Delivery;
    expect(result).toMatchObject({
      shop: "demo",
      hook: "shipment_status_change",
      url: `${receiverUrl}/status`,
      status: 200,
    });
    expect(result.error).toBeUndefined();
    expect(received).toHaveLength(1);
    const [got] = received;
    const body = {
      data: {
        hooks: [
          {
            event: "shipment_status_change",
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
    expect(got?.body).toEqual(body);
    expect(result.body).toEqual(body);
    expect(got?.path).toBe("/status");
    expect(got?.headers).toMatchObject({
      "content-type": "application/json; charset=utf-8",
      "x-shipping-hook": "shipment_status_change",
      "x-shipping-delivery-id": result.id,
      "x-shipping-api-key": b64(RW_KEY),
    });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sim.deliveries()).toEqual([result]);
    // Deliveries are not API requests.
    expect(sim.requests()).toHaveLength(1);
  });

  it("shipment status 1 never notifies", async () => {
    const sim = await subscribed();
    const result = await sim.emit({ kind: "shipment_status_change", shop: "demo", shipmentId: 1, status: 1 });
    expect(result).toEqual({
      delivered: false,
      reason: "shipment status 1 (pending - concept) never notifies",
    });
    expect(received).toEqual([]);
    expect(sim.deliveries()).toEqual([]);
  });

  it("shipment_label_created: success carries the pdf, failure a reason", async () => {
    const sim = await subscribed();
    await sim.emit({ kind: "shipment_label_created", shop: "demo", shipmentIds: [5, 6], status: "success" });
    await sim.emit({ kind: "shipment_label_created", shop: "demo", shipmentIds: [7], status: "failed" });
    expect(received.map((r) => r.body)).toEqual([
      {
        data: {
          hooks: [
            {
              event: "shipment_label_created",
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
              event: "shipment_label_created",
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
    expect(received.map((r) => r.headers["x-shipping-hook"])).toEqual([
      "shipment_label_created",
      "shipment_label_created",
    ]);
  });

  it("order_status_change via POST /__sim/events answers the delivery record", async () => {
    const sim = await subscribed();
    const uuid = "0b7d3c1e-3f8a-4c55-9a53-6a0e2f1d9b10";
    const reply = await call(sim.baseUrl, "POST", "/__sim/events", {
      body: { kind: "order_status_change", shop: "demo", uuid, status: "processed" },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      hook: "order_status_change",
      status: 200,
      url: `${receiverUrl}/order`,
    });
    expect(received[0]?.body).toEqual({
      data: { hooks: [{ event: "order_status_change", uuid, status: "processed" }] },
    });
    expect((await call(sim.baseUrl, "GET", "/__sim/deliveries")).json).toEqual([reply.json]);
  });

  it("records the receiver's status", async () => {
    const sim = await subscribed();
    answerStatus = 500;
    const result = await sim.emit({ kind: "shipment_status_change", shop: "demo", shipmentId: 2, status: 3 });
    expect(result).toMatchObject({ status: 500 });
  });

  it("without the CA the TLS handshake fails and the error is recorded", async () => {
    const sim = await subscribed({ trust: false });
    const result = (await sim.emit({
      kind: "shipment_status_change",
      shop: "demo",
      shipmentId: 2,
      status: 3,
    })) as Delivery;
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/certificate/i);
    expect(received).toEqual([]);
    expect(sim.deliveries()[0]?.error).toBe(result.error);
  });

  it("records a connection error when nothing listens", async () => {
    const sim = await startSim({ deliveryCa: tls.cert });
    const closed = createServer(tls);
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", `https://127.0.0.1:${port}/x`]),
    });
    const result = (await sim.emit({
      kind: "order_status_change",
      shop: "demo",
      uuid: "0b7d3c1e-3f8a-4c55-9a53-6a0e2f1d9b10",
      status: "open",
    })) as Delivery;
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it("does not deliver without a subscription for the hook, or for an unknown shop", async () => {
    const sim = await startSim({ deliveryCa: tls.cert });
    expect(
      await sim.emit({ kind: "shipment_status_change", shop: "demo", shipmentId: 2, status: 3 }),
    ).toEqual({
      delivered: false,
      reason: 'shop "demo" has no subscription for hook "shipment_status_change"',
    });
    expect(
      await sim.emit({ kind: "shipment_status_change", shop: "nope", shipmentId: 2, status: 3 }),
    ).toEqual({
      delivered: false,
      reason: 'unknown shop "nope"',
    });
  });

  it("rejects invalid events", async () => {
    const sim = await startSim();
    const bad = [
      { kind: "shipment_status_change", shop: "demo", shipmentId: 0, status: 3 },
      { kind: "shipment_status_change", shop: "demo", shipmentId: 1, status: 25 },
      { kind: "shipment_label_created", shop: "demo", shipmentIds: [], status: "success" },
      { kind: "order_status_change", shop: "demo", uuid: "x", status: "open" },
      {
        kind: "order_status_change",
        shop: "demo",
        uuid: "0b7d3c1e-3f8a-4c55-9a53-6a0e2f1d9b10",
        status: "done",
      },
    ];
    for (const event of bad) await expect(sim.emit(event as never)).rejects.toThrow(InvalidInputError);
  });

  it("eventPayload for each hook carries the event name", () => {
    expect(eventPayload({ kind: "order_status_change", shop: "s", uuid: "u", status: "open" }, 3)).toEqual({
      event: "order_status_change",
      uuid: "u",
      status: "open",
    });
  });
});
