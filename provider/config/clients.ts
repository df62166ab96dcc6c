import { AuthSchemeMemory } from "../client/authScheme";
import { ShippingClient } from "../client/shippingClient";
import { shopName } from "../refusals/wording";
import type { ShopTarget } from "./settings";

/** The HTTP clients of one deployment: one keep-alive pool per set of credentials and transport settings. */
export class Clients {
  readonly #clients = new Map<string, ShippingClient>();
  /** What `auto` learned of each API's scheme word, shared by every shop's client. */
  readonly #schemes = new AuthSchemeMemory();
  /** Every configured shop: a shop's requests are batched by key, so its errors name each entry of the key. */
  readonly #configured: () => readonly ShopTarget[];

  /** `configured`: the shops of the deployment (default: none known beyond each target itself). */
  constructor(configured: () => readonly ShopTarget[] = () => []) {
    this.#configured = configured;
  }

  /** The name of `target`'s shop in messages: its entry's (`shop acme`), or every entry that shares its key. */
  #nameOf(target: ShopTarget): string {
    const sharing = this.#configured().filter((t) => t.shopKey === target.shopKey);
    return shopNames(
      (sharing.some((t) => t.label === target.label) ? sharing : [target]).map((t) => t.label),
    );
  }

  /** The client for a shop. */
  for(target: ShopTarget): ShippingClient {
    const key = JSON.stringify([
      target.shopKey,
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
        // Named once, when the pool is made: every entry of the key, whichever entry asked first.
        shop: this.#nameOf(target),
        ...(target.timeouts !== undefined ? { timeouts: target.timeouts } : {}),
        ...(target.retry !== undefined ? { retry: target.retry } : {}),
        ...(target.caCertificates !== undefined ? { caCertificates: target.caCertificates } : {}),
      });
      this.#clients.set(key, client);
    }
    return client;
  }
}

/**
 * The shops a set of credentials stands for, named as the stack names them: one entry's name, or all of them
 * when several entries (or the default shop and entries) share one key, as their requests are one shop's.
 */
function shopNames(labels: readonly string[]): string {
  const names = [...new Set(labels)].map(shopName);
  if (names.length <= 1) return names[0] ?? shopName(undefined);
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}, one key`;
}
