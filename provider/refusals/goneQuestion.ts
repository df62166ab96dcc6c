/**
 * What is said when a recorded id is not in its shop's listing and the service was asked whether it is gone
 * (a DELETE of the unlisted id; rules/locateRule.ts `goneVerdict`): it belongs to another shop, the question
 * was refused, or the question deleted it.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingConfigError } from "../errors/configError";
import type { RecordedPlace } from "../rules/recorded";
import { LAST_UP, MOVING, settingOf, shopName } from "./wording";

/** The service refused the DELETE that asked whether an unlisted id is gone: it belongs to another shop. */
export function ownedByAnotherShop(recorded: RecordedPlace, now: ShopTarget): ShippingConfigError {
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `subscription ${recorded.id} (${recorded.hook}) is not in ${shopName(now.label)}'s listing, and the service answers that it belongs to another shop (a 403 to a DELETE that deleted nothing): the key now reaches another shop than the one that created it. Nothing was changed. Set ${setting} back to the key it was created with and run \`pulumi up\` ${LAST_UP}; to move the stack, see ${MOVING}`,
  );
}

/** The DELETE that asks whether an unlisted id is gone was refused for another reason than ownership. */
export function cannotConfirmGone(recorded: RecordedPlace, now: ShopTarget): ShippingConfigError {
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `subscription ${recorded.id} (${recorded.hook}) is not in ${shopName(now.label)}'s listing, which cannot say which shop its key reaches, and the service refused the DELETE that asks whether it is gone (403, not about ownership: this key may not DELETE). Nothing was changed. Use a read-write key of the shop that created it in ${setting}, run \`pulumi up\`, then this again`,
  );
}

/** What refresh says when it takes an unlisted id for gone because the question could not be asked. */
export function goneUnasked(recorded: RecordedPlace, now: ShopTarget): string {
  return `${notListed(recorded, now)}, which cannot say which shop its key reaches, and the service refused the DELETE that asks whether it is gone (403: this key may not DELETE): refresh takes it for gone. If the key now reaches another shop, the subscription stays there: refresh with a read-write key to tell`;
}

/** What is said when the DELETE that asked whether an unlisted id is gone deleted it. */
export function goneByAsking(recorded: RecordedPlace, now: ShopTarget): string {
  return `${notListed(recorded, now)} but existed: the DELETE that asked whether it was gone deleted it`;
}

function notListed(recorded: RecordedPlace, now: ShopTarget): string {
  return `shipping: subscription ${recorded.id} (${recorded.hook}) is not in ${shopName(now.label)}'s listing`;
}
