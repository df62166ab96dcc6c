import { HOOKS, WebhookSubscription } from "pulumi-shipping-webhooks";

/**
 * The shops of this stack. Each name must be a key of the secret config object `shipping:shops`, which holds
 * its API key (and optionally its base URL):
 *
 *     pulumi config set --secret --path 'shipping:shops.acme.apiKey' <acme key>
 *     pulumi config set --secret --path 'shipping:shops.globex.apiKey' <globex key>
 */
export const SHOPS = ["acme", "globex"] as const;

/** Every hook of several shops in one stack; no credential is ever a resource input. */
export default async function program() {
  const ids: Record<string, unknown> = {};
  for (const shop of SHOPS) {
    for (const hook of HOOKS) {
      const subscription = new WebhookSubscription(`${shop}-${hook}`, {
        shop,
        hook,
        url: `https://hooks.example.com/${shop}/${hook.replaceAll("_", "-")}`,
      });
      ids[`${shop}/${hook}`] = subscription.subscriptionId;
    }
  }
  return { ids };
}
