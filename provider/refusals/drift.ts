/**
 * What is said of a recorded subscription changed or deleted outside the stack: read and delete leave a
 * re-pointed one alone, and diff says that one drifted and how to repair it.
 */
import type { ShopTarget } from "../config/settings";
import type { RecordedPlace } from "../rules/recorded";
import { shopName } from "./wording";

/** A live subscription that is no longer the resource's: why it is left alone. Names no URL. */
export function notOurs(id: number, hook: string, action: string): string {
  return `shipping: subscription ${id} (${hook}) now points at another URL than this resource declared (changed in the back office or by another stack): ${action}`;
}

/**
 * What diff says of a recorded subscription the shop no longer holds as recorded: drift, and how to repair
 * it.
 */
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
    : `${what} now points at another URL than this resource declared (changed in the back office or by another stack): to put the declared URL back, set \`takeOver: true\` on the resource and run \`pulumi up --refresh\` (the refresh drops this resource, and no resource of the stack records that subscription then); to keep the new URL, declare it`;
}
