import * as pulumi from "@pulumi/pulumi";
import { hooksFromConfig, WebhookSubscription } from "pulumi-shipping-webhooks";

// The GitOps program: the shop's webhooks live in `Pulumi.<stack>.yaml`; a pull request that edits them gets
// the `pulumi preview --diff` as a comment, and the merge to main runs `pulumi up`.
const config = new pulumi.Config();
const shop = config.get("shop");

export const subscriptionIds: Record<string, pulumi.Output<number>> = {};
for (const { hook, url, takeOver } of hooksFromConfig(config)) {
  const subscription = new WebhookSubscription(hook, {
    hook,
    url,
    takeOver,
    ...(shop !== undefined ? { shop } : {}),
  });
  subscriptionIds[hook] = subscription.subscriptionId;
}
