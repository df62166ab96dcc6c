/**
 * A preview's listing of a shop, handed from the program's process to the provider's, so that a preview lists
 * each shop once. In previews only, the program lists every shop it declares in (for what it tells on each
 * resource: a takeover, drift) and passes the listing as the hidden, secret input
 * {@link PREVIEW_LISTING_INPUT}, each URL as its digest (the engine's verbose logs print every input, secret or
 * not; a digest is all that `diff` compares a recorded URL with). The provider's `check` takes it as its own
 * listing of that shop (when it has none yet) and drops the input, so it is never shown, diffed or stored. When
 * the listing failed (a refused key, an API that cannot be reached), the program hands over the message
 * instead, to every resource of the shop, and `check` fails the resource with it: the error shows on the
 * resource, once (the engine stops at the first failed check). The update that writes runs without any of
 * this: the program hands nothing over when it is no preview, and every write's decision rests on the
 * provider's own listing.
 */
import { z } from "zod";
import type { LiveSubscription } from "../client/apiSchemas";
import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import type { ShopViews } from "../facts/shopViews";
import { urlDigest } from "../rules/recorded";

/** The hidden input that carries the listing (`__`: the engine neither shows nor diffs it). */
export const PREVIEW_LISTING_INPUT = "__previewListing";

/**
 * What is handed over: whose listing it is (`shopKey`: API and key digest, no credential) and what it held, or
 * why the shop could not be listed (a message that names the resource, the shop and the fix; no URL).
 */
export type HandedListing =
  | { readonly shopKey: string; readonly listing: readonly LiveSubscription[] }
  | { readonly shopKey: string; readonly unusable: string };

/** What the program hands over for a shop it listed: the listing with every URL as its digest. */
export function listingToHand(shopKey: string, listing: readonly LiveSubscription[]): HandedListing {
  return { shopKey, listing: listing.map((s) => ({ ...s, url: urlDigest(s.url) })) };
}

const listedSchema = z.object({
  shopKey: z.string(),
  listing: z.array(
    z.object({
      id: z.number().int(),
      hook: z.string(),
      url: z.string(),
      shopId: z.string().optional(),
      accountId: z.string().optional(),
    }),
  ),
});
const unusableSchema = z.object({ shopKey: z.string(), unusable: z.string().min(1) });

/**
 * What was handed over for `target`: its listing, why it could not be listed, or undefined: nothing given,
 * not of the shop the provider resolves (the two processes read other settings), or not in a handed shape (a
 * program of another release).
 */
export function handedListing(
  value: unknown,
  target: ShopTarget,
): { listing: LiveSubscription[] } | { unusable: string } | undefined {
  const unusable = unusableSchema.safeParse(value);
  if (unusable.success && unusable.data.shopKey === target.shopKey)
    return { unusable: unusable.data.unusable };
  const parsed = listedSchema.safeParse(value);
  if (!parsed.success || parsed.data.shopKey !== target.shopKey) return undefined;
  const listing = parsed.data.listing.map(({ shopId, accountId, ...rest }) => ({
    ...rest,
    ...(shopId !== undefined ? { shopId } : {}),
    ...(accountId !== undefined ? { accountId } : {}),
  }));
  return { listing };
}

/**
 * `check`'s part: what the program handed over for `target` becomes the deployment's listing of the shop, or,
 * when the shop could not be listed, fails the resource with the program's message.
 */
export function takeHandedListing(views: ShopViews, target: ShopTarget, value: unknown): void {
  const handed = handedListing(value, target);
  if (handed !== undefined && "unusable" in handed) throw new ShippingError(handed.unusable);
  if (handed !== undefined) views.handOver(target, handed.listing);
}
