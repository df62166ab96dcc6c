import * as pulumi from "@pulumi/pulumi";
import { hooksFromConfig, WebhookSubscription } from "pulumi-shipping-webhooks";

/**
 * A shop's webhooks declared in stack config (`<project>:hooks`, hook -> URL; optional `<project>:shop`):
 * reviewers change YAML only, and a bad entry fails preview naming its config path.
 */
export default async function program() {
  const config = new pulumi.Config();
  const shop = config.get("shop");
  const subscriptions: Record<string, pulumi.Output<number>> = {};
  for (const { hook, url } of hooksFromConfig(config)) {
    const resource = new WebhookSubscription(hook, { hook, url, ...(shop ? { shop } : {}) });
    subscriptions[hook] = resource.subscriptionId;
  }
  return { subscriptions };
}
