/**
 * The schema of events (`emit`, `POST /__sim/events`, `shipping-api-sim trigger`) and of resend requests.
 * Sizes are bounded so no event makes a delivery larger than production's would be: a label holds at most
 * MAX_LABEL_SHIPMENT_IDS ids, an event sets at most MAX_OVERRIDES fields of plain, shallow JSON.
 */
import { z } from "zod";
import { MAX_EVENT_COUNT, MAX_OVERRIDES } from "./constants";
import { DELIVERY_ORDERS, MAX_EVENT_DELAY_MS } from "./deliveryOrder";
import type { SimEvent } from "./deliveryTypes";
import { nestedDeeperThan, stringifyJson } from "./jsonText";
import { EVENT_FIELD_SCHEMAS as F, FIELD_NAME, FIELD_NAME_RULE, ownFieldsMoved, UUID } from "./ownFields";
import { InvalidInputError, parse, shopName } from "./schemas";
import { SET_PATH, SET_PATH_RULE } from "./setPath";

/** Deepest nesting of a value an event sets. */
const MAX_OVERRIDE_DEPTH = 32;
/** Largest `orderSeed` (a 32-bit unsigned integer). */
export const MAX_ORDER_SEED = 4_294_967_295;
/** Longest `senderKey`, in characters. */
const MAX_SENDER_KEY_CHARS = 256;
/** Longest JSON text of one value an event sets, in characters. */
const MAX_OVERRIDE_CHARS = 16 * 1024;

const fieldName = z.string().regex(FIELD_NAME, FIELD_NAME_RULE);
const setName = z.string().regex(SET_PATH, SET_PATH_RULE);

const common = {
  shop: shopName.optional(),
  count: z
    .number()
    .int()
    .min(1)
    .max(MAX_EVENT_COUNT, `must be at most ${MAX_EVENT_COUNT}; emit again for more`)
    .optional(),
  set: z
    .record(setName, z.unknown())
    .refine((set) => Object.keys(set).length <= MAX_OVERRIDES, `must set at most ${MAX_OVERRIDES} fields`)
    .optional(),
  unset: z.array(fieldName).max(MAX_OVERRIDES).optional(),
  senderKey: z.string().min(1).max(MAX_SENDER_KEY_CHARS).optional(),
  delayMs: z
    .number()
    .int()
    .min(0)
    .max(MAX_EVENT_DELAY_MS, `must be at most ${MAX_EVENT_DELAY_MS} (one minute)`)
    .optional(),
  order: z.enum(DELIVERY_ORDERS).optional(),
  orderSeed: z.number().int().min(0).max(MAX_ORDER_SEED).optional(),
};

const simEvent = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("shipment_status_change"),
    ...common,
    shipmentId: F.shipmentId.optional(),
    status: F.shipmentStatus.optional(),
    orderId: F.orderId.optional(),
  }),
  z.strictObject({
    kind: z.literal("shipment_label_created"),
    ...common,
    shipmentIds: F.shipmentIds.optional(),
    status: F.labelStatus.optional(),
  }),
  z.strictObject({
    kind: z.literal("order_status_change"),
    ...common,
    uuid: F.uuid.optional(),
    status: F.orderStatus.optional(),
  }),
]);

/** The last shipment id `event` (with its `count`) names, when it names any. */
function lastShipmentId(event: SimEvent): [string, number] | undefined {
  const more = (event.count ?? 1) - 1;
  if (event.kind === "shipment_status_change" && event.shipmentId !== undefined)
    return ["shipmentId", event.shipmentId + more];
  if (event.kind !== "shipment_label_created" || event.shipmentIds === undefined) return undefined;
  const ids = event.shipmentIds;
  const span = Math.max(...ids) - Math.min(...ids) + 1;
  return ["shipmentIds", Math.max(...ids) + more * span];
}

/**
 * Validate an event to emit; throws InvalidInputError naming the field, the rule and the fix. Payload
 * fields of `set` that are the event's own (`status`, `shipment_id`...) are checked and moved to the event
 * first (ownFields.ts), so they follow the same rules however they are given.
 */
export function parseEvent(input: unknown): SimEvent {
  const event = parse(simEvent, ownFieldsMoved(input), "event") as SimEvent;
  const last = lastShipmentId(event);
  if (last !== undefined && !Number.isSafeInteger(last[1])) {
    throw new InvalidInputError(
      `invalid event: ${last[0]}: with count ${event.count ?? 1} the last shipment id would pass ${Number.MAX_SAFE_INTEGER} (Number.MAX_SAFE_INTEGER); use smaller ids or a smaller count`,
    );
  }
  for (const [name, value] of Object.entries(event.set ?? {})) {
    if (nestedDeeperThan(value, MAX_OVERRIDE_DEPTH)) {
      throw new InvalidInputError(
        `invalid event: set.${name}: must nest at most ${MAX_OVERRIDE_DEPTH} levels`,
      );
    }
    if (stringifyJson(value, (t) => t, MAX_OVERRIDE_CHARS).length > MAX_OVERRIDE_CHARS) {
      throw new InvalidInputError(
        `invalid event: set.${name}: its JSON text must be at most ${MAX_OVERRIDE_CHARS} characters`,
      );
    }
  }
  return event;
}

const resendRequest = z.strictObject({ id: z.string().regex(UUID, "must be a delivery id (a UUID)") });

/** Validate the body of `POST /__sim/resend`: `{"id": "<delivery id>"}`. */
export function parseResend(input: unknown): string {
  return (parse(resendRequest, input, "resend request") as { id: string }).id;
}
