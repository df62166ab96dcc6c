/**
 * What a create says about the live subscription of its hook (createRule.ts `takeoverOf`): adopted as it is,
 * refused because it is not the stack's, and what a delete leaves for a hook another resource declares. No
 * message quotes a URL: any part of one may be secret.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import { shopName } from "./wording";

/** A live subscription as these messages name it. */
interface Named {
  readonly id: number;
  readonly hook: string;
}

/**
 * The two ways out of a refused takeover, the one for a resource renamed or moved without an alias, and the
 * causes that the engine checking the new resource first gives (before the check or diff of the resource that
 * records the subscription tells the provider so): another resource keeps the hook by `ignoreChanges`, or
 * hands it on (it takes another hook or shop).
 */
const TAKEOVER_WAYS_OUT =
  'Either adopt it as it is: `npx pulumi-shipping-webhooks export` prints the declaration that takes it over with no write; or set `takeOver: true` on this resource to overwrite it (the secret output `previous` keeps what it called, and the resource\'s `takenOver` output says that it was made outside the stack). If it is the subscription of a resource of this stack that you renamed or moved under another parent, give the resource an alias (`aliases: [{ name: "<old name>" }]`) instead; if another resource of this program keeps this hook through `ignoreChanges: ["hook"]`, only one of them may declare it; if a resource of this stack records it and takes another hook or shop in this update, the engine checked this resource first or that one runs in another provider process: set `takeOver: true` here (the subscription is the stack\'s own), or roll the two changes out one after the other';

/** The text of a refused takeover (a check failure on `hook`, or the create's error). */
function takeoverRefusal(target: ShopTarget, live: Named): string {
  return `${live.hook} of ${shopName(target.label)} at ${target.api} already has subscription ${live.id}, which calls another URL and which no resource of this stack records, of those checked so far (it was made outside the stack: a partner, the back office, another tool or stack; or a resource of this stack hands it on that the engine checks later, or in another provider process). Creating this resource would overwrite it, so nothing is written. ${TAKEOVER_WAYS_OUT}`;
}

/** A create refused by the takeover rule, under the shop's write lane: nothing was written. */
export function takeoverRefused(target: ShopTarget, live: Named): ShippingError {
  return new ShippingError(takeoverRefusal(target, live));
}

/** A create that will adopt the live subscription of its hook as it is. */
export function adopts(target: ShopTarget, live: Named): string {
  return `adopts subscription ${live.id} (${live.hook}) of ${shopName(target.label)} as it is, with no write (if another stack manages it too, destroying either removes it)`;
}

/**
 * A delete that leaves its subscription live because another resource of this deployment declares the hook
 * for the same shop and has not taken it over (its create failed, or has not run: `--continue-on-error`).
 */
export function declaredElsewhere(target: ShopTarget, live: Named): ShippingError {
  return new ShippingError(
    `not deleting subscription ${live.id} (${live.hook}) of ${shopName(target.label)}: another resource of this program declares ${live.hook} for this shop and has not taken the hook over in this deployment (its create failed or did not run; or it is unchanged and its recorded subscription was overwritten through another key of the shop). Unsubscribing it would leave a declared hook with no subscription. It stays live and in state; run \`pulumi up\` again once that resource's create succeeds. When that resource is unchanged, its record names a subscription that is gone: set \`takeOver: true\` on it and run \`pulumi up --refresh\` (the refresh drops its record; its create then overwrites this subscription, the stack's own, and this delete finds it gone)`,
  );
}
