/**
 * The ownership rule: from what a resource recorded, what is configured and what the service reported,
 * whether a subscription is this resource's to act on (ours), gone, someone else's now (taken), held by
 * another resource of this deployment (claimed), or must be refused. Pure: the provider gathers the facts a
 * verdict asks for (`need`) and asks again (operations/settle.ts). This file decides; diffRule.ts holds
 * diff's verdict, locateRule.ts where the recorded subscription of a read or a delete is and whether an
 * unlisted one is gone, ownershipFacts.ts the facts and verdicts they share; a create's rule is createRule.ts.
 * test/ownership/ownership.read.test.ts and test/ownership/ownership.writes.test.ts state the rule as tables.
 */
import type { LiveSubscription } from "../client/apiSchemas";
import type { ShopTarget } from "../config/settings";
import { declaredElsewhere } from "../refusals/takeoverMessages";
import { diffVerdict } from "./diffRule";
import { goneVerdict, locate } from "./locateRule";
import {
  type Declared,
  isRecorded,
  type Listed,
  movedVerdict,
  named,
  pinRefusal,
  type RecordedFacts,
  type ShopFacts,
  type Verdict,
} from "./ownershipFacts";
import { isHookAtUrl, isSameShop, type Recorded, shopIdentityOf } from "./recorded";

/**
 * The verdict about a recorded subscription, or the fact it needs next. A delete never unsubscribes a hook
 * that another resource of the deployment declares for the same shop (its create may have failed:
 * `--continue-on-error`), as the shop's listing shows after every write of the deployment so far.
 */
export function decideRecorded(facts: RecordedFacts): Verdict {
  const verdict = decideAlone(facts);
  if (facts.operation !== "delete" || verdict.kind !== "ours") return verdict;
  // The live subscription is that resource's as declared: left to it, as one this deployment holds.
  const declarations = [...(facts.declaredIn ?? []), ...(facts.handedOnIn ?? [])];
  if (declarations.some((d) => d.keptUnchanged === true && d.atRecordedUrl)) return { kind: "claimed" };
  const handedOn = declaresIn(facts, facts.handedOnIn, verdict.target);
  if (handedOn !== false) return handedOn === true ? { kind: "claimed" } : handedOn;
  const declared = declaresIn(facts, facts.declaredIn, verdict.target);
  if (declared !== true) return declared === false ? verdict : declared;
  // That resource may have taken the hook over in another provider process since this one listed the shop.
  if (facts.relisted !== true) return { kind: "needListing", target: verdict.target, afresh: true };
  const live = verdict.live ?? facts.recorded;
  return { kind: "refuse", error: declaredElsewhere(verdict.target, { id: live.id, hook: live.hook }) };
}

/**
 * Whether a declaration of the recorded hook keeps it from a delete: one at another URL; one at the recorded URL
 * only when the hook's create failed in this deployment (a rename without an alias that kept the URL). Else a
 * declaration of the recorded URL may be the recorded resource itself, replaced by `up --replace`: the engine
 * checks it with no old inputs and runs no diff for it, and under `deleteBeforeReplace` its create comes after
 * this delete. Credentials of another process that the service placed in no shop keep it only with a failed
 * create (which the next `up` tries again): else a hook of another shop would keep it. A resource kept
 * unchanged keeps it at any URL: it is no replacement.
 */
export function keepsHook(declared: Declared): boolean {
  if (declared.keptUnchanged === true) return true;
  if (declared.shopKey === undefined && declared.inRecordedShop !== true) return declared.createFailed;
  return !declared.atRecordedUrl || declared.createFailed;
}

/**
 * Whether a declaration that keeps the hook (`keepsHook`) is in `at`'s shop: credentials of another process
 * that the service placed in the recorded shop, or that it could not place; a configured key of `at`'s shop,
 * or another configured key that the service reports to be the same shop (both listings name it; a listing
 * this needs is asked for first). A shop whose listing names no shop cannot be told: not the same.
 */
function declaresIn(
  facts: RecordedFacts,
  declared: readonly Declared[] | undefined,
  at: ShopTarget,
): boolean | Verdict {
  const keeping = (declared ?? []).filter(keepsHook);
  if (keeping.some((d) => d.shopKey === undefined)) return true;
  const shopKeys = keeping.flatMap((d) => (d.shopKey === undefined ? [] : [d.shopKey]));
  if (shopKeys.length === 0) return false;
  if (shopKeys.includes(at.shopKey)) return true;
  const shops = [facts.named, ...facts.others].filter((s): s is ShopFacts => !("missing" in s));
  const here = shops.find((s) => s.target.shopKey === at.shopKey);
  for (const other of shops.filter((s) => shopKeys.includes(s.target.shopKey))) {
    if (here === undefined) return false;
    if (here.listing === undefined) return { kind: "needListing", target: here.target };
    if (other.listing === undefined) return { kind: "needListing", target: other.target };
    const identity = shopIdentityOf(here.listing);
    const theirs = shopIdentityOf(other.listing);
    if (identity !== undefined && theirs !== undefined && isSameShop(identity, theirs)) return true;
  }
  return false;
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
  if (!isRecorded(live, recorded)) return { kind: "taken", target: shop.target, live };
  return { kind: "ours", target: shop.target, live };
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
