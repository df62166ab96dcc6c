/**
 * The vocabulary of the ownership rule (ownership.ts): the facts a verdict is decided from, the verdicts,
 * and the checks that the diff rule (diffRule.ts) and the read and delete rule (locateRule.ts) share: whether
 * a live subscription is the recorded one, a pinned shop's listing against its pin, and a recorded id the
 * service gave to another subscription of the same hook and URL. Pure, like the rule.
 */
import type { LiveSubscription } from "../client/apiSchemas";
import type { ShopTarget } from "../config/settings";
import type { ShippingConfigError } from "../errors/configError";
import { movedSubscription } from "../refusals/lateWrites";
import { NOTHING_WRITTEN, pinMismatch } from "../refusals/pin";
import { isHookAtUrl, isSameShop, type Recorded, type ShopIdentity, shopIdentityOf } from "./recorded";

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

/**
 * The recorded hook as the program of this deployment declares it, for one set of credentials: configured in
 * the deciding provider process (`shopKey`), or only in another process of the deployment (an explicit
 * provider's own key), placed by the shop the service reported for them.
 */
export interface Declared {
  /** The configured shop whose credentials declare it; absent: credentials configured in another process only. */
  readonly shopKey?: string;
  /**
   * For credentials of another process only: the service reported the recorded subscription's shop for them
   * (true), or no shop at all (absent: their listing failed before their create failed).
   */
  readonly inRecordedShop?: boolean;
  /** A resource declares it at the recorded URL (with or without others at other URLs). */
  readonly atRecordedUrl: boolean;
  /** A create of the hook in this shop failed in this deployment (under `up --continue-on-error`). */
  readonly createFailed: boolean;
  /**
   * A resource the program keeps unchanged declares it (its diff ran, with no change), through credentials of
   * another process: never the recorded resource itself, replaced. Its own record may be stale (another key's
   * create overwrote it), so its hook is not this delete's to unsubscribe.
   */
  readonly keptUnchanged?: boolean;
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
  /** Delete of a resource no longer declared: where the program declares its hook (any provider process). */
  readonly declaredIn?: readonly Declared[];
  /** The same, for a replacement's old half whose hook or shop changed: it leaves the hook to that resource. */
  readonly handedOnIn?: readonly Declared[];
  /**
   * Ids of the listed subscriptions, other than the recorded one, that another resource of this deployment
   * holds (created, adopted, kept, or took over by this rule): never this resource's. Absent: none.
   */
  readonly claimedLive?: readonly number[];
  readonly goneAnswer?: GoneAnswer;
  /** The shop was listed again for this decision, after this deployment's other writes (`afresh`). */
  readonly relisted?: boolean;
}

/** The decision about a recorded subscription. */
export type Verdict =
  | {
      readonly kind: "needListing";
      readonly target: ShopTarget;
      /** List again even if listed: writes of the deployment's other provider processes may have changed it. */
      readonly afresh?: true;
    }
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

/** A shop whose listing this deployment has. */
export type Listed = ShopFacts & { readonly listing: readonly LiveSubscription[] };
/** Where a recorded subscription is: at a shop, or a verdict already (a refusal, a fact needed). */
export type Placed = { readonly kind: "at"; readonly shop: Listed | ShopFacts } | Verdict;

/**
 * A recorded id the shop no longer lists, while the listing shows the recorded shop holding the recorded hook
 * at the recorded URL under another id: that subscription is this resource's (a POST the service applied late,
 * after its client gave up and a retry was recorded, overwrote it with a new id; or the same URL was posted
 * again), unless another resource of this deployment holds it. Undefined when there is no such subscription.
 */
export function movedVerdict(facts: RecordedFacts, shop: Listed): Verdict | undefined {
  const { recorded, operation } = facts;
  const identity = shopIdentityOf(shop.listing);
  if (recorded.shopId === undefined || identity === undefined || !isSameShop(identity, recorded)) return;
  const moved = shop.listing.find((s) => s.id !== recorded.id && isHookAtUrl(s, recorded));
  if (moved === undefined || facts.claimedLive?.includes(moved.id) === true) return;
  const warning = movedSubscription(recorded, shop.target, moved, operation);
  return { kind: "ours", target: shop.target, live: moved, warning };
}

/** Diff and a replacement's create act on the shop the resource names (a changed shop input replaces). */
export function named(facts: RecordedFacts): Placed {
  if ("missing" in facts.named) return { kind: "refuse", error: facts.named.missing };
  return { kind: "at", shop: facts.named };
}
