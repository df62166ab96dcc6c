import { AuthSchemeMemory } from "./client/authScheme";
import { ShippingClient } from "./client/shippingClient";
import { shopName } from "./refusals";
import type { ShopTarget } from "./settings";

/**
 * The HTTP clients of one deployment: one keep-alive pool per shop entry (credentials, transport settings and
 * the name its errors give the shop).
 */
export class Clients {
  readonly #clients = new Map<string, ShippingClient>();
  /** What `auto` learned of each API's scheme word, shared by every shop's client. */
  readonly #schemes = new AuthSchemeMemory();

  /** The client for a shop. */
  for(target: ShopTarget): ShippingClient {
    const key = JSON.stringify([
      target.shopKey,
      target.label,
      target.authScheme,
      target.timeouts ?? {},
      target.retry ?? {},
      target.caCertificates ?? "",
    ]);
    let client = this.#clients.get(key);
    if (client === undefined) {
      client = new ShippingClient({
        baseUrl: target.baseUrl,
        apiKey: target.apiKey,
        authScheme: target.authScheme,
        schemeMemory: this.#schemes,
        shop: shopName(target.label),
        ...(target.timeouts !== undefined ? { timeouts: target.timeouts } : {}),
        ...(target.retry !== undefined ? { retry: target.retry } : {}),
        ...(target.caCertificates !== undefined ? { caCertificates: target.caCertificates } : {}),
      });
      this.#clients.set(key, client);
    }
    return client;
  }
}
