/**
 * The plan of each create: the pure rule (createRule.ts) asked with what this deployment knows of the shop
 * (its listing, the declarations, the subscriptions the stack records), at check and under the write lane.
 */
import type { LiveSubscription } from "../client/apiSchemas";
import type { NewSubscription } from "../client/shippingClient";
import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import type { Claims } from "../facts/claims";
import type { Declarations } from "../facts/declarations";
import type { ShopViews } from "../facts/shopViews";
import type { StackRecords } from "../facts/stackRecords";
import { UNKNOWN_VALUE } from "../inputs/lifecycle";
import { waitFor } from "../operations/trace";
import { takeoverRefused } from "../refusals/takeoverMessages";
import { type CreatePlan, planCreate } from "../rules/createRule";
import { declaredTwice, HookDeclarers, keptByAnother } from "../rules/oneHookPerShop";
import { pinRefusal } from "../rules/ownershipFacts";
import type { ShopIdentity } from "../rules/recorded";

/** The shop's listing, refused when it shows that a pinned shop's key reaches another shop. */
export async function pinnedListing(views: ShopViews, target: ShopTarget): Promise<LiveSubscription[]> {
  const listing = await views.listing(target);
  const refusal = pinRefusal({ ...views.facts(target, 0, listing), listing });
  if (refusal !== undefined) throw refusal;
  return listing;
}

/** A create as the provider hands it to its batch: the subscription, and whether it may take one over. */
export interface CreateRequest extends NewSubscription {
  /** `takeOver: true` on the resource: it may overwrite a live subscription made outside the stack. */
  readonly takeOver?: boolean;
}

/** The plan of each request, in order, from the shop's listing. */
export function planBatch(
  facts: { readonly claims: Claims; readonly records: StackRecords; readonly declarations: Declarations },
  target: ShopTarget,
  identity: ShopIdentity | undefined,
  listing: readonly LiveSubscription[],
  requests: readonly CreateRequest[],
): CreatePlan[] {
  const { claims, records, declarations } = facts;
  const inBatch = new HookDeclarers();
  return requests.map(({ hook, url, takeOver }, index) => {
    const duplicate = inBatch.otherThan(target.shopKey, hook, String(index)) !== undefined;
    const live = listing.find((s) => s.hook === hook);
    return planCreate({
      url,
      ...(live !== undefined ? { live } : {}),
      duplicate,
      createdByOtherKey:
        !duplicate && identity !== undefined && declarations.createIn(target, identity, hook),
      liveKept: live !== undefined && claims.isKept(target.api, live.id),
      liveRecorded: live !== undefined && records.holds(target, live),
      takeOver: takeOver === true,
    });
  });
}

/**
 * The error of a plan the create rule refused, undefined for a plan that writes or adopts: a second declaration
 * of the hook (the shop the service names, when it does), the live subscription another resource keeps, or a
 * takeover the resource did not opt in to.
 */
export function refusalOf(
  plan: CreatePlan,
  target: ShopTarget,
  hook: string,
  identity: ShopIdentity | undefined,
): ShippingError | undefined {
  if (plan.kind === "refuseTakeover") return takeoverRefused(target, plan.live);
  if (plan.kind !== "refuse") return undefined;
  return plan.kept !== undefined
    ? keptByAnother(target, plan.kept)
    : declaredTwice(target, identity?.shopId, hook);
}

/**
 * Before any write (a preview shows it on the resource): why the create rule would refuse this resource's
 * create on the shop's listing, as the create asks it (planCreate): the live subscription of its hook is one
 * that a resource the program declares keeps as it is recorded, in any provider process of the deployment (the
 * same shop under another key), or one made outside the stack that the resource does not opt in to overwrite.
 * Undefined when neither, or when it cannot be told yet (an unknown URL, a shop that cannot be listed: the create
 * decides under the shop's write lane). At check for a new resource; at diff for a replacement, whose recorded
 * subscription is its own.
 */
export async function createRefusalBeforeWrite(
  facts: { readonly views: ShopViews; readonly records: StackRecords; readonly claims: Claims },
  inputs: Record<string, unknown>,
  target: ShopTarget,
): Promise<string | undefined> {
  const { hook, url, takeOver } = inputs;
  if (typeof hook !== "string" || typeof url !== "string" || url === UNKNOWN_VALUE) return undefined;
  const listing = await waitFor("listing", () => facts.views.listing(target)).catch((error: unknown) => {
    if (error instanceof ShippingError) return undefined;
    throw error;
  });
  const live = listing?.find((s) => s.hook === hook);
  if (live === undefined) return undefined;
  const plan = planCreate({
    url,
    live,
    duplicate: false,
    createdByOtherKey: false,
    liveKept: facts.claims.isKept(target.api, live.id),
    liveRecorded: facts.records.holds(target, live),
    // A takeOver not known yet (preview) may be true: the create decides.
    takeOver: takeOver === true || takeOver === UNKNOWN_VALUE,
  });
  return refusalOf(plan, target, hook, undefined)?.message;
}
