/**
 * What a create says of its POST when the outcome is not the plain one: read back gone or changed at once, ids
 * that match no hook, an answer that could not be read back (unconfirmed, and still so at the next `up`), or
 * no answer at all in a shop that could not be listed afterwards.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import { reasonOf, shopName } from "./wording";

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

/** What the next `up` says of an unconfirmed write it still cannot confirm. */
export function stillUnconfirmed(id: number, hook: string, why: string): string {
  return `subscription ${id} (${hook}) was written but not confirmed by an earlier \`pulumi up\`, and still is not: ${why}. Run \`pulumi refresh\` (it drops or corrects the record), then \`pulumi up\``;
}
