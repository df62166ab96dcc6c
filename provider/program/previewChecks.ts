/**
 * What `pulumi preview` tells beyond the engine's plan, from the program's process: a dynamic provider cannot
 * attach a message to a resource, a program can. In previews only (the update after a preview asks nothing),
 * with one `GET /webhook_subscriptions/` per shop and deployment, which the provider is handed for its own checks:
 * - the shop's key and base URL are tried: a refused key or an unreachable API fails the resource at its
 *   check (the provider's, with the program's message), before the engine plans anything, saying how to fix it;
 * - a create that adopts the live subscription of its hook as it is says so (hook, shop, subscription id; never
 *   a URL: any part of one may be secret); one that would overwrite a subscription made outside the stack is
 *   refused by the provider's check, on the resource;
 * - an unchanged resource whose subscription drifted (gone, or another URL) warns on the resource;
 * - a shop that the service names (`shop_id`) and that is not pinned is told, once, how to pin it.
 * The provider's own checks still guard every write: these only tell earlier, and on the right resource.
 */
import * as pulumi from "@pulumi/pulumi";
import type { LiveSubscription } from "../client/apiSchemas";
import { Clients } from "../config/clients";
import { configuredTargets, resolveShop, type ShopTarget } from "../config/settings";
import { ShippingConfigError } from "../errors/configError";
import { ShippingError } from "../errors/shippingError";
import { ShopViews } from "../facts/shopViews";
import { isHook } from "../inputs/hooks";
import { type HandedListing, listingToHand } from "../inputs/previewListing";
import { callbackUrlProblem } from "../inputs/schemas";
import { pinHint } from "../refusals/pin";
import { shopUnusable } from "../refusals/previewMessages";
import { adopts } from "../refusals/takeoverMessages";
import { decideRecorded } from "../rules/ownership";
import { isHookAtUrl, shopIdentityOf } from "../rules/recorded";

/** What one deployment's previews have looked at (the program runs once per deployment). */
class PreviewFacts {
  readonly clients = new Clients(() =>
    configuredTargets((key) => pulumi.runtime.getConfig(key), process.env),
  );
  readonly views = new ShopViews((target) => this.clients.for(target).list());
  /** Shops (by `shopKey`) already told how to pin them. */
  readonly hinted = new Set<string>();
  /** Shops (by `shopKey`) that could not be listed (a refused key, an API down), with why: not asked again. */
  readonly unusable = new Map<string, ShippingError>();
}

const factsByDeployment = new WeakMap<object, PreviewFacts>();

/** A declaration whose inputs are plain and valid: what a preview can check. */
interface Checked {
  readonly name: string;
  readonly hook: string;
  readonly url: string;
  readonly target: ShopTarget;
  readonly facts: PreviewFacts;
}

/** The declaration to check, or undefined when this is no preview or it is not checkable (check reports it). */
function checkable(name: string, hook: unknown, url: unknown, shop: unknown): Checked | undefined {
  const stack = pulumi.runtime.getStackResource();
  if (stack === undefined || !pulumi.runtime.isDryRun()) return undefined;
  if (!isHook(hook) || typeof url !== "string" || callbackUrlProblem(url) !== undefined) return undefined;
  if (shop !== undefined && typeof shop !== "string") return undefined;
  let target: ShopTarget;
  try {
    target = resolveShop(shop, (key) => pulumi.runtime.getConfig(key), process.env);
  } catch {
    return undefined; // a configuration error: the provider's check names it on the resource
  }
  let facts = factsByDeployment.get(stack);
  if (facts === undefined) {
    facts = new PreviewFacts();
    factsByDeployment.set(stack, facts);
  }
  return { name, hook, url, target, facts };
}

/**
 * In a preview, what the provider is handed for this resource's shop (previewListing.ts): the shop's listing,
 * with each URL as its digest (the engine's verbose logs print every input), so that its `check` need not list
 * the shop again; or, when the shop cannot be listed (a refused key, an API down), the message that fails the
 * resource's check, on the resource, with the fix. Given to every resource of the shop: the engine checks only
 * those a `--target` or `--exclude` leaves in, and stops at the first failure. Undefined when this is no preview.
 */
export function listingForProvider(
  name: string,
  args: { hook: pulumi.Input<string>; url: pulumi.Input<string>; shop?: pulumi.Input<string> },
): pulumi.Input<HandedListing | undefined> | undefined {
  if (!pulumi.runtime.isDryRun()) return undefined;
  const handed = pulumi.all([args.hook, args.url, args.shop]).apply(async ([hook, url, shop]) => {
    const checked = checkable(name, hook, url, shop);
    return checked === undefined ? undefined : handedOver(checked);
  });
  return pulumi.secret(handed);
}

/** The shop's listing (URLs as digests), or why it cannot be listed, worded for this resource. */
async function handedOver(checked: Checked): Promise<HandedListing | undefined> {
  const { facts, target, name } = checked;
  const { shopKey } = target;
  const live = await listing(checked);
  if (live !== undefined) return listingToHand(shopKey, live);
  const why = facts.unusable.get(shopKey);
  if (why === undefined) return undefined;
  const unusable =
    why instanceof ShippingConfigError
      ? `WebhookSubscription "${name}": ${why.message}`
      : shopUnusable(name, target, why);
  return { shopKey, unusable };
}

/**
 * The shop's listing, listed once per deployment; undefined when it cannot be listed, and then not asked again
 * (`facts.unusable` keeps why). An error that is not the service's or the settings' is a defect: thrown.
 */
async function listing(checked: Checked): Promise<LiveSubscription[] | undefined> {
  const { facts, target } = checked;
  if (facts.unusable.has(target.shopKey)) return undefined;
  try {
    return await facts.views.listing(target);
  } catch (error) {
    if (!(error instanceof ShippingError)) throw error;
    facts.unusable.set(target.shopKey, error);
    return undefined;
  }
}

/**
 * After `resource` is registered in a preview: tells on it of an adoption (a create) or a drift (an unchanged
 * resource), and tells once per shop how to pin it. Never throws (the provider's checks guard the writes).
 */
export function tellInPreview(
  resource: pulumi.CustomResource & PreviewedOutputs,
  name: string,
  args: PreviewedArgs,
): void {
  if (!pulumi.runtime.isDryRun()) return;
  const known = (resource.id as unknown as { isKnown?: Promise<boolean> }).isKnown;
  pulumi.all([args.hook, args.url, args.shop]).apply(async ([hook, url, shop]) => {
    const checked = checkable(name, hook, url, shop);
    if (checked === undefined) return;
    const live = await listing(checked).catch(() => undefined);
    if (live === undefined) return;
    hintPin(resource, checked, live);
    if ((await known) === false) return tellTakeover(resource, checked, live);
    // What state records, not what the program declares: under --target an untargeted resource keeps its old
    // outputs while its declaration may already say another hook or URL (review).
    pulumi
      .all([resource.subscriptionId, resource.api, resource.shopId, resource.hook, resource.url])
      .apply(([id, api, shopId, hook, url]) =>
        tellDrift(resource, checked, live, { id, api, shopId, hook, url }),
      );
  });
}

/** The outputs a preview reads of a registered resource. */
interface PreviewedOutputs {
  readonly hook: pulumi.Output<string>;
  readonly url: pulumi.Output<string>;
  readonly subscriptionId: pulumi.Output<number>;
  readonly api: pulumi.Output<string>;
  readonly shopId: pulumi.Output<string | undefined>;
}

/** What state says of an unchanged resource's subscription. */
interface RecordedOutputs {
  readonly id: number;
  readonly api: string | undefined;
  readonly shopId: string | undefined;
  readonly hook: string | undefined;
  readonly url: string | undefined;
}

/** The inputs a preview reads. */
interface PreviewedArgs {
  readonly hook: pulumi.Input<string>;
  readonly url: pulumi.Input<string>;
  readonly shop?: pulumi.Input<string>;
}

function tellTakeover(resource: pulumi.Resource, checked: Checked, live: readonly LiveSubscription[]): void {
  const current = live.find((s) => s.hook === checked.hook);
  if (current === undefined) return;
  // One that calls another URL is the provider's to refuse (its check: createRule.ts `takeoverOf`), or to
  // overwrite as the resource's own or with its opt-in: no warning, which every URL change would raise.
  if (isHookAtUrl(current, checked)) void pulumi.log.info(adopts(checked.target, current), resource);
}

function tellDrift(
  resource: pulumi.Resource,
  checked: Checked,
  live: readonly LiveSubscription[],
  outputs: RecordedOutputs,
): void {
  const { target, facts } = checked;
  const { id, api, shopId } = outputs;
  const hook = outputs.hook ?? checked.hook;
  const url = outputs.url ?? checked.url;
  // Not where the service names no shop: shown there, the warning hung an inline program's preview
  // (test/ownership/targeted.e2e.test.ts); the decision reports that drift (diffRule.ts), the preview does not yet.
  if (typeof id !== "number" || api !== target.api || shopId === undefined) return;
  const recorded = { id, hook, url, shop: undefined, api, shopId, accountId: undefined };
  const verdict = decideRecorded({
    operation: "diff",
    recorded,
    named: facts.views.facts(target, id, live),
    others: [],
    claimedAt: [],
  });
  if (verdict.kind === "ours" && verdict.warning !== undefined)
    void pulumi.log.warn(verdict.warning, resource);
}

function hintPin(resource: pulumi.Resource, checked: Checked, live: readonly LiveSubscription[]): void {
  const { target, facts } = checked;
  const identity = shopIdentityOf(live);
  if (target.pin !== undefined || identity === undefined || facts.hinted.has(target.shopKey)) return;
  facts.hinted.add(target.shopKey);
  void pulumi.log.info(pinHint(target, identity.shopId), resource);
}
