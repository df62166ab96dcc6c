/**
 * The pin of a shop (`shipping:shopId`, or an entry's `shopId`) against the shop the service reports for its
 * key: the refusal, and what was written and undone when a shop that listed nothing was found to be another by
 * reading back a write; a preview's hint to pin a shop that is not pinned.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingConfigError } from "../errors/configError";
import type { ShopIdentity } from "../rules/recorded";
import { keySetting, reasonOf, shopName, upper } from "./wording";

/** What a pinned shop's check did before it refused: the step's state of writing. */
export const NOTHING_WRITTEN = "Nothing was written";
/** A pinned shop that listed nothing was found to be another by reading back this step's write, then undone. */
export const WRITTEN_AND_UNDONE =
  "The shop listed no subscription, so this was learned by reading back what this step wrote, which was deleted again";

/** The pinned shop is not the one the service reports for the key (or the service reports none). */
export function pinMismatch(
  target: ShopTarget,
  identity: ShopIdentity | undefined,
  done: string,
): ShippingConfigError {
  const pin = target.pin;
  const setting = pin?.setting ?? "shipping:shopId";
  const key = keySetting(target);
  if (identity === undefined) {
    return new ShippingConfigError(
      setting,
      `pins shop ${pin?.shopId}, but the service at ${target.api} sends no shop_id on the subscriptions of ${shopName(target.label)}, so which shop ${key} reaches cannot be checked. ${done}. Remove ${setting} and run \`pulumi up\`: a pin that cannot be checked guards nothing`,
    );
  }
  return new ShippingConfigError(
    setting,
    `pins shop ${pin?.shopId}, but the service at ${target.api} reports shop ${identity.shopId} for the key in ${key}. ${done}. Set the key of shop ${pin?.shopId} in ${key}; or, if the key is right and the pin wrong, \`pulumi config set ${setting.startsWith("shipping:shops") ? `--path '${setting}'` : setting} ${identity.shopId}\``,
  );
}

/** A write into a pinned shop that listed nothing could not be read back, so it was undone. */
export function pinnedReadBackFailed(
  target: ShopTarget,
  ids: readonly number[],
  cause: unknown,
): ShippingConfigError {
  const pin = target.pin;
  const which = ids.length === 1 ? `subscription ${ids[0]}` : `subscriptions ${ids.join(", ")}`;
  return new ShippingConfigError(
    pin?.setting ?? "shipping:shopId",
    `pins shop ${pin?.shopId}, and ${shopName(target.label)} at ${target.api} listed no subscription, so this step wrote ${which} and read ${ids.length === 1 ? "it" : "them"} back to learn the shop, but the read failed (${reasonOf(cause)}). The write was deleted again, as it could not be checked against the pin; run \`pulumi up\` again`,
    { cause },
  );
}

/** Undoing a write into a pinned shop failed: the subscriptions may be left there, recorded nowhere. */
export function undoFailed(
  target: ShopTarget,
  ids: readonly number[],
  why: unknown,
  failure: unknown,
): ShippingConfigError {
  const reason = why instanceof Error ? why.message : String(why);
  const those = ids.length === 1 ? "it" : "them";
  return new ShippingConfigError(
    target.pin?.setting ?? "shipping:shopId",
    `${reason.replace(WRITTEN_AND_UNDONE, "The shop listed no subscription, so this step wrote and then read back what it wrote")}. Undoing the write failed (${failure instanceof Error ? failure.message : String(failure)}): subscription ${ids.join(", ")} may be in the shop ${keySetting(target)} reaches, recorded nowhere; delete ${those} there`,
    { cause: failure },
  );
}

/** The service named the shop a key reaches, and the configuration does not pin it. */
export function pinHint(target: ShopTarget, shopId: string): string {
  const set =
    target.label === "(default)"
      ? `pulumi config set shipping:shopId ${shopId}`
      : `pulumi config set --path 'shipping:shops.${target.label}.shopId' ${shopId}`;
  return `${upper(shopName(target.label))} at ${target.api} is shop_id ${shopId} for the service. Pin it, so that a key of another shop is refused before any write: \`${set}\``;
}
