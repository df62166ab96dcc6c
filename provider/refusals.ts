/**
 * Every refusal and warning the provider gives, in one place: what happened, that nothing was changed (or
 * what was), and the way out. Pure functions of what the decision knew; none names a URL (any part of one may
 * be a secret) or a key.
 */
import { ShippingConfigError } from "./errors/configError";
import { ShippingConnectionError } from "./errors/connectionError";
import { ShippingRequestError } from "./errors/requestError";
import { ShippingResponseError } from "./errors/responseError";
import { ShippingError } from "./errors/shippingError";
import type { RecordedPlace, ShopIdentity } from "./recorded";
import type { ShopTarget } from "./settings";

/** Where the safety model explains how to move a stack to another API, key or shop. */
const MOVING = "docs/safety.md#re-pointing-a-stack";
/** Refresh and destroy run with the provider configuration of the last `up`, also one that failed. */
export const LAST_UP = "(refresh and destroy use the configuration of the last `up`)";

function settingOf(shop: string | undefined, part: "baseUrl" | "apiKey"): string {
  return shop === undefined ? `shipping:${part}` : `shipping:shops.${shop}.${part}`;
}

/** The setting that holds a target's key, for messages. */
function keySetting(target: ShopTarget): string {
  return target.label === "(default)" ? "shipping:apiKey" : `shipping:shops.${target.label}.apiKey`;
}

/** The command that sets the shop's key, as secret config (`--path` for an entry of `shipping:shops`). */
function setKeyCommand(target: ShopTarget): string {
  return target.label === "(default)"
    ? "pulumi config set --secret shipping:apiKey <key>"
    : `pulumi config set --secret --path '${keySetting(target)}' <key>`;
}

/** What went wrong, for a message that gives its own way out: a request error's text without its hint. */
function reasonOf(error: unknown): string {
  if (error instanceof ShippingRequestError || error instanceof ShippingConnectionError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}

/** A shop as a person names it: its entry of `shipping:shops`, or the default shop. */
export function shopName(label: string | undefined): string {
  return label === undefined || label === "(default)" ? "the default shop" : `shop ${label}`;
}

/** `text` with its first letter in upper case (a message that begins with a shop's name). */
function upper(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A shop the service names: its configured name when one is known, and its `shop_id`. */
function serviceShop(shopId: string | undefined, name: string | undefined): string {
  return name === undefined ? `shop_id ${shopId ?? "(unknown)"}` : `${shopName(name)} (shop_id ${shopId})`;
}

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

/** The configured shop lists nothing, so the service cannot say which shop its key reaches (diff asks no one). */
export function shopCannotSay(recorded: RecordedPlace, now: ShopTarget): ShippingConfigError {
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `${shopName(now.label)} now lists no subscription at all, so the service cannot say whether its key still reaches shop_id ${recorded.shopId}, where subscription ${recorded.id} (${recorded.hook}) was created. Nothing was changed. Deleted in the back office? Run \`pulumi up --refresh\`. Another shop's key in ${setting}? Set it back`,
  );
}

/** The service refused the DELETE that asked whether an unlisted id is gone: it belongs to another shop. */
export function ownedByAnotherShop(recorded: RecordedPlace, now: ShopTarget): ShippingConfigError {
  const setting = settingOf(recorded.shop, "apiKey");
  return new ShippingConfigError(
    setting,
    `subscription ${recorded.id} (${recorded.hook}) is not in ${shopName(now.label)}'s listing, and the service answers that it belongs to another shop (a 403 to a DELETE that deleted nothing): the key now reaches another shop than the one that created it. Nothing was changed. Set ${setting} back to the key it was created with and run \`pulumi up\` ${LAST_UP}; to move the stack, see ${MOVING}`,
  );
}

/** The shop entry a recorded subscription was created with is gone, and no configured shop is known to be it. */
export function entryGone(recorded: RecordedPlace, missing: unknown): ShippingConfigError {
  const why = missing instanceof Error ? missing.message : String(missing);
  return new ShippingConfigError(
    "shipping:shops",
    `subscription ${recorded.id} (${recorded.hook}) was created with shop entry "${recorded.shop}" at ${recorded.api}, and that entry is gone (${why}). Nothing was changed. Put the entry back with its key and run \`pulumi up\`, then remove it in a later change (or \`pulumi state delete <urn>\` to forget the subscription)`,
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

/** A live subscription that is no longer the resource's: why it is left alone. Names no URL. */
export function notOurs(id: number, hook: string, action: string): string {
  return `shipping: subscription ${id} (${hook}) now points at another URL than this resource declared (changed in the back office or by another stack): ${action}`;
}

/** A write read back gone or changed at once: something overwrote the hook. */
export function overwrittenAtOnce(id: number, hook: string): ShippingError {
  return new ShippingError(
    `POST /webhook_subscriptions answered id ${id} for ${hook}, but reading it back found it gone or changed: something overwrote ${hook} at once. If this stack declares ${hook} for the same shop under two shop entries or keys, remove one of the two; otherwise run \`pulumi up\` again`,
  );
}

/** A POST of several hooks whose answered ids, read back, hold none of one hook at its URL. */
export function unmatchedId(ids: readonly number[], count: number, hook: string): ShippingError {
  return new ShippingError(
    `POST /webhook_subscriptions answered ids ${ids.join(", ")} for ${count} hooks, but none of them is ${hook} at the requested URL when read back; run \`pulumi up\` again (the hook is taken over if it was written)`,
  );
}

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

/** What a create says when the service answered its POST but the write could not be read back. */
export function unconfirmedWrite(
  target: ShopTarget,
  hook: string,
  id: number,
  written: readonly number[],
  cause: unknown,
): string {
  const what =
    written.length <= 1
      ? `subscription ${id} (${hook})`
      : `subscriptions ${written.join(", ")} (${id} for ${hook}, by the order of the answer)`;
  const reason = reasonOf(cause);
  return `POST /webhook_subscriptions wrote ${what} in ${shopName(target.label)} at ${target.api}, but reading ${written.length <= 1 ? "it" : "them"} back failed (${reason}). It is recorded in state as not yet confirmed, so nothing is left behind: run \`pulumi up\` again to confirm it (no write); \`pulumi destroy\` removes it`;
}

/** What the next `up` says of an unconfirmed write it still cannot confirm. */
/**
 * A POST whose answer was lost (no status from the service) in a shop that could not be listed afterwards:
 * it may have been applied. What was sent, and that `up` (which adopts what it finds with no write) comes next.
 */
export function outcomeUnknown(
  target: ShopTarget,
  subs: readonly { readonly hook: string }[],
  cause: unknown,
): string {
  const hooks = subs.map((s) => s.hook).join(", ");
  const reason = reasonOf(cause);
  return `${reason}. The service may have applied it, and ${shopName(target.label)} could not be listed to tell: ${hooks} may be subscribed now with no record in state. Run \`pulumi up\` next (it adopts what it finds, with no write), not \`pulumi destroy\``;
}

export function stillUnconfirmed(id: number, hook: string, why: string): string {
  return `subscription ${id} (${hook}) was written but not confirmed by an earlier \`pulumi up\`, and still is not: ${why}. Run \`pulumi refresh\` (it drops or corrects the record), then \`pulumi up\``;
}

/** What diff says of a recorded subscription the shop no longer holds as recorded: drift, and how to repair it. */
export function drifted(
  recorded: RecordedPlace,
  now: ShopTarget,
  live: { readonly url: string } | undefined,
  shopUnnamed = false,
): string {
  const what = `shipping: subscription ${recorded.id} (${recorded.hook}) of ${shopName(now.label)}`;
  const orSwapped = shopUnnamed ? ", or the key now reaches another shop: the service names none" : "";
  return live === undefined
    ? `${what} is gone (deleted in the back office, by another stack, or by a targeted operation on another resource of this stack${orSwapped}): \`pulumi up --refresh\` subscribes the hook again`
    : `${what} now points at another URL than this resource declared (changed in the back office or by another stack): \`pulumi up --refresh\` sets the declared URL again`;
}

/** A preview found a shop's key refused or its API unreachable: the resource cannot be deployed as configured. */
export function shopUnusable(name: string, target: ShopTarget, error: unknown): string {
  const what = `WebhookSubscription "${name}": ${shopName(target.label)} at ${target.api}`;
  const status = (error as { status?: unknown }).status;
  const baseUrl = target.baseUrlSetting ?? "shipping:baseUrl";
  if (status === 401 || status === 403)
    return `${what}: the service refuses the key in ${keySetting(target)} (${status}). Set the shop's key: \`${setKeyCommand(target)}\``;
  if (error instanceof ShippingConnectionError)
    return `${what} cannot be reached (${error.reason}${error.code !== undefined ? ` (${error.code})` : ""}). Check ${baseUrl}, and that the service is up`;
  if (error instanceof ShippingResponseError)
    return `${what} answers, but not as the Shipping API does (${reasonOf(error)}). Check ${baseUrl}`;
  return `${what}: listing the shop failed (${reasonOf(error)}); run the preview again, and if it keeps failing check ${baseUrl}`;
}

/** The service named the shop a key reaches, and the configuration does not pin it. */
export function pinHint(target: ShopTarget, shopId: string): string {
  const set =
    target.label === "(default)"
      ? `pulumi config set shipping:shopId ${shopId}`
      : `pulumi config set --path 'shipping:shops.${target.label}.shopId' ${shopId}`;
  return `${upper(shopName(target.label))} at ${target.api} is shop_id ${shopId} for the service. Pin it, so that a key of another shop is refused before any write: \`${set}\``;
}
