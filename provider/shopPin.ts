/**
 * A pinned shop: `shipping:shopId` (or `shopId` of a `shipping:shops` entry) names the shop, as the service
 * reports it, that the configured key must reach. A key swapped to another shop's is then refused before any
 * write, by every step: also an added resource, a rename without an alias or `pulumi up --replace`, for which
 * the engine asks the provider nothing about a recorded resource first (see README, "Pin the shop").
 */
import type { LiveSubscription } from "./client/apiSchemas";
import { ShippingConfigError } from "./errors/configError";
import type { ShopTarget } from "./settings";
import { type ShopIdentity, shopIdentityOf, wayOut } from "./targetChange";

/** The setting that holds a shop's key, for messages. */
function keySetting(target: ShopTarget): string {
  return target.label === "(default)" ? "shipping:apiKey" : `shipping:shops.${target.label}.apiKey`;
}

/**
 * Throws when a listing of a pinned shop shows that its key reaches another shop, or cannot show which shop
 * (the service sends no `shop_id`). A shop that lists nothing cannot say: see {@link checkWrittenPin}.
 */
export function checkListedPin(target: ShopTarget, listing: readonly LiveSubscription[]): void {
  if (target.pin === undefined || listing.length === 0) return;
  checkPin(target, shopIdentityOf(listing), "Nothing was written");
}

/**
 * Throws when a pinned shop that listed nothing turns out, on reading back what this deployment wrote, to be
 * another shop (or one the service does not name). The caller deletes what it wrote first: the shop was empty,
 * so the write overwrote nothing, and undoing it leaves the shop as it was.
 */
export function checkWrittenPin(target: ShopTarget, identity: ShopIdentity | undefined): void {
  if (target.pin === undefined) return;
  checkPin(
    target,
    identity,
    "The shop listed no subscription, so this was learned by reading back what this step wrote, which was deleted again",
  );
}

function checkPin(target: ShopTarget, identity: ShopIdentity | undefined, done: string): void {
  const pin = target.pin;
  if (pin === undefined || identity?.shopId === pin.shopId) return;
  const key = keySetting(target);
  if (identity === undefined) {
    throw new ShippingConfigError(
      pin.setting,
      `pins shop ${pin.shopId}, but the service at ${target.api} sends no shop_id on the subscriptions of shop ${target.label}, so which shop ${key} reaches cannot be checked. ${done}. Remove ${pin.setting}: a pin that cannot be checked guards nothing`,
    );
  }
  throw new ShippingConfigError(
    pin.setting,
    `pins shop ${pin.shopId}, but the service at ${target.api} reports shop ${identity.shopId} for the key in ${key}. ${done}. ${wayOut(key, `a key of shop ${pin.shopId}`)}, with ${pin.setting} set to the new shop`,
  );
}
