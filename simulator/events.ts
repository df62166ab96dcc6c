/**
 * Events and webhook deliveries: build the notification for an event, POST it over HTTPS to the shop's
 * subscribed URL (one attempt, no retries), and keep a bounded record of every attempt.
 */
import { randomUUID } from "node:crypto";
import { rootCertificates } from "node:tls";
import { Agent, request } from "undici";
import { DELIVERY_LOG_LIMIT, DELIVERY_TIMEOUT_MS, SIM_ACCOUNT_ID } from "./constants";
import type { SubscriptionStore } from "./store";
import type { Delivery, Hook, NotDelivered, SimEvent } from "./types";

/** The hook-specific payload of one event (one element of `data.hooks`). */
export function eventPayload(event: SimEvent, shopNumber: number): Record<string, unknown> {
  switch (event.kind) {
    case "shipment_status_change":
      return {
        event: event.kind,
        shipment_id: event.shipmentId,
        account_id: SIM_ACCOUNT_ID,
        shop_id: shopNumber,
        status: event.status,
        barcode: `3SSIM${String(event.shipmentId).padStart(10, "0")}`,
        shipment_reference_identifier: `sim-shipment-${event.shipmentId}`,
      };
    case "shipment_label_created": {
      const payload: Record<string, unknown> = {
        event: event.kind,
        status: event.status,
        shipment_ids: [...event.shipmentIds],
        printer_identifier: null,
        pdf:
          event.status === "success"
            ? `https://labels.shipping-sim.invalid/${event.shipmentIds.join("-")}.pdf`
            : null,
      };
      if (event.status === "failed") payload.reason = "label creation failed (simulated)";
      return payload;
    }
    case "order_status_change":
      return { event: event.kind, uuid: event.uuid, status: event.status };
  }
}

/** Why an event is not sent, or undefined when it should be. */
function skipReason(event: SimEvent, store: SubscriptionStore): string | undefined {
  if (!store.hasShop(event.shop)) return `unknown shop "${event.shop}"`;
  if (event.kind === "shipment_status_change" && event.status === 1) {
    return "shipment status 1 (pending - concept) never notifies";
  }
  if (store.forHook(event.shop, event.kind) === undefined) {
    return `shop "${event.shop}" has no subscription for hook "${event.kind}"`;
  }
  return undefined;
}

/** Sends notifications and records deliveries. */
export class Deliverer {
  private readonly agent: Agent;
  private records: Delivery[] = [];

  /**
   * @param store where subscriptions are looked up
   * @param apiKeyToken base64 of each shop's first read-write key, sent as `x-shipping-api-key`
   * @param extraCa PEM of extra CA(s) trusted for deliveries, besides the system roots
   */
  constructor(
    private readonly store: SubscriptionStore,
    private readonly apiKeyToken: (shop: string) => string | undefined,
    extraCa: string | undefined,
  ) {
    const ca = extraCa === undefined ? undefined : [...rootCertificates, extraCa];
    this.agent = new Agent({
      connect: { timeout: DELIVERY_TIMEOUT_MS, ...(ca === undefined ? {} : { ca }) },
      headersTimeout: DELIVERY_TIMEOUT_MS,
      bodyTimeout: DELIVERY_TIMEOUT_MS,
    });
  }

  /** Notify the shop's subscriber about `event`; answers the delivery record or why nothing was sent. */
  async emit(event: SimEvent): Promise<Delivery | NotDelivered> {
    const reason = skipReason(event, this.store);
    if (reason !== undefined) return { delivered: false, reason };
    const hook: Hook = event.kind;
    const url = this.store.forHook(event.shop, hook)?.url ?? "";
    const delivery: Delivery = {
      id: randomUUID(),
      shop: event.shop,
      hook,
      url,
      body: { data: { hooks: [eventPayload(event, this.store.shopNumber(event.shop))] } },
      at: new Date().toISOString(),
    };
    const headers: Record<string, string> = {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "ShippingServiceSimulator/1",
      "x-shipping-hook": hook,
      "x-shipping-delivery-id": delivery.id,
    };
    const token = this.apiKeyToken(event.shop);
    if (token !== undefined) headers["x-shipping-api-key"] = token;
    try {
      const res = await request(url, {
        method: "POST",
        headers,
        body: JSON.stringify(delivery.body),
        dispatcher: this.agent,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await res.body.dump();
      delivery.status = res.statusCode;
    } catch (error) {
      delivery.error = describe(error);
    }
    this.records.push(delivery);
    if (this.records.length > DELIVERY_LOG_LIMIT) this.records.shift();
    return structuredClone(delivery);
  }

  /** Copies of the delivery records, oldest first. */
  list(): Delivery[] {
    return this.records.map((d) => structuredClone(d));
  }

  /** Forget every record. */
  clear(): void {
    this.records = [];
  }

  /** Close pooled connections, abandoning deliveries in flight. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  const code = (error as NodeJS.ErrnoException).code;
  return `${code === undefined ? error.name : code}: ${error.message}${cause}`;
}
