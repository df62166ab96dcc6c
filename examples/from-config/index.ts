import * as pulumi from "@pulumi/pulumi";
import { callbackUrlProblem, HOOKS, isHook, WebhookSubscription } from "pulumi-shipping-webhooks";

/**
 * Reads `<project>:hooks` (hook -> URL) and reports every bad entry with its stack-config path, so a reviewer
 * editing `Pulumi.<stack>.yaml` sees exactly which line to fix.
 */
export function hooksFromConfig(config: pulumi.Config, key: string): Array<{ hook: string; url: string }> {
  const raw = config.requireObject<unknown>("hooks");
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error(
      `${key} must map hooks to URLs, for example {"order_status_change": "https://hooks.example.com/orders"}`,
    );
  }
  const problems: string[] = [];
  const hooks: Array<{ hook: string; url: string }> = [];
  for (const [hook, url] of Object.entries(raw)) {
    const problem = !isHook(hook)
      ? `not a hook; use one of ${HOOKS.join(", ")}`
      : typeof url !== "string"
        ? "must be a URL string"
        : callbackUrlProblem(url);
    if (problem !== undefined) problems.push(`${key}.${hook}: ${problem}`);
    else hooks.push({ hook, url: url as string });
  }
  if (problems.length > 0) throw new Error(`Invalid stack config:\n  ${problems.join("\n  ")}`);
  return hooks;
}

/** A shop's webhooks declared in stack config: reviewers change YAML only. */
export default async function program() {
  const config = new pulumi.Config();
  const shop = config.get("shop");
  const subscriptions: Record<string, pulumi.Output<number>> = {};
  for (const { hook, url } of hooksFromConfig(config, `${pulumi.getProject()}:hooks`)) {
    const resource = new WebhookSubscription(hook, {
      hook: hook as (typeof HOOKS)[number],
      url,
      ...(shop ? { shop } : {}),
    });
    subscriptions[hook] = resource.subscriptionId;
  }
  return { subscriptions };
}
