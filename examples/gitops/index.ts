import * as pulumi from "@pulumi/pulumi";
import { callbackUrlProblem, HOOKS, type Hook, isHook, WebhookSubscription } from "pulumi-shipping-webhooks";

/** One hook and the URL it calls, as declared in `<project>:hooks`. */
export interface DeclaredHook {
  readonly hook: Hook;
  readonly url: string;
}

/**
 * Reads `<project>:hooks` (hook -> URL) from the stack's config file. Every bad entry is reported with its
 * config path, so the pull-request check names the line a reviewer has to fix.
 */
export function declaredHooks(config: pulumi.Config): DeclaredHook[] {
  const key = `${config.name}:hooks`;
  const raw = config.requireObject<Record<string, unknown>>("hooks");
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error(
      `${key} must map hooks to URLs, for example order_status_change: https://hooks.example.com/o`,
    );
  }
  const problems: string[] = [];
  const hooks: DeclaredHook[] = [];
  for (const [hook, url] of Object.entries(raw)) {
    const problem = !isHook(hook)
      ? `not a hook; use one of ${HOOKS.join(", ")}`
      : typeof url !== "string"
        ? "must be a URL string"
        : callbackUrlProblem(url);
    if (problem !== undefined) problems.push(`${key}.${hook}: ${problem}`);
    else hooks.push({ hook: hook as Hook, url: url as string });
  }
  if (problems.length > 0) throw new Error(`Invalid stack config:\n  ${problems.join("\n  ")}`);
  return hooks;
}

/**
 * The GitOps program: the shop's webhooks live in `Pulumi.<stack>.yaml`; a pull request that edits them gets
 * the `pulumi preview --diff` as a comment, and the merge to main runs `pulumi up`.
 */
export default async function program() {
  const config = new pulumi.Config();
  const shop = config.get("shop");
  const subscriptionIds: Record<string, pulumi.Output<number>> = {};
  for (const { hook, url } of declaredHooks(config)) {
    const subscription = new WebhookSubscription(hook, {
      hook,
      url,
      ...(shop !== undefined ? { shop } : {}),
    });
    subscriptionIds[hook] = subscription.subscriptionId;
  }
  return { subscriptionIds };
}
