/**
 * The ownership rule's diff (ownership.ts): it may refuse, and writes nothing. Refused, before any write, is a
 * resource whose shop now reaches another API or another shop; a recorded subscription the shop no longer
 * holds as recorded is drift, which diff goes on with and says.
 */
import { drifted } from "../refusals/drift";
import { replacedElsewhere } from "../refusals/lateWrites";
import { shopCannotSay, targetChanged } from "../refusals/repointed";
import {
  isRecorded,
  type Listed,
  movedVerdict,
  pinRefusal,
  type RecordedFacts,
  type ShopFacts,
  type Verdict,
} from "./ownershipFacts";
import { isListedUrl, isSameShop, type Recorded, shopIdentityOf } from "./recorded";

/** Diff refuses, before any write, a resource whose shop now reaches another API or another shop. */
export function diffVerdict(facts: RecordedFacts, shop: ShopFacts): Verdict {
  const { recorded } = facts;
  if (recorded.api === undefined) return { kind: "ours", target: shop.target };
  if (shop.target.api !== recorded.api)
    return { kind: "refuse", error: targetChanged(recorded, shop.target, undefined) };
  if (recorded.shopId === undefined) return unnamedShopDiff(recorded, shop);
  if (shop.listing === undefined) return { kind: "needListing", target: shop.target };
  const refusal = pinRefusal(shop as Listed);
  if (refusal !== undefined) return { kind: "refuse", error: refusal };
  const identity = shopIdentityOf(shop.listing);
  if (identity !== undefined && !isSameShop(identity, recorded))
    return { kind: "refuse", error: targetChanged(recorded, shop.target, identity) };
  // A shop that lists nothing cannot say which shop its key reaches, and diff asks the service nothing.
  if (shop.listing.length === 0) return { kind: "refuse", error: shopCannotSay(recorded, shop.target) };
  // The listing shows the recorded shop: an absent or changed subscription drifted (a back-office change,
  // another stack, or a targeted operation that deleted what this resource records).
  const live = shop.listing.find((s) => s.id === recorded.id);
  const moved = live === undefined ? movedVerdict(facts, shop as Listed) : undefined;
  if (moved !== undefined) return moved;
  // The hook live under another id at another URL: maybe a write of this stack the service applied late.
  const other = shop.listing.find((s) => s.hook === recorded.hook && !isListedUrl(s.url, recorded.url));
  if (identity !== undefined && live === undefined && other !== undefined)
    return { kind: "ours", target: shop.target, warning: replacedElsewhere(recorded, shop.target, other) };
  if (identity !== undefined && (live === undefined || !isRecorded(live, recorded)))
    return { kind: "ours", target: shop.target, warning: drifted(recorded, shop.target, live) };
  return { kind: "ours", target: shop.target };
}

/**
 * Diff of a subscription recorded where the service names no shop: nothing to refuse on (the key may reach
 * another shop, unseen), but a listing that lacks it or shows it changed is drift, said as such.
 */
function unnamedShopDiff(recorded: Recorded, shop: ShopFacts): Verdict {
  const live = shop.listing?.find((s) => s.id === recorded.id);
  if (shop.listing === undefined || (live !== undefined && isRecorded(live, recorded)))
    return { kind: "ours", target: shop.target };
  return { kind: "ours", target: shop.target, warning: drifted(recorded, shop.target, live, true) };
}
