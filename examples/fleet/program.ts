import type * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { WebhookSubscription } from "pulumi-shipping-webhooks";
import type { FleetGroup } from "./fleet";

/**
 * The inline Pulumi program of one group: a `WebhookSubscription` per shop and hook, named `<shop>-<hook>`.
 * Keys are not inputs: the provider reads them from `SHIPPING_SHOPS` when it calls the API. Outputs the
 * subscription ids by shop and hook.
 */
export function groupProgram(group: FleetGroup): PulumiFn {
  return async () => {
    const subscriptionIds: Record<string, Record<string, pulumi.Output<number>>> = {};
    for (const shop of group.shops) {
      const ids: Record<string, pulumi.Output<number>> = {};
      for (const { hook, url } of shop.hooks) {
        ids[hook] = new WebhookSubscription(`${shop.name}-${hook}`, {
          shop: shop.name,
          hook,
          url,
        }).subscriptionId;
      }
      subscriptionIds[shop.name] = ids;
    }
    return { subscriptionIds };
  };
}
