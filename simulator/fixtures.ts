/**
 * Notification payloads as the production service is known to send them (../shared/spec/
 * observed-behaviour.md): no `event` key unless the `eventField` switch asks for it, `order_id` on shipments
 * of an order, fixture values for whatever the event leaves out, then the event's own overrides.
 */
import { randomUUID } from "node:crypto";
import { SIM_ACCOUNT_ID } from "./constants";
import type { SimEvent } from "./deliveryTypes";
import { setOwn } from "./records";
import { InvalidInputError } from "./schemas";
import { isPath, setAtPath } from "./setPath";
import type { Switches } from "./types";

/** Shipment status a `shipment_status_change` gets when the event names none (3: en route, handed to carrier). */
const DEFAULT_SHIPMENT_STATUS = 3;
/** Label status when the event names none. */
const DEFAULT_LABEL_STATUS = "success";
/** Order status when the event names none. */
const DEFAULT_ORDER_STATUS = "processed";
/** Host of the placeholder label URLs (never served). */
const LABEL_HOST = "labels.shipping-sim.invalid";

/** What building payloads needs beyond the event. */
interface FixtureContext {
  /** The shop's 1-based number (`shop_id`). */
  shopNumber: number;
  eventField: Switches["eventField"];
  /** Reserve `n` consecutive fixture shipment ids; answers the first. */
  takeShipmentIds(n: number): number;
}

type Payload = Record<string, unknown>;

function shipmentStatus(
  event: Extract<SimEvent, { kind: "shipment_status_change" }>,
  id: number,
  shop: number,
) {
  const payload: Payload = {
    shipment_id: id,
    account_id: SIM_ACCOUNT_ID,
    shop_id: shop,
    status: event.status ?? DEFAULT_SHIPMENT_STATUS,
    barcode: `3SSIM${String(id).padStart(10, "0")}`,
    shipment_reference_identifier: `sim-shipment-${id}`,
  };
  if (event.orderId !== undefined) payload.order_id = event.orderId;
  return payload;
}

function labelCreated(status: "success" | "failed", ids: number[]): Payload {
  const span = ids.length > 1 ? `${ids[0]}-${ids[ids.length - 1]}` : String(ids[0]);
  const payload: Payload = {
    status,
    shipment_ids: ids,
    printer_identifier: null,
    pdf: status === "success" ? `https://${LABEL_HOST}/${span}.pdf` : null,
  };
  if (status === "failed") payload.reason = "label creation failed (simulated)";
  return payload;
}

/** The `count` events an event stands for, each as its hook payload (one element of `data.hooks`). */
function basePayloads(event: SimEvent, ctx: FixtureContext): Payload[] {
  const count = event.count ?? 1;
  const indexes = Array.from({ length: count }, (_, i) => i);
  switch (event.kind) {
    case "shipment_status_change": {
      const first = event.shipmentId ?? ctx.takeShipmentIds(count);
      return indexes.map((i) => shipmentStatus(event, first + i, ctx.shopNumber));
    }
    case "shipment_label_created": {
      const status = event.status ?? DEFAULT_LABEL_STATUS;
      const given = event.shipmentIds;
      if (given === undefined) {
        const first = ctx.takeShipmentIds(count);
        return indexes.map((i) => labelCreated(status, [first + i]));
      }
      const span = Math.max(...given) - Math.min(...given) + 1;
      return indexes.map((i) =>
        labelCreated(
          status,
          given.map((id) => id + i * span),
        ),
      );
    }
    case "order_status_change":
      return indexes.map((i) => ({
        uuid: i === 0 && event.uuid !== undefined ? event.uuid : randomUUID(),
        status: event.status ?? DEFAULT_ORDER_STATUS,
      }));
  }
}

/**
 * The payloads of `event` (its `count` of them), with the `event` key first when the switch includes it,
 * then the event's `unset` and `set` overrides, in order (a path of `set` sets a nested value, setPath.ts;
 * one that does not fit the payload is an InvalidInputError naming it, the reason and the fix).
 */
export function eventPayloads(event: SimEvent, ctx: FixtureContext): Payload[] {
  return basePayloads(event, ctx).map((base) => {
    const payload: Payload = ctx.eventField === "included" ? { event: event.kind, ...base } : base;
    for (const name of event.unset ?? []) delete payload[name];
    for (const [name, given] of Object.entries(event.set ?? {})) {
      // A copy per payload: a later path changes one event's value, never the others' or the request's.
      const value = typeof given === "object" && given !== null ? structuredClone(given) : given;
      if (!isPath(name)) {
        setOwn(payload, name, value);
        continue;
      }
      const misfit = setAtPath(payload, name, value);
      if (misfit !== undefined)
        throw new InvalidInputError(
          `invalid event: set.${name}: ${misfit} (in ${/^[aeiou]/.test(event.kind) ? "an" : "a"} ${event.kind} payload)`,
        );
    }
    return payload;
  });
}

/** Why an event is not sent at all (status 1 never notifies), or undefined. */
export function neverNotifies(event: SimEvent): string | undefined {
  if (event.kind === "shipment_status_change" && event.status === 1) {
    return "shipment status 1 (pending - concept) never notifies";
  }
  return undefined;
}
