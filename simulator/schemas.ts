/**
 * Runtime schemas (zod) for everything that enters through options, control endpoints, the CLI or files:
 * switches, faults, shop seeds and the state file (events: `eventSchema.ts`). API request bodies are validated by hand in
 * `validation.ts` to produce production-style messages.
 */
import { z } from "zod";
import { HOOKS } from "../contract/hooks";
import {
  MAX_DELIVERY_ATTEMPTS,
  MAX_DELIVERY_WAIT_MS,
  MAX_EVENTS_PER_DELIVERY,
  MAX_TIMER_MS,
} from "./constants";
import type { FaultSpec, ShopSeed, Switches } from "./types";

const nonNegativeInt = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const positiveInt = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** A fault duration: a Node timer holds at most MAX_TIMER_MS (longer ones would fire after 1 ms). */
const timerMs = z.number().int().min(0).max(MAX_TIMER_MS);
const method = z.string().regex(/^[A-Za-z]+$/, "must be an HTTP method name such as GET");

const rateLimitSettings = z.strictObject({
  windowMs: positiveInt,
  post: nonNegativeInt,
  get: nonNegativeInt,
  delete: nonNegativeInt,
});

const switchesPatch = z.strictObject({
  authScheme: z.enum(["basic", "bearer", "both"]).optional(),
  getStatus: z.union([z.literal(200), z.literal(201)]).optional(),
  overwrite: z.enum(["keep-id", "new-id"]).optional(),
  rateLimit: z.union([z.literal("off"), z.literal("production"), rateLimitSettings]).optional(),
  retryAfter: z.boolean().optional(),
  requireUserAgent: z.boolean().optional(),
  partialIds: z.enum(["subset", "404"]).optional(),
  deleteCheckOrder: z.enum(["ownership", "existence"]).optional(),
  shopFields: z.enum(["listed", "omitted"]).optional(),
  deliveryAttempts: z.number().int().min(1).max(MAX_DELIVERY_ATTEMPTS).optional(),
  deliveryBackoffMs: z.number().int().min(0).max(MAX_DELIVERY_WAIT_MS).optional(),
  deliveryFailure: z.enum(["non-2xx", "5xx"]).optional(),
  deliveryTimeoutMs: z.number().int().min(1).max(MAX_DELIVERY_WAIT_MS).optional(),
  deliveryDuplicates: z.number().min(0).max(1).optional(),
  duplicateDeliveryId: z.enum(["same", "new"]).optional(),
  eventsPerDelivery: z.number().int().min(1).max(MAX_EVENTS_PER_DELIVERY).optional(),
  eventField: z.enum(["omitted", "included"]).optional(),
});

/** What every fault may narrow itself to (see FaultMatch). */
const faultMatch = {
  method: method.optional(),
  request: z.enum(["listing", "ids"]).optional(),
  after: method.optional(),
  count: positiveInt.optional(),
};

const faultSpec = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("latency"), ms: timerMs, ...faultMatch }),
  z.strictObject({
    kind: z.literal("status"),
    status: z.number().int().min(400).max(599),
    rate: z.number().min(0).max(1).optional(),
    retryAfterSeconds: nonNegativeInt.optional(),
    ...faultMatch,
  }),
  z.strictObject({ kind: z.literal("reset"), ...faultMatch }),
  z.strictObject({ kind: z.literal("drop-after-write"), ...faultMatch }),
  z.strictObject({ kind: z.literal("stall"), ms: timerMs.optional(), ...faultMatch }),
  z.strictObject({
    kind: z.literal("late-apply"),
    ms: timerMs,
    untilClientGone: z.boolean().optional(),
    gatewayMs: timerMs.optional(),
    ...faultMatch,
  }),
]);

/** Shipment status values production knows (observed-behaviour.md): 1-19 and 30-38. */
export const SHIPMENT_STATUSES: readonly number[] = [
  ...Array.from({ length: 19 }, (_, i) => i + 1),
  ...Array.from({ length: 9 }, (_, i) => i + 30),
];

/** A shop name: 1-64 characters of A-Z a-z 0-9 _ . - */
export const shopName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1-64 characters of A-Z a-z 0-9 _ . -");

const apiKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,256}$/, "must be 1-256 printable ASCII characters without spaces");

const shopSeeds = z
  .array(
    z.strictObject({
      name: shopName,
      keys: z.strictObject({ readWrite: z.array(apiKey).min(1), readOnly: z.array(apiKey).optional() }),
    }),
  )
  .min(1);

/** Schema of one shop's subscriptions in the state file. */
export const stateShopSchema = z.array(
  z.strictObject({ id: positiveInt, hook: z.enum(HOOKS), url: z.string() }),
);

/**
 * Schema of the persisted state file (version 1), without the shops' content: zod records drop a key
 * named `__proto__`, so each own entry of `shops` is checked with `stateShopSchema` by the loader.
 */
export const stateFileSchema = z.strictObject({
  version: z.literal(1),
  nextId: positiveInt,
  shops: z.record(z.string(), z.unknown()),
});

/** Render zod issues as `path: message; path: message`. */
export function formatIssues(error: z.ZodError, prefix: PropertyKey[] = []): string {
  return error.issues
    .map((issue) => {
      const path = [...prefix, ...issue.path]
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("");
      return `${path.replace(/^\./, "") || "(root)"}: ${issue.message}`;
    })
    .join("; ");
}

/** Thrown when a switch, fault, event or seed is invalid; `message` names the field. */
export class InvalidInputError extends Error {
  /** Build with a message naming what is wrong. */
  constructor(message: string) {
    super(message);
    this.name = "InvalidInputError";
  }
}

/** Validate `input` with `schema`; throws InvalidInputError naming `what` and each bad field. */
export function parse(schema: z.ZodType, input: unknown, what: string): unknown {
  const result = schema.safeParse(input);
  if (!result.success) throw new InvalidInputError(`invalid ${what}: ${formatIssues(result.error)}`);
  return result.data;
}

/** Validate a partial switches object (unknown keys rejected). */
export function parseSwitchesPatch(input: unknown): Partial<Switches> {
  return parse(switchesPatch, input, "switches") as Partial<Switches>;
}

/** Validate a fault specification. */
export function parseFault(input: unknown): FaultSpec {
  return parse(faultSpec, input, "fault") as FaultSpec;
}

/** Validate shop seeds: shape, unique shop names, every key used once across all shops. */
export function parseShopSeeds(input: unknown): ShopSeed[] {
  const seeds = parse(shopSeeds, input, "shops") as ShopSeed[];
  const names = new Set<string>();
  const keys = new Set<string>();
  seeds.forEach((seed, i) => {
    if (names.has(seed.name))
      throw new InvalidInputError(`invalid shops: [${i}].name "${seed.name}" is used twice`);
    names.add(seed.name);
    for (const key of [...seed.keys.readWrite, ...(seed.keys.readOnly ?? [])]) {
      // The key itself is never echoed: error messages must not carry credentials.
      if (keys.has(key))
        throw new InvalidInputError(`invalid shops: [${i}] (${seed.name}) reuses an API key`);
      keys.add(key);
    }
  });
  return seeds;
}
