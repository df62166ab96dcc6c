/**
 * A preview's listing of a shop, handed from the program's process to the provider's, so that a preview lists
 * each shop once. In previews only, the program lists every shop it declares in (for what it tells on each
 * resource: a refused key, a takeover, drift) and passes the listing as the hidden, secret input
 * {@link PREVIEW_LISTING_INPUT}; the provider's `check` takes it as its own listing of that shop (when it has
 * none yet) and drops the input, so it is never shown, diffed or stored. The update that writes runs without
 * it: the program hands nothing over when it is no preview, and every write's decision rests on the
 * provider's own listing.
 */
import { z } from "zod";
import type { LiveSubscription } from "./client/apiSchemas";
import type { ShopTarget } from "./settings";

/** The hidden input that carries the listing (`__`: the engine neither shows nor diffs it). */
export const PREVIEW_LISTING_INPUT = "__previewListing";

/** The listing as handed over: whose it is (`shopKey`: API and key digest, no credential) and what it held. */
export interface HandedListing {
  readonly shopKey: string;
  readonly listing: readonly LiveSubscription[];
}

const handedSchema = z.object({
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

/**
 * The listing handed over for `target`, or undefined: none given, not of the shop the provider resolves (the
 * two processes read other settings), or not in the handed shape (a program of another release).
 */
export function handedListing(value: unknown, target: ShopTarget): LiveSubscription[] | undefined {
  const parsed = handedSchema.safeParse(value);
  if (!parsed.success || parsed.data.shopKey !== target.shopKey) return undefined;
  return parsed.data.listing.map(({ shopId, accountId, ...rest }) => ({
    ...rest,
    ...(shopId !== undefined ? { shopId } : {}),
    ...(accountId !== undefined ? { accountId } : {}),
  }));
}
