import { z } from "zod";

/** A subscription as the API lists it; extra fields (account_id, shop_id, ...) are allowed and dropped. */
export const liveSubscriptionSchema = z.object({
  id: z.number().int().positive(),
  hook: z.string(),
  url: z.string(),
});

/** A subscription that exists on the service. `hook` stays a string so a hook added later is not fatal. */
export type LiveSubscription = z.infer<typeof liveSubscriptionSchema>;

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
