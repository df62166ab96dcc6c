/**
 * What the ownership rule refuses when the configuration no longer reaches where a recorded subscription was
 * created (rules/locateRule.ts, rules/diffRule.ts): another API, a key of another shop, a shop that cannot
 * say which it is, or an entry that is gone. Nothing was changed, and the way out.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingConfigError } from "../errors/configError";
import type { RecordedPlace, ShopIdentity } from "../rules/recorded";
import { LAST_UP, MOVING, serviceShop, settingOf, shopName } from "./wording";

/**
 * The configuration now reaches another API, or a key that the service says belongs to another shop (named
 * when another entry of the configuration is that shop), than the one that issued a recorded subscription.
 */
export function targetChanged(
  recorded: RecordedPlace,
  now: ShopTarget,
  otherShop: ShopIdentity | undefined,
  otherName?: string,
): ShippingConfigError {
  const what = `subscription ${recorded.id} (${recorded.hook})`;
  if (now.api !== recorded.api) {
    const setting = settingOf(recorded.shop, "baseUrl");
    return new ShippingConfigError(
      setting,
      `${shopName(now.label)} now reaches ${now.api}, but ${what} was created at ${recorded.api}, the only API where its id means something. Nothing was changed. Set ${setting} back to ${recorded.api} and run \`pulumi up\` ${LAST_UP}; to move the stack, see ${MOVING}`,
    );
  }
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `the key of ${shopName(now.label)} now reaches ${serviceShop(otherShop?.shopId, otherName)}, but ${what} was created in shop_id ${recorded.shopId}. Nothing was changed. Set the key of shop_id ${recorded.shopId} back in ${setting} and run \`pulumi up\` ${LAST_UP}; to move the stack, see ${MOVING}`,
  );
}

/**
 * The configured shop lists nothing, so the service cannot say which shop its key reaches (diff asks no
 * one).
 */
export function shopCannotSay(recorded: RecordedPlace, now: ShopTarget): ShippingConfigError {
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `${shopName(now.label)} now lists no subscription at all, so the service cannot say whether its key still reaches shop_id ${recorded.shopId}, where subscription ${recorded.id} (${recorded.hook}) was created. Nothing was changed. Deleted in the back office? Run \`pulumi up --refresh\`. Deleted by this stack, replacing it under \`deleteBeforeReplace\` in an \`up\` whose create then failed (refresh does not read it then)? Remove it from the state with \`pulumi state delete <its URN>\` (\`pulumi stack --show-urns\` lists them) and run \`pulumi up\`. Another shop's key in ${setting}? Set it back`,
  );
}

/**
 * The shop entry a recorded subscription was created with is gone, and no configured shop is known to be
 * it.
 */
export function entryGone(recorded: RecordedPlace, missing: unknown): ShippingConfigError {
  const why = missing instanceof Error ? missing.message : String(missing);
  return new ShippingConfigError(
    "shipping:shops",
    `subscription ${recorded.id} (${recorded.hook}) was created with shop entry "${recorded.shop}" at ${recorded.api}, and that entry is gone (${why}). Nothing was changed. Put the entry back with its key and run \`pulumi up\`, then remove it in a later change (or \`pulumi state delete <urn>\` to forget the subscription)`,
  );
}
