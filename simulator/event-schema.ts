/**
 * The schema of events (`emit`, `POST /__sim/events`, `shipping-api-sim trigger`) and of resend requests.
 * Sizes are bounded so no event makes a delivery larger than production's would be: a label holds at most
 * MAX_LABEL_SHIPMENT_IDS ids, an event sets at most MAX_OVERRIDES fields of plain, shallow JSON.
 */
import { z } from "zod";
import { MAX_EVENT_COUNT, MAX_LABEL_SHIPMENT_IDS, MAX_OVERRIDES } from "./constants";
import type { SimEvent } from "./delivery-types";
import { nestedDeeperThan, stringifyJson } from "./json-text";
import { InvalidInputError, parse, SHIPMENT_STATUSES, shopName } from "./schemas";

/** Deepest nesting of a value an event sets. */
export const MAX_OVERRIDE_DEPTH = 32;
/** Longest JSON text of one value an event sets, in characters. */
export const MAX_OVERRIDE_CHARS = 16 * 1024;

const positiveInt = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const fieldName = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
    "must be a field name: a letter, then letters, digits or _ (at most 64)",
  );

const common = {
  shop: shopName.optional(),
  count: z
    .number()
    .int()
    .min(1)
    .max(MAX_EVENT_COUNT, `must be at most ${MAX_EVENT_COUNT}; emit again for more`)
    .optional(),
  set: z
    .record(fieldName, z.unknown())
    .refine((set) => Object.keys(set).length <= MAX_OVERRIDES, `must set at most ${MAX_OVERRIDES} fields`)
    .optional(),
  unset: z.array(fieldName).max(MAX_OVERRIDES).optional(),
};

const simEvent = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("shipment_status_change"),
    ...common,
    shipmentId: positiveInt.optional(),
    status: positiveInt
      .refine((s) => SHIPMENT_STATUSES.includes(s), "must be a known shipment status (1-19, 30-38)")
      .optional(),
    orderId: z.string().min(1).max(64).optional(),
  }),
  z.strictObject({
    kind: z.literal("shipment_label_created"),
    ...common,
    shipmentIds: z
      .array(positiveInt)
      .min(1)
      .max(
        MAX_LABEL_SHIPMENT_IDS,
        `must hold at most ${MAX_LABEL_SHIPMENT_IDS} ids (one label batch); send several events instead`,
      )
      .optional(),
    status: z.enum(["success", "failed"]).optional(),
  }),
  z.strictObject({
    kind: z.literal("order_status_change"),
    ...common,
    uuid: z.string().regex(UUID, "must be a UUID").optional(),
    status: z.enum(["open", "partially_processed", "processed", "cancelled"]).optional(),
  }),
]);

/** Validate an event to emit; throws InvalidInputError naming the field, the rule and the fix. */
export function parseEvent(input: unknown): SimEvent {
  const event = parse(simEvent, input, "event") as SimEvent;
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
