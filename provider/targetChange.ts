import type { LiveSubscription } from "./client/apiSchemas";
import { ShippingConfigError } from "./errors/configError";
import type { ShopTarget } from "./settings";

/** A shop as the service reports it on its subscriptions. */
export interface ShopIdentity {
  readonly shopId: string;
  readonly accountId?: string;
}

/** The shop the service reports on any of a shop's subscriptions; undefined when none says. */
export function shopIdentityOf(subscriptions: readonly LiveSubscription[]): ShopIdentity | undefined {
  const reported = subscriptions.find((s) => s.shopId !== undefined);
  if (reported?.shopId === undefined) return undefined;
  return {
    shopId: reported.shopId,
    ...(reported.accountId !== undefined ? { accountId: reported.accountId } : {}),
  };
}

/** Where state says a subscription lives. */
export interface RecordedPlace {
  readonly id: number;
  readonly hook: string;
  readonly shop: string | undefined;
  readonly api: string | undefined;
  readonly shopId: string | undefined;
  readonly accountId: string | undefined;
}

/** How to forget a subscription instead of deleting it. */
const LEAVE = "or `pulumi state delete <urn>` to leave the subscription where it is and forget it";
/** Refresh and destroy run with the provider configuration of the last `up`, also one that failed. */
export const LAST_UP = "(refresh and destroy use the configuration of the last `up`, even one that failed)";

/** The way back to the recorded target, and the way to move the stack off it. */
export function wayOut(setting: string, old: string): string {
  return `To keep managing it, set ${setting} back to ${old} and run \`pulumi up\` ${LAST_UP}. To move this stack elsewhere, set ${setting} back to ${old}, run \`pulumi up\`, then \`pulumi destroy\` (${LEAVE}); then change ${setting} and run \`pulumi up\``;
}

function settingOf(shop: string | undefined, part: "baseUrl" | "apiKey"): string {
  return shop === undefined ? `shipping:${part}` : `shipping:shops.${shop}.${part}`;
}

/**
 * The configuration now reaches another API, or a key that the service says belongs to another shop, than
 * the one that issued a recorded subscription. Says what changed, that nothing was written, and what to do.
 */
export function targetChanged(
  recorded: RecordedPlace,
  now: ShopTarget,
  otherShop: ShopIdentity | undefined,
): ShippingConfigError {
  const what = `subscription ${recorded.id} (${recorded.hook})`;
  if (now.api !== recorded.api) {
    const setting = settingOf(recorded.shop, "baseUrl");
    return new ShippingConfigError(
      setting,
      `${what} was created at ${recorded.api}, but shop ${now.label} now reaches ${now.api}. Nothing was changed for this resource: the id means something only at ${recorded.api}. ${wayOut(setting, recorded.api ?? "the old base URL")}`,
    );
  }
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `${what} was created in shop ${recorded.shopId} at ${recorded.api}, but the service reports shop ${otherShop?.shopId ?? "(another)"} for the key of shop ${now.label}. Nothing was changed for this resource. ${wayOut(setting, `a key of shop ${recorded.shopId}`)}`,
  );
}

/**
 * The configured shop lists no subscription at all, so the service cannot say which shop its key reaches:
 * the recorded subscription was deleted in the back office, or the key now belongs to another, empty shop.
 * Says that nothing was changed and how to go on in each case.
 */
export function shopCannotSay(recorded: RecordedPlace, now: ShopTarget): ShippingConfigError {
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `subscription ${recorded.id} (${recorded.hook}) was created in shop ${recorded.shopId} at ${recorded.api}, but shop ${now.label} now lists no subscription at all, so the service cannot say which shop its key reaches. Nothing was changed for this resource. If the subscriptions were deleted in the back office, run \`pulumi up --refresh\`: refresh drops the resource and up subscribes the hook again. If ${setting} now holds another shop's key: ${wayOut(setting, `a key of shop ${recorded.shopId}`)}`,
  );
}

/**
 * The service refused a DELETE of a recorded subscription that the configured shop does not list, because
 * it belongs to another shop: the shop's key now reaches another shop than the one that created it.
 */
export function ownedByAnotherShop(recorded: RecordedPlace, now: ShopTarget): ShippingConfigError {
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `subscription ${recorded.id} (${recorded.hook}) is not in shop ${now.label}'s listing, and the service answers that it belongs to another shop (403 deleteResourceOwnedByOthers to a DELETE that, for that reason, deleted nothing): the key of shop ${now.label} now reaches another shop than the one that created it. Nothing was changed for this resource. ${wayOut(setting, "the key it was created with")}`,
  );
}

/**
 * The shop entry a recorded subscription was created with is no longer configured, and no configured shop
 * is known to be the same shop. Says to put the entry back until its resources are gone.
 */
export function entryGone(recorded: RecordedPlace, missing: unknown): ShippingConfigError {
  const why = missing instanceof Error ? missing.message : String(missing);
  return new ShippingConfigError(
    "shipping:shops",
    `subscription ${recorded.id} (${recorded.hook}) was created with shop entry "${recorded.shop}" at ${recorded.api}, and that entry is gone (${why}). Nothing was changed for this resource. Put the entry back with the same key and run \`pulumi up\` (it deletes the subscriptions of resources the program no longer declares), then remove the entry in a later change; ${LEAVE}`,
  );
}

/**
 * A recorded subscription the configured shop does not list, in a shop that cannot say which shop its key
 * reaches, and the service refused the DELETE that asks whether it is gone for another reason than
 * ownership (a read-only key): the step cannot tell "gone" from "in another shop", so it refuses.
 */
export function cannotConfirmGone(recorded: RecordedPlace, now: ShopTarget): ShippingConfigError {
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `subscription ${recorded.id} (${recorded.hook}) is not in shop ${now.label}'s listing, which cannot say which shop its key reaches, and the service refused the DELETE that asks whether it is gone (403, not about ownership: this key may not DELETE). Nothing was changed for this resource: it may be gone, or the key may now reach another shop, where acting would orphan it. Use a read-write key of the shop that created it in ${setting}, run \`pulumi up\` ${LAST_UP}, then run this again; ${LEAVE}`,
  );
}
