/** Public types of events and webhook deliveries (re-exported by `types.ts`). */
import type { Hook } from "../contract/hooks";

/** Payload fields to set (any JSON value) or leave out, applied to every event after the fixture is built. */
export interface PayloadOverrides {
  /**
   * Fields to set, by their name on the wire (`barcode`, `order_id`, even `event`), or paths into them
   * (`meta.source`, `lines.0.sku`: setPath.ts); at most 32.
   */
  set?: Record<string, unknown>;
  /** Fields to leave out, by their name on the wire. */
  unset?: string[];
}

/** What every event may carry besides its own fields. */
interface EventCommon extends PayloadOverrides {
  /** The shop to notify; default: the first shop. */
  shop?: string;
  /**
   * How many such events to send at once (1-100, default 1): ids go up by one per event (a label's whole
   * list moves on), an order gets a fresh uuid. They go out in deliveries of at most `eventsPerDelivery`.
   */
  count?: number;
  /**
   * A key to send (as base64, in `x-shipping-api-key`) instead of the shop's: a wrong sender, to test that
   * the receiver refuses it. Redacted in the delivery log like the shop's key.
   */
  senderKey?: string;
  /**
   * Hold the event this long (0-60 000 ms) before its first delivery: an event emitted meanwhile is
   * delivered first (late delivery). `emit` resolves that much later.
   */
  delayMs?: number;
  /**
   * The order the event's deliveries go out in (with `count` over `eventsPerDelivery`): `in-order` (default),
   * `reverse` (last first) or `shuffled` (seeded by `orderSeed`, default 1: the same seed, the same order).
   */
  order?: "in-order" | "reverse" | "shuffled";
  /** Seed of the `shuffled` order, an integer 0-4294967295. */
  orderSeed?: number;
}

/**
 * An event to notify a shop about, via its subscription for the matching hook. Fields left out get fixture
 * values: a shipment id from a counter (from 100001), shipment status 3, label status "success", a random
 * order uuid, order status "processed".
 */
export type SimEvent =
  | (EventCommon & {
      kind: "shipment_status_change";
      shipmentId?: number;
      /** 1-19 or 30-38; 1 (concept) never notifies. */
      status?: number;
      /** The order the shipment belongs to, sent as `order_id` (left out when absent, as production does). */
      orderId?: string;
    })
  | (EventCommon & {
      kind: "shipment_label_created";
      /** 1-1000 ids (one label batch). */
      shipmentIds?: number[];
      status?: "success" | "failed";
    })
  | (EventCommon & {
      kind: "order_status_change";
      uuid?: string;
      status?: "open" | "partially_processed" | "processed" | "cancelled";
    });

/** Why a delivery was sent: an emitted event, the duplicate switch, or `resend`. */
export type DeliverySend = "event" | "duplicate" | "resend";

/** How one attempt ended. */
export type AttemptResult = "accepted" | "refused" | "timeout" | "unreachable";

/** One attempt to deliver (one HTTPS POST), as recorded in the delivery log. */
export interface Delivery {
  /** The delivery id (`x-shipping-delivery-id`): kept by retries, by `resend`, and by duplicates unless `duplicateDeliveryId` is "new". */
  id: string;
  shop: string;
  hook: Hook;
  url: string;
  /** The body sent: `{"data":{"hooks":[...]}}`. */
  body: unknown;
  /** Events in the body. */
  events: number;
  send: DeliverySend;
  /** 1 for the first attempt of a send; retries count up to `maxAttempts`. */
  attempt: number;
  maxAttempts: number;
  /** When the attempt started (ISO 8601). */
  at: string;
  /** Time from the start of the attempt to its outcome, in milliseconds. */
  durationMs: number;
  /** Headers sent, lower-case; the sender key header shows "[REDACTED]". */
  headers: Record<string, string>;
  /** "accepted": a status that is no failure under `deliveryFailure`; "refused": one that is. */
  result: AttemptResult;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why there was no answer, e.g. "timeout: no answer within 5000 ms" or "ECONNREFUSED: ...". */
  error?: string;
  /** The start of the receiver's answer body (at most 1 KiB, API keys redacted). */
  response?: string;
  /** Present when another attempt follows: its delay, in milliseconds. */
  retryInMs?: number;
}

/** The answer of `emit` and `resend` when something was sent. */
export interface Emitted {
  delivered: true;
  /** Whether every delivery was accepted on some attempt. */
  accepted: boolean;
  /** Delivery ids, in the order sent (duplicates included). */
  deliveryIds: string[];
  /** Every attempt, in order. */
  attempts: Delivery[];
}

/** One attempt as `POST /__sim/events` and `/__sim/resend` answer it: no body and no headers (see the log). */
export type AttemptSummary = Omit<Delivery, "body" | "headers">;

/**
 * The answer of `POST /__sim/events` and `POST /__sim/resend` when something was sent: as `Emitted`, with
 * each attempt's body and headers left out (`GET /__sim/deliveries` has them), so the answer stays small.
 */
export interface EmittedSummary {
  delivered: true;
  accepted: boolean;
  deliveryIds: string[];
  attempts: AttemptSummary[];
}

/** The answer of `emit` and `resend` when nothing was sent. */
export interface NotDelivered {
  delivered: false;
  reason: string;
}
