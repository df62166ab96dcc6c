/**
 * Subscribe a receiver to every hook through the package's client, as a deployment would (the
 * `WebhookSubscription` resource calls the same API).
 */
import { ShippingClient } from "pulumi-shipping-webhooks";
import { RECEIVER_HOOKS } from "./receiver";

/** Subscribe `receiverUrl`/webhooks/<hook> for every hook of the shop whose key is `apiKey`; answers the ids. */
export async function subscribeReceiver(
  apiBaseUrl: string,
  apiKey: string,
  receiverUrl: string,
): Promise<number[]> {
  const client = new ShippingClient({ baseUrl: apiBaseUrl, apiKey });
  try {
    return await client.create(
      RECEIVER_HOOKS.map((hook) => ({ hook, url: `${receiverUrl}/webhooks/${hook}` })),
    );
  } finally {
    await client.close();
  }
}
