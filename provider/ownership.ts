/**
 * The ownership rule, in one place: from what a resource recorded, what is configured and what the service
 * reported, whether a subscription is this resource's to act on (ours), gone, someone else's now (taken),
 * held by another resource of this deployment (claimed), or must be refused. Pure: the provider gathers the
 * facts a verdict asks for (`need`) and asks again; test/ownership/ownership.read.test.ts and ownership.writes.test.ts state the rule as tables.
 */
import type { LiveSubscription } from "./client/apiSchemas";
import type { ShippingConfigError } from "./errors/configError";
import { movedSubscription, replacedElsewhere } from "./lateWrites";
import {
  isHookAtUrl,
  isListedUrl,
  isSameShop,
  type Recorded,
  type RecordedPlace,
  type ShopIdentity,
  shopIdentityOf,
} from "./recorded";
import {
  cannotConfirmGone,
  drifted,
  entryGone,
  goneByAsking,
  goneUnasked,
  NOTHING_WRITTEN,
  ownedByAnotherShop,
  pinMismatch,
  shopCannotSay,
  targetChanged,
} from "./refusals";
import type { ShopTarget } from "./settings";
import { declaredElsewhere } from "./takeoverMessages";

export { isSameShop, type Recorded, type RecordedPlace, type ShopIdentity, shopIdentityOf };

/** The service's answer to a DELETE of an unlisted id, asked to learn whether it is gone (see writes.ts). */
export type GoneAnswer = "gone" | "deleted" | "elsewhere" | "cannotAsk";

/** What this deployment knows of one configured shop, for one recorded id. */
export interface ShopFacts {
  readonly target: ShopTarget;
  /** The shop's subscriptions as this deployment knows them; undefined until listed. */
  readonly listing?: readonly LiveSubscription[];
  /** The shop listed nothing when this deployment first asked. */
  readonly listedEmpty: boolean;
  /** The shop a read-back of this deployment told for the shop's key, when its listing could not. */
  readonly learnt?: ShopIdentity;
  /** This deployment saw the recorded id in this shop (listed or written): then it is this shop's. */
  readonly seen: boolean;
}

/** What is asked: diff (may refuse, writes nothing), read (refresh), delete, replace (a create's old id). */
export type Operation = "diff" | "read" | "delete" | "replace";

/** Everything a verdict about a recorded subscription may need; the provider fills what is asked for. */
export interface RecordedFacts {
  readonly operation: Operation;
  readonly recorded: Recorded;
  /** The shop the resource names, or why it cannot be resolved. */
  readonly named: ShopFacts | { readonly missing: unknown };
  /** The other configured shops at the recorded API, in configuration order. */
  readonly others: readonly ShopFacts[];
  /** APIs at which a resource of this deployment creates, adopts or keeps the recorded id. */
  readonly claimedAt: readonly string[];
  /** Delete of a resource no longer declared: shops (`shopKey`) where another resource declares its hook. */
  readonly declaredIn?: readonly string[];
  /** The same, for a replacement's old half whose hook or shop changed: it leaves the hook to that resource. */
  readonly handedOnIn?: readonly string[];
  /**
   * Ids of the listed subscriptions, other than the recorded one, that another resource of this deployment
   * holds (created, adopted, kept, or took over by this rule): never this resource's. Absent: none.
   */
  readonly claimedLive?: readonly number[];
  readonly goneAnswer?: GoneAnswer;
}

/** The decision about a recorded subscription. */
export type Verdict =
  | { readonly kind: "needListing"; readonly target: ShopTarget }
  | { readonly kind: "needGoneAnswer"; readonly target: ShopTarget }
  | {
      readonly kind: "ours";
      readonly target: ShopTarget;
      readonly live?: LiveSubscription;
      /**
       * Diff: the recorded subscription drifted (gone, or changed); diff goes on, and says so. Any operation:
       * the recorded id is gone and `live` (same hook, URL and shop) took its place, as a late write does.
       */
      readonly warning?: string;
    }
  | { readonly kind: "gone"; readonly target: ShopTarget; readonly warning?: string }
  | { readonly kind: "taken"; readonly target: ShopTarget; readonly live: LiveSubscription }
  | { readonly kind: "claimed" }
  | { readonly kind: "refuse"; readonly error: unknown };

/** Whether a live subscription is the recorded one: same hook, URL and (when both are known) shop. */
export function isRecorded(live: LiveSubscription, recorded: Recorded): boolean {
  const identity = shopIdentityOf([live]);
  return (
    isHookAtUrl(live, recorded) &&
    (recorded.shopId === undefined || identity === undefined || isSameShop(identity, recorded))
  );
}

/**
 * A pinned shop's listing against its pin: the refusal when the service reports another shop (or none) for
 * its key. A shop that listed nothing says nothing yet (its creates check on reading back their write).
 */
export function pinRefusal(
  shop: ShopFacts & { listing: readonly LiveSubscription[] },
): ShippingConfigError | undefined {
  const pin = shop.target.pin;
  if (pin === undefined) return undefined;
  const identity = shopIdentityOf(shop.listing) ?? shop.learnt;
  if (identity === undefined && (shop.listing.length === 0 || shop.listedEmpty)) return undefined;
  if (identity?.shopId === pin.shopId) return undefined;
  return pinMismatch(shop.target, identity, NOTHING_WRITTEN);
}

type Listed = ShopFacts & { readonly listing: readonly LiveSubscription[] };
type Placed = { readonly kind: "at"; readonly shop: Listed | ShopFacts } | Verdict;

/**
 * The verdict about a recorded subscription, or the fact it needs next. A delete never unsubscribes a hook that
 * another resource of the deployment declares for the same shop (its create may have failed: `--continue-on-error`).
 */
export function decideRecorded(facts: RecordedFacts): Verdict {
  const verdict = decideAlone(facts);
  if (facts.operation !== "delete" || verdict.kind !== "ours") return verdict;
  if (facts.handedOnIn?.includes(verdict.target.shopKey) === true) return { kind: "claimed" };
  if (facts.declaredIn?.includes(verdict.target.shopKey) !== true) return verdict;
  const live = verdict.live ?? facts.recorded;
  return { kind: "refuse", error: declaredElsewhere(verdict.target, { id: live.id, hook: live.hook }) };
}

/** The verdict about a recorded subscription, by what state, the configuration and the service say of it. */
function decideAlone(facts: RecordedFacts): Verdict {
  const { operation, recorded } = facts;
  if (operation === "delete" && recorded.api !== undefined && facts.claimedAt.includes(recorded.api))
    return { kind: "claimed" };
  const placed = operation === "read" || operation === "delete" ? locate(facts) : named(facts);
  if (placed.kind !== "at") return placed;
  const { shop } = placed;
  if (operation === "delete" && facts.claimedAt.includes(shop.target.api)) return { kind: "claimed" };
  if (operation === "diff") return diffVerdict(facts, shop);
  if (shop.listing === undefined) return { kind: "needListing", target: shop.target };
  const refusal = pinRefusal(shop as Listed);
  if (refusal !== undefined) return { kind: "refuse", error: refusal };
  const live = shop.listing.find((s) => s.id === recorded.id);
  const written = writtenMatch(recorded, shop.listing);
  if (written !== undefined && (live === undefined || !isRecorded(live, recorded)))
    return { kind: "ours", target: shop.target, live: written };
  if (live === undefined) return movedVerdict(facts, shop as Listed) ?? goneVerdict(facts, shop as Listed);
  if (operation === "replace") return { kind: "ours", target: shop.target, live };
  if (!isRecorded(live, recorded)) return { kind: "taken", target: shop.target, live };
  return { kind: "ours", target: shop.target, live };
}

/**
 * A recorded id the shop no longer lists, while the listing shows the recorded shop holding the recorded hook
 * at the recorded URL under another id: that subscription is this resource's (a POST the service applied late,
 * after its client gave up and a retry was recorded, overwrote it with a new id; or the same URL was posted
 * again), unless another resource of this deployment holds it. Undefined when there is no such subscription.
 */
function movedVerdict(facts: RecordedFacts, shop: Listed): Verdict | undefined {
  const { recorded, operation } = facts;
  const identity = shopIdentityOf(shop.listing);
  if (recorded.shopId === undefined || identity === undefined || !isSameShop(identity, recorded)) return;
  const moved = shop.listing.find((s) => s.id !== recorded.id && isHookAtUrl(s, recorded));
  if (moved === undefined || facts.claimedLive?.includes(moved.id) === true) return;
  const warning = movedSubscription(recorded, shop.target, moved, operation);
  return { kind: "ours", target: shop.target, live: moved, warning };
}

/** For an unconfirmed write: the live subscription among its written ids that is this hook at this URL. */
function writtenMatch(
  recorded: Recorded,
  listing: readonly LiveSubscription[],
): LiveSubscription | undefined {
  const written = recorded.written;
  if (written === undefined) return undefined;
  return listing.find((s) => written.includes(s.id) && isHookAtUrl(s, recorded));
}

/** Diff and a replacement's create act on the shop the resource names (a changed shop input replaces). */
function named(facts: RecordedFacts): Placed {
  if ("missing" in facts.named) return { kind: "refuse", error: facts.named.missing };
  return { kind: "at", shop: facts.named };
}

/** Diff refuses, before any write, a resource whose shop now reaches another API or another shop. */
function diffVerdict(facts: RecordedFacts, shop: ShopFacts): Verdict {
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

/**
 * The configured shop that reaches the recorded subscription: the one the resource names when it is at the
 * recorded API and (when the service says) the recorded shop, else another configured shop that the service
 * reports to be the recorded one; else a refusal (the configuration was re-pointed, or the entry is gone). A
 * shop that lists nothing cannot say which it is: the named one is taken to be it (the gone question tells).
 */
function locate(facts: RecordedFacts): Placed {
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
function goneVerdict(facts: RecordedFacts, shop: Listed): Verdict {
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
