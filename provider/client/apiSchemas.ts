import { z } from "zod";

const reportedId = z.union([z.number(), z.string()]).optional();

/**
 * A subscription as the API lists it. `shop_id` and `account_id` are kept when the service reports them (they
 * say which shop a subscription belongs to); other extra fields are dropped.
 */
export const liveSubscriptionSchema = z.object({
  id: z.number().int().positive(),
  hook: z.string(),
  url: z.string(),
  shop_id: reportedId,
  account_id: reportedId,
});

/** A subscription that exists on the service. `hook` stays a string so a hook added later is not fatal. */
export interface LiveSubscription {
  readonly id: number;
  readonly hook: string;
  readonly url: string;
  /** The shop the service says it belongs to (`shop_id`), when the service reports it. */
  readonly shopId?: string;
  /** The account the service says it belongs to (`account_id`), when the service reports it. */
  readonly accountId?: string;
}

/** Body of `GET /webhook_subscriptions[/ids]`. */
export const listResponseSchema = z.object({
  data: z.object({ webhook_subscriptions: z.array(liveSubscriptionSchema) }),
});

/** Body of `POST /webhook_subscriptions`. */
export const createResponseSchema = z.object({
  data: z.object({ ids: z.array(z.object({ id: z.number().int().positive() })) }),
});

/** The service's error body; every field optional because older endpoints omit some. */
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
