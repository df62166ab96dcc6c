/**
 * A pinned shop: `shipping:shopId` (or `shopId` of a `shipping:shops` entry) names the shop, as the service
 * reports it, that the configured key must reach. A key swapped to another shop's is then refused before any
 * write, by every step: also an added resource, a rename without an alias or `pulumi up --replace`, for which
 * the engine asks the provider nothing about a recorded resource first (see README, "Pin the shop").
 */
import type { LiveSubscription } from "./client/apiSchemas";
import { ShippingConfigError } from "./errors/configError";
import type { ShopTarget } from "./settings";
import { LAST_UP, type ShopIdentity, shopIdentityOf, wayOut } from "./targetChange";

/** The setting that holds a shop's key, for messages. */
function keySetting(target: ShopTarget): string {
  return target.label === "(default)" ? "shipping:apiKey" : `shipping:shops.${target.label}.apiKey`;
}

/**
 * Throws when a listing of a pinned shop shows that its key reaches another shop, or cannot show which shop
 * (the service sends no `shop_id`). `listedEmpty`: the service listed nothing for the key when the deployment
 * first asked, so what the listing holds now is this deployment's own writes; until one of them was read back
 * with its shop, the creates check the pin on reading back ({@link checkWrittenPin}). A shop learnt that way
 * (by any entry with the same key) is checked here like a listed one.
 */
export function checkListedPin(
  target: ShopTarget,
  listing: readonly LiveSubscription[],
  listedEmpty: boolean,
  learnt: ShopIdentity | undefined,
): void {
  if (target.pin === undefined) return;
  // `learnt`: the shop an earlier read-back of the deployment told for this key (its write may be undone since).
  const identity = shopIdentityOf(listing) ?? learnt;
  if (identity === undefined && (listing.length === 0 || listedEmpty)) return;
  checkPin(target, identity, "Nothing was written");
}

/**
 * Throws when a pinned shop that listed nothing turns out, on reading back what this deployment wrote, to be
 * another shop (or one the service does not name), after undoing the write with `undo`: the shop was empty, so
 * the write overwrote nothing, and undoing it leaves the shop as it was.
 */
export async function checkWrittenPin(
  target: ShopTarget,
  identity: ShopIdentity | undefined,
  ids: readonly number[],
  undo: (ids: readonly number[]) => Promise<void>,
): Promise<void> {
  if (target.pin === undefined || identity?.shopId === target.pin.shopId) return;
  try {
    checkPin(target, identity, WRITTEN_AND_UNDONE);
  } catch (error) {
    await undoWrite(target, ids, undo, error);
    throw error;
  }
}

const WRITTEN_AND_UNDONE =
  "The shop listed no subscription, so this was learned by reading back what this step wrote, which was deleted again";

/** Attempts at the DELETE that undoes an unchecked write (a DELETE of an id is safe to repeat). */
export const UNDO_ATTEMPTS = 3;
/** Wait before the second undo attempt, in ms; the third waits twice as long. */
export const UNDO_RETRY_DELAY_MS = 500;

/**
 * Deletes what this deployment wrote into a pinned shop that listed nothing, when the write cannot be checked
 * against the pin (its read-back failed) or failed the check. Throws, naming the subscriptions left behind,
 * when the DELETE fails {@link UNDO_ATTEMPTS} times.
 */
export async function undoWrite(
  target: ShopTarget,
  ids: readonly number[],
  undo: (ids: readonly number[]) => Promise<void>,
  why: unknown,
): Promise<void> {
  let failure: unknown;
  for (let attempt = 0; attempt < UNDO_ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, UNDO_RETRY_DELAY_MS * attempt));
    try {
      await undo(ids);
      return;
    } catch (error) {
      failure = error;
    }
  }
  const reason = why instanceof Error ? why.message : String(why);
  const those = ids.length === 1 ? "it" : "them";
  throw new ShippingConfigError(
    target.pin?.setting ?? "shipping:shopId",
    `${reason.replace(WRITTEN_AND_UNDONE, "The shop listed no subscription, so this step wrote and then read back what it wrote")}. Undoing the write failed (${failure instanceof Error ? failure.message : String(failure)}): subscription ${ids.join(", ")} may be in the shop ${keySetting(target)} reaches, recorded nowhere; delete ${those} there`,
    { cause: failure },
  );
}

/**
 * Undoes a write into a pinned shop that listed nothing whose read-back failed (so the shop it went to is not
 * known), then throws why.
 */
export async function readBackFailed(
  target: ShopTarget,
  ids: readonly number[],
  undo: (ids: readonly number[]) => Promise<void>,
  cause: unknown,
): Promise<never> {
  const pin = target.pin;
  const error = new ShippingConfigError(
    pin?.setting ?? "shipping:shopId",
    `pins shop ${pin?.shopId}, and shop ${target.label} at ${target.api} listed no subscription, so this step wrote ${ids.length === 1 ? `subscription ${ids[0]}` : `subscriptions ${ids.join(", ")}`} and read ${ids.length === 1 ? "it" : "them"} back to learn the shop, but the read failed (${cause instanceof Error ? cause.message : String(cause)}). The write was deleted again, as it could not be checked against the pin; run \`pulumi up\` again`,
    { cause },
  );
  await undoWrite(target, ids, undo, error);
  throw error;
}

function checkPin(target: ShopTarget, identity: ShopIdentity | undefined, done: string): void {
  const pin = target.pin;
  if (pin === undefined || identity?.shopId === pin.shopId) return;
  const key = keySetting(target);
  if (identity === undefined) {
    throw new ShippingConfigError(
      pin.setting,
      `pins shop ${pin.shopId}, but the service at ${target.api} sends no shop_id on the subscriptions of shop ${target.label}, so which shop ${key} reaches cannot be checked. ${done}. Remove ${pin.setting} and run \`pulumi up\` ${LAST_UP}: a pin that cannot be checked guards nothing`,
    );
  }
  throw new ShippingConfigError(
    pin.setting,
    `pins shop ${pin.shopId}, but the service at ${target.api} reports shop ${identity.shopId} for the key in ${key}. ${done}. ${wayOut(key, `a key of shop ${pin.shopId}`)}, with ${pin.setting} set to the new shop. If it is the pin that is wrong (the key is right and shop ${identity.shopId} is this stack's shop), set ${pin.setting} to ${identity.shopId} and run \`pulumi up\``,
  );
}
