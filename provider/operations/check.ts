/**
 * `check`: a resource's inputs before any write. The URL and hook rules, the shop's credentials, one
 * declaration per hook per shop (the same API and key count as the same shop whatever it is called), for a
 * pinned shop that its key reaches the pinned shop, and for a new resource that its create would not
 * overwrite a subscription made outside the stack (one listing per shop per deployment, or a preview's own:
 * previewListing.ts).
 */
import { isShopsSetting, type ShopTarget } from "../config/settings";
import { ShippingConfigError } from "../errors/configError";
import { ShippingError } from "../errors/shippingError";
import type { Claims } from "../facts/claims";
import type { Declarations } from "../facts/declarations";
import type { ShopViews } from "../facts/shopViews";
import type { StackRecords } from "../facts/stackRecords";
import { type CheckFailure, checkInputs, UNKNOWN_VALUE } from "../inputs/lifecycle";
import { PREVIEW_LISTING_INPUT, takeHandedListing } from "../inputs/previewListing";
import { declaredTwice, secondDeclarationRefusal } from "../rules/oneHookPerShop";
import { shopIdentityOf } from "../rules/recorded";
import { createRefusalBeforeWrite, pinnedListing } from "../writes/createPlans";
import { waitFor } from "./trace";

/** What a check reads and records: the deployment's facts, and how a shop name resolves. */
export interface CheckContext {
  readonly views: ShopViews;
  readonly claims: Claims;
  readonly records: StackRecords;
  readonly declarations: Declarations;
  /** The shop's target; throws when its settings are missing or wrong. */
  readonly targetOf: (shop: unknown) => ShopTarget;
}

/**
 * The checked inputs and every failure, each on the property it is about. `urn`: the resource checked, when
 * the host says (the plugin host does; a program of the dynamic host refuses a second declaration itself).
 * `secret`: the inputs the host knows to be secrets (the plugin's; a program of the dynamic host hands its own
 * refusal of a secret URL instead).
 */
export async function checkResource(
  ctx: CheckContext,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  urn?: string,
  secret?: ReadonlySet<string>,
): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const result = checkInputs(news, secret);
  const { shop, hook, url } = result.inputs;
  const failed = (property: string) => result.failures.some((f) => f.property === property);
  if (failed("shop") || shop === UNKNOWN_VALUE) return result;
  const target = checkedTarget(ctx, shop, result.failures);
  if (target === undefined || typeof hook !== "string" || hook === UNKNOWN_VALUE || failed("hook"))
    return result;
  takeHandedListing(ctx.views, target, news[PREVIEW_LISTING_INPUT]);
  if (target.pin !== undefined) {
    // A pinned shop is checked before any step writes: also an added resource, a rename without an alias
    // or `up --replace`, which the engine ties to no recorded resource.
    const listed = waitFor("listing", () => pinnedListing(ctx.views, target));
    const refusal = await listed.then(() => undefined, configErrorOnly);
    if (refusal !== undefined)
      return { ...result, failures: [...result.failures, { property: "shop", reason: refusal.message }] };
  }
  // Two resources of one shop name: the program refuses that itself, unless one keeps its recorded hook through
  // `ignoreChanges: ["hook"]`, which the engine applies before this check (the program sees the declared one).
  const second = ctx.declarations.declare(target, hook, typeof url === "string" ? url : undefined, urn);
  noteOldInputs(ctx, olds);
  ctx.declarations.awaitCreate(target, hook);
  if (second !== undefined) {
    result.failures.push({ property: "hook", reason: secondDeclarationRefusal(second, hook, target, urn) });
    return result;
  }
  // A resource with state is not created but replaced, if anything: its diff decides (createRefusalBeforeWrite).
  if (result.failures.length > 0 || olds.hook !== undefined) return result;
  const knownUrl = typeof url === "string" && url !== UNKNOWN_VALUE ? url : undefined;
  const sameShop = await declaredUnderAnotherKey(ctx, target, hook, knownUrl);
  if (sameShop !== undefined) {
    result.failures.push({ property: "hook", reason: sameShop });
    return result;
  }
  const takeover = await createRefusalBeforeWrite(ctx, result.inputs, target);
  if (takeover !== undefined) result.failures.push({ property: "hook", reason: takeover });
  return result;
}

/**
 * When the deployment's provider processes share declarations (either host, when the deployment is known):
 * the refusal of a new resource's hook that other credentials of the deployment declare for the shop the
 * service names in the shop's listing, two keys of one shop in one provider process or two; and the hook's
 * URL (when known) recorded under that shop. Else undefined (a create of the second refuses it).
 */
async function declaredUnderAnotherKey(
  ctx: CheckContext,
  target: ShopTarget,
  hook: string,
  url: string | undefined,
): Promise<string | undefined> {
  if (!ctx.declarations.isShared()) return undefined;
  const listing = await waitFor("listing", () => ctx.views.listing(target)).catch((error: unknown) => {
    if (error instanceof ShippingError) return undefined;
    throw error;
  });
  const identity = listing === undefined ? undefined : shopIdentityOf(listing);
  if (identity === undefined || !ctx.declarations.declareInSharedShop(target, identity, hook, url))
    return undefined;
  return declaredTwice(target, identity.shopId, hook).message;
}

/**
 * The shop's target for check. A shop name that `shipping:shops` (or SHIPPING_SHOPS) lacks, or whose entry
 * is malformed, is a failure on `shop`, the property it is about; any other setting is the resource's error.
 */
function checkedTarget(ctx: CheckContext, shop: unknown, failures: CheckFailure[]): ShopTarget | undefined {
  try {
    return ctx.targetOf(shop);
  } catch (error) {
    if (!(error instanceof ShippingError)) throw error;
    if (error instanceof ShippingConfigError && !isShopsSetting(error.setting)) throw error;
    failures.push({ property: "shop", reason: error.message });
    return undefined;
  }
}

/**
 * A resource with state records its old hook and URL as the stack's: a create that overwrites them (its own
 * replacement, also by `up --replace`, which runs no diff) needs no `takeOver`.
 */
function noteOldInputs(ctx: CheckContext, olds: Record<string, unknown>): void {
  if (typeof olds.hook !== "string" || typeof olds.url !== "string") return;
  ctx.records.noteWhereResolved(() => ctx.targetOf(olds.shop), { hook: olds.hook, url: olds.url });
}

/** A configuration refusal as a value (undefined for none); any other error is thrown. */
function configErrorOnly(error: unknown): ShippingConfigError {
  if (error instanceof ShippingConfigError) return error;
  throw error;
}
