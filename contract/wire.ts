/**
 * What travels between a client and the Shipping Service API (spec sections 2, 4, 7 and 9; the error body from
 * observed-behaviour.md): headers every request carries, the request and response envelopes of
 * `/webhook_subscriptions`, and the error body of a 4xx. The schemas are what a client must accept: extra
 * fields are dropped, a hook stays a string (a hook added later is not fatal), and every field of the error
 * body is optional (older endpoints omit some).
 */
import { z } from "zod";
import type { Hook } from "./hooks";

/** The User-Agent every subscription request carries: it names the API version (spec 4 and 9). */
export const USER_AGENT = "CustomApiCall/2";

/** The Content-Type the spec lists for POST and DELETE (spec 4). */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The `errors[].code` values production documents (observed-behaviour.md, "Error body"). */
export const API_ERROR_CODES = {
  /** 422: the subscription is invalid (envelope, item shape). */
  invalidSubscription: 10001,
  /** 422: the callback URL is invalid (not HTTPS, not lowercase, ...). */
  invalidUrl: 10002,
  /** 422: the hook is not one of the three. */
  invalidHook: 10003,
  /** 401: the Authorization header is missing or invalid. */
  invalidAuthorization: 3103,
} as const;

/** One subscription to add, an item of {@link CreateSubscriptionsRequest} (spec 2, "Subscription"). */
interface SubscriptionRequestItem {
  readonly hook: Hook;
  /** The callback URL: HTTPS, lowercase (see `callbackUrl.ts`). */
  readonly url: string;
}

/** Body of `POST /webhook_subscriptions` (spec 2, "Request envelope for creating subscriptions"). */
export interface CreateSubscriptionsRequest {
  readonly data: { readonly webhook_subscriptions: readonly SubscriptionRequestItem[] };
}

const reportedId = z.union([z.number(), z.string()]).optional();

/**
 * A subscription as the API lists it (`id`, `hook`, `url`). `shop_id` and `account_id` are kept when the
 * service reports them (they say which shop a subscription belongs to); other extra fields are dropped.
 */
const liveSubscriptionSchema = z.object({
  id: z.number().int().positive(),
  hook: z.string(),
  url: z.string(),
  shop_id: reportedId,
  account_id: reportedId,
});

/** Body of `GET /webhook_subscriptions[/ids]` (spec 2, "Response envelope for listing subscriptions"). */
export const listResponseSchema = z.object({
  data: z.object({ webhook_subscriptions: z.array(liveSubscriptionSchema) }),
});

/** Body of `POST /webhook_subscriptions` (spec 2, "SubscriptionIds"): one id per subscription, in order. */
export const createResponseSchema = z.object({
  data: z.object({ ids: z.array(z.object({ id: z.number().int().positive() })) }),
});

/** The error body of a 4xx as a client reads it; every field optional because older endpoints omit some. */
export const errorBodySchema = z.object({
  message: z.string().optional(),
  request_id: z.union([z.string(), z.number()]).optional(),
  errors: z
    .array(
      z.object({
        status: z.number().optional(),
        code: z.number().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
});

/** One entry of an error body's `errors[]`, with every field newer endpoints send. */
export interface ErrorItem {
  status: number;
  code: number;
  title: string;
  message: string;
}

/** The error body of a 4xx in full: `{message, request_id, errors[]}` (observed-behaviour.md). */
export interface ErrorBody {
  /** The item messages joined, then `(request_id: <id>)`. */
  message: string;
  request_id: string;
  errors: ErrorItem[];
}
