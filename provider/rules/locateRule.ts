/**
 * The ownership rule's read and delete (ownership.ts): which configured shop reaches the recorded
 * subscription (the named one, or another entry the service reports to be the recorded shop; else a refusal),
 * and whether a recorded id the shop does not list is gone (also for a replacement's create).
 */
import { cannotConfirmGone, goneByAsking, goneUnasked, ownedByAnotherShop } from "../refusals/goneQuestion";
import { entryGone, targetChanged } from "../refusals/repointed";
import {
  type Listed,
  named,
  type Placed,
  pinRefusal,
  type RecordedFacts,
  type Verdict,
} from "./ownershipFacts";
import { isSameShop, type ShopIdentity, shopIdentityOf } from "./recorded";

/**
 * The configured shop that reaches the recorded subscription: the one the resource names when it is at the
 * recorded API and (when the service says) the recorded shop, else another configured shop that the service
 * reports to be the recorded one; else a refusal (the configuration was re-pointed, or the entry is gone). A
 * shop that lists nothing cannot say which it is: the named one is taken to be it (the gone question tells).
 */
export function locate(facts: RecordedFacts): Placed {
  const { recorded } = facts;
  const namedShop = "missing" in facts.named ? undefined : facts.named;
  let namedIdentity: ShopIdentity | undefined;
  if (recorded.api === undefined || namedShop?.target.api === recorded.api) {
    if (namedShop === undefined) return named(facts);
    if (recorded.shopId === undefined) return { kind: "at", shop: namedShop };
    if (namedShop.listing === undefined) return { kind: "needListing", target: namedShop.target };
    const refusal = pinRefusal(namedShop as Listed);
    if (refusal !== undefined) return { kind: "refuse", error: refusal };
    namedIdentity = shopIdentityOf(namedShop.listing);
    if (namedIdentity === undefined || isSameShop(namedIdentity, recorded))
      return { kind: "at", shop: namedShop };
  }
  if (recorded.shopId !== undefined) {
    for (const other of facts.others) {
      if (other.listing === undefined) return { kind: "needListing", target: other.target };
      const refusal = pinRefusal(other as Listed);
      if (refusal !== undefined) return { kind: "refuse", error: refusal };
      const identity = shopIdentityOf(other.listing);
      if (identity !== undefined && isSameShop(identity, recorded)) return { kind: "at", shop: other };
    }
  }
  if (namedShop === undefined)
    return { kind: "refuse", error: entryGone(recorded, (facts.named as { missing: unknown }).missing) };
  // The shop the key reaches now, by its configured name when another entry is that shop.
  const otherName = facts.others.find(
    (o) => o.listing !== undefined && shopIdentityOf(o.listing)?.shopId === namedIdentity?.shopId,
  )?.target.label;
  return { kind: "refuse", error: targetChanged(recorded, namedShop.target, namedIdentity, otherName) };
}

/**
 * A recorded id the shop does not list. Gone when the listing shows the recorded shop, or this deployment saw
 * the id in the shop; else only the service can tell "gone" from "in another shop" (a DELETE of the unlisted
 * id: 404, or 403 deleteResourceOwnedByOthers; it deletes nothing). A question refused for another reason (a
 * read-only key) settles nothing: refresh takes it for gone with a warning (a drift check must show a
 * back-office delete); delete and a replacement's create refuse (acting could orphan it).
 */
export function goneVerdict(facts: RecordedFacts, shop: Listed): Verdict {
  const { recorded } = facts;
  const gone: Verdict = { kind: "gone", target: shop.target };
  if (recorded.shopId !== undefined && shopIdentityOf(shop.listing) !== undefined) return gone;
  if (shop.seen) return gone;
  switch (facts.goneAnswer) {
    case undefined:
      return { kind: "needGoneAnswer", target: shop.target };
    case "elsewhere":
      return { kind: "refuse", error: ownedByAnotherShop(recorded, shop.target) };
    case "cannotAsk":
      if (facts.operation !== "read")
        return { kind: "refuse", error: cannotConfirmGone(recorded, shop.target) };
      return { ...gone, warning: goneUnasked(recorded, shop.target) };
    case "deleted":
      return { ...gone, warning: goneByAsking(recorded, shop.target) };
    default:
      return gone;
  }
}
