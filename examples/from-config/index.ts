import * as pulumi from "@pulumi/pulumi";
import { hooksFromConfig, WebhookSubscription } from "pulumi-shipping-webhooks";

// A shop's webhooks declared in stack config (`<project>:hooks`, hook -> URL; optional `<project>:shop`, and
// `<project>:takeOver`, the hooks that may overwrite a subscription made outside the stack): reviewers change
// YAML only, and a bad entry fails preview naming its config path.
const config = new pulumi.Config();
const shop = config.get("shop");

export const subscriptions: Record<string, pulumi.Output<number>> = {};
for (const { hook, url, takeOver } of hooksFromConfig(config)) {
  const subscription = new WebhookSubscription(hook, { hook, url, takeOver, ...(shop ? { shop } : {}) });
  subscriptions[hook] = subscription.subscriptionId;
}
