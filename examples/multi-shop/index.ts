import { HOOKS, WebhookSubscription } from "pulumi-shipping-webhooks";

// Every hook of several shops in one stack. Each shop name is a key of the secret config object
// `shipping:shops`, which holds its API key (and optionally its base URL); no key is ever a resource input:
//
//     pulumi config set --secret --path 'shipping:shops.acme.apiKey' <acme key>
//     pulumi config set --secret --path 'shipping:shops.globex.apiKey' <globex key>
const shops = ["acme", "globex"];

export const ids: Record<string, unknown> = {};
for (const shop of shops) {
  for (const hook of HOOKS) {
    const subscription = new WebhookSubscription(`${shop}-${hook}`, {
      shop,
      hook,
      url: `https://hooks.example.com/${shop}/${hook.replace(/_/g, "-")}`,
    });
    ids[`${shop}/${hook}`] = subscription.subscriptionId;
  }
}
