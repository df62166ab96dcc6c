/**
 * Writes the service applies late: a POST that timed out at the client (or got a gateway's 502/504, or lost
 * its connection after it was sent) may still be applied after the client gave up, behind a gateway or a slow
 * backend. Under the service's new-id overwrite that replaces the recorded id with another one of the same hook
 * and URL. What the provider says about them, in one place (docs/safety.md, "A write applied late").
 */
import type { LiveSubscription } from "../client/apiSchemas";
import { OUTCOME_UNKNOWN_STATUSES } from "../client/retryPolicy";
import type { ShopTarget } from "../config/settings";
import { ShippingConnectionError } from "../errors/connectionError";
import { ShippingRequestError } from "../errors/requestError";
import { ShippingError } from "../errors/shippingError";
import type { Recorded } from "../rules/recorded";
import { shopName } from "./wording";

/** What each operation does with the live subscription that took the recorded one's place. */
const DOES = {
  diff: "this resource takes it as its own (`pulumi refresh` records the new id; `pulumi destroy` deletes it)",
  read: "refresh records it as this resource's",
  delete: "deleting it as this resource's",
  replace: "taking it as this resource's",
} as const;

/**
 * Says that the recorded subscription is gone and the same hook, at the recorded URL, is live in the recorded
 * shop under another id (a write applied late, or the same URL posted again), and what the operation does.
 */
export function movedSubscription(
  recorded: Recorded,
  target: ShopTarget,
  live: LiveSubscription,
  operation: keyof typeof DOES,
): string {
  return `shipping: subscription ${recorded.id} (${recorded.hook}) of ${shopName(target.label)} is gone, and the service holds ${recorded.hook} at the recorded URL as subscription ${live.id} (a write the service applied late, after its client gave up, or the same URL posted again): ${DOES[operation]}`;
}

/**
 * What diff says when the recorded subscription is gone and the hook is live under another id at another URL:
 * the back office, another stack, or an older write of this stack that the service applied late, after a newer
 * one (no URL is named: any part of one may be a secret).
 */
export function replacedElsewhere(recorded: Recorded, target: ShopTarget, live: LiveSubscription): string {
  return `shipping: subscription ${recorded.id} (${recorded.hook}) of ${shopName(target.label)} is gone, and the service holds ${recorded.hook} as subscription ${live.id} at another URL than this resource declared (changed in the back office or by another stack, or an older write of this stack that the service applied late, after its client gave up): to put the declared URL back, set \`takeOver: true\` on the resource and run \`pulumi up --refresh\` (the refresh drops this resource, and no resource of the stack records that subscription then); to keep the new URL, declare it`;
}

/** Whether a failed POST may still be applied by the service later: no answer, or a gateway's 502/504. */
export function outcomeIsUnknown(error: unknown): boolean {
  if (error instanceof ShippingConnectionError) return true;
  return error instanceof ShippingRequestError && OUTCOME_UNKNOWN_STATUSES.includes(error.status);
}

/**
 * The error of a create whose POST got no answer and that a fresh listing did not show applied: the service
 * may still apply it, so it was not sent again. Any other error is returned as it is.
 */
export function unseenWrite(target: ShopTarget, hook: string, error: unknown): unknown {
  if (!(error instanceof ShippingConnectionError || error instanceof ShippingRequestError)) return error;
  if (!outcomeIsUnknown(error)) return error;
  const reason = error.detail;
  return new ShippingError(
    `${reason}. Its outcome is unknown: ${shopName(target.label)} did not list ${hook} at this URL right after, but the service may still apply the write late (behind a gateway or a slow backend), so it was not sent again. Run \`pulumi up\` again: it adopts the subscription if the write landed, with no write, or subscribes the hook`,
    { cause: error },
  );
}
