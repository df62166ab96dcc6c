/**
 * Payload fields that are an event's own (`status`, `shipment_id`, `order_id`, `shipment_ids`, `uuid`): given
 * in `set` (over HTTP, or by `shipping-api-sim trigger --set`), they are checked by the event field's rule
 * and set the event, so what derives from them follows (`shipment_id` gives the barcode) and a value of the
 * wrong type (`status=bogus`, `shipment_ids=5`) is refused naming the field, the rule and the fix, as a
 * wrong value (`status=25`) is.
 */
import { z } from "zod";
import type { Hook } from "../contract/hooks";
import { MAX_LABEL_SHIPMENT_IDS } from "./constants";
import { describeValue, stringifyJson } from "./jsonText";
import { setOwn } from "./records";
import { InvalidInputError, SHIPMENT_STATUSES } from "./schemas";
import { isPath, pathSegments, SET_PATH, SET_PATH_RULE } from "./setPath";

const positiveInt = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** A UUID, any case. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What a field name of `set` and `unset` must look like. */
export const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Why a field name is refused. */
export const FIELD_NAME_RULE = "must be a field name: a letter, then letters, digits or _ (at most 64)";

/** The schemas of the event fields (shared with eventSchema.ts). */
export const EVENT_FIELD_SCHEMAS = {
  shipmentId: positiveInt,
  shipmentStatus: positiveInt.refine(
    (s) => SHIPMENT_STATUSES.includes(s),
    "must be a known shipment status (1-19, 30-38)",
  ),
  orderId: z.string().min(1).max(64),
  shipmentIds: z
    .array(positiveInt)
    .min(1)
    .max(
      MAX_LABEL_SHIPMENT_IDS,
      `must hold at most ${MAX_LABEL_SHIPMENT_IDS} ids (one label batch); send several events instead`,
    ),
  labelStatus: z.enum(["success", "failed"]),
  uuid: z.string().regex(UUID, "must be a UUID"),
  orderStatus: z.enum(["open", "partially_processed", "processed", "cancelled"]),
};

/** One own field: the event field it sets, its schema, the rule in words and an example value. */
interface OwnField {
  field: string;
  schema: z.ZodType;
  rule: string;
  example: string;
}

const S = EVENT_FIELD_SCHEMAS;
const SHIPMENT_ID: OwnField = {
  field: "shipmentId",
  schema: S.shipmentId,
  rule: "a positive integer (the barcode and reference follow it)",
  example: "77",
};
const OWN_FIELDS: Record<Hook, Record<string, OwnField>> = {
  shipment_status_change: {
    shipment_id: SHIPMENT_ID,
    status: {
      field: "status",
      schema: S.shipmentStatus,
      rule: "a known shipment status, an integer 1-19 or 30-38",
      example: "3",
    },
    order_id: {
      field: "orderId",
      schema: S.orderId,
      rule: "a string of 1-64 characters, or null",
      example: "ord-1",
    },
  },
  shipment_label_created: {
    shipment_ids: {
      field: "shipmentIds",
      schema: S.shipmentIds,
      rule: `an array of 1-${MAX_LABEL_SHIPMENT_IDS} positive integers`,
      example: "[77,78]",
    },
    status: { field: "status", schema: S.labelStatus, rule: '"success" or "failed"', example: "failed" },
  },
  order_status_change: {
    uuid: { field: "uuid", schema: S.uuid, rule: "a UUID", example: "0b7d3c1e-3f8a-4c55-9a53-6a0e2f1d9b10" },
    status: {
      field: "status",
      schema: S.orderStatus,
      rule: "one of open, partially_processed, processed, cancelled",
      example: "cancelled",
    },
  },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Longest text of a client's `set` value shown in a refusal, in characters. */
const SHOWN_SET_CHARS = 60;

/**
 * A client's value for a refusal: its JSON, cut. stringifyJson is iterative and stops past the limit, so a
 * value nested 100,000 deep costs a short walk, not a RangeError (JSON.stringify's, which was a 500).
 */
const shown = (value: unknown): string => {
  if (typeof value === "number" || value === undefined) return describeValue(value);
  const text = stringifyJson(value, (t) => t, SHOWN_SET_CHARS);
  return text.length > SHOWN_SET_CHARS ? `${text.slice(0, SHOWN_SET_CHARS)}...` : text;
};

/**
 * `input` with the own fields of its `set` moved to the event (a copy; `input` is not changed). Throws
 * InvalidInputError for a `set` name that is no field name or path (`__proto__` included, which would
 * otherwise vanish), an own field of the wrong type or value, one given both ways, or a path into one
 * (`shipment_ids.0`: an own field is set whole). Anything that is not
 * an event with a known kind and a `set` object is answered as is (the schema refuses it).
 */
export function ownFieldsMoved(input: unknown): unknown {
  if (!isRecord(input) || !isRecord(input.set)) return input;
  const set = input.set;
  for (const name of Object.keys(set)) {
    if (!SET_PATH.test(name))
      throw new InvalidInputError(`invalid event: set.${name.slice(0, 64)}: ${SET_PATH_RULE}`);
  }
  const kind = input.kind;
  const own = typeof kind === "string" && Object.hasOwn(OWN_FIELDS, kind) ? OWN_FIELDS[kind as Hook] : {};
  for (const name of Object.keys(set).filter(isPath)) {
    const first = pathSegments(name)[0] as string;
    const spec = Object.hasOwn(own, first) ? own[first] : undefined;
    if (spec !== undefined)
      throw new InvalidInputError(
        `invalid event: set.${name}: ${first} is the event's own field, checked as a whole (${spec.rule}); set it whole, e.g. ${first}=${spec.example}`,
      );
  }
  const moved: Record<string, unknown> = { ...input };
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(set)) {
    const spec = Object.hasOwn(own, name) ? own[name] : undefined;
    if (spec === undefined || (name === "order_id" && value === null)) {
      setOwn(rest, name, value);
      continue;
    }
    if (!spec.schema.safeParse(value).success) {
      throw new InvalidInputError(
        `invalid event: set.${name}: must be ${spec.rule} (got ${shown(value)}); set it to one, e.g. ${name}=${spec.example}, or leave it out`,
      );
    }
    if (input[spec.field] !== undefined) {
      throw new InvalidInputError(
        `invalid event: set.${name} and ${spec.field} both give the event's ${spec.field}; give one of them`,
      );
    }
    moved[spec.field] = value;
  }
  if (Object.keys(rest).length > 0) moved.set = rest;
  else delete moved.set;
  return moved;
}
