import { ShippingClient } from "../../provider/client/shippingClient";

/**
 * Changes made outside any stack, as the back office or another tool would, with a shop's own key against
 * a (simulated) service.
 */
export async function outOfBand<T>(
  baseUrl: string,
  apiKey: string,
  change: (client: ShippingClient) => Promise<T>,
): Promise<T> {
  const client = new ShippingClient({ baseUrl, apiKey });
  try {
    return await change(client);
  } finally {
    await client.close();
  }
}
