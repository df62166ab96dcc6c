/**
 * Settling the ownership rule (ownership.ts) for one recorded subscription: the rule asks for facts (a shop's
 * listing, the service's answer to whether an id is gone), this gathers them and asks again until it settles.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import type { Claims } from "../facts/claims";
import type { RecordedShop } from "../facts/deploymentDeclarations";
import type { ShopViews } from "../facts/shopViews";
import type { StackRecords } from "../facts/stackRecords";
import { decideRecorded } from "../rules/ownership";
import type { Declared, Operation, RecordedFacts, ShopFacts, Verdict } from "../rules/ownershipFacts";
import { namedShopsOf, type Recorded } from "../rules/recorded";
import type { Writes } from "../writes/writes";
import { waitFor } from "./trace";
import { warn } from "./warnings";

/** A decision asks for at most a listing per configured shop and one answer of the service; bounded anyway. */
const MAX_DECISION_ROUNDS = 32;

/** What settling a decision reads from and asks through. */
interface SettleContext {
  readonly views: ShopViews;
  readonly claims: Claims;
  readonly records: StackRecords;
  readonly writes: Writes;
  /** Resolves a shop name (undefined: the default shop); throws when it is not configured. */
  readonly resolve: (shop: string | undefined) => ShopTarget;
  /** Every configured shop. */
  readonly configured: () => ShopTarget[];
  /** How the program of this deployment declares the recorded hook (at its URL), shop by shop. */
  readonly declaredIn: (recorded: Recorded, at: RecordedShop) => Declared[];
}

/**
 * The verdict about `recorded` for `operation`. `named`: the shop the resource names (a name to resolve, or a
 * resolved target). Read and delete also look at the other configured shops at the recorded API (a renamed
 * entry, another key of the shop).
 */
export async function settleOwnership(
  ctx: SettleContext,
  operation: Operation,
  recorded: Recorded,
  named: ShopTarget | string | undefined,
): Promise<Verdict> {
  let namedFacts: RecordedFacts["named"];
  try {
    namedFacts = ctx.views.facts(typeof named === "object" ? named : ctx.resolve(named), recorded.id);
  } catch (error) {
    namedFacts = { missing: error };
  }
  const namedKey = "missing" in namedFacts ? undefined : namedFacts.target.shopKey;
  const others =
    operation === "read" || operation === "delete"
      ? ctx
          .configured()
          .filter((t) => t.api === recorded.api && t.shopKey !== namedKey)
          .map((t) => ctx.views.facts(t, recorded.id))
      : [];
  let facts: RecordedFacts = {
    operation,
    recorded,
    named: namedFacts,
    others,
    claimedAt: [],
  };
  for (let round = 0; round < MAX_DECISION_ROUNDS; round++) {
    const claimedAt = ctx.claims.claimedAt(recorded.id);
    const declared = operation === "delete" ? handedOn(ctx, facts) : {};
    const verdict = decideRecorded({
      ...facts,
      ...declared,
      claimedAt,
      claimedLive: claimedLive(ctx.claims, facts),
    });
    if (verdict.kind === "needListing") {
      if (verdict.afresh === true) ctx.views.forget(verdict.target);
      const listing = await waitFor("listing", () => ctx.views.listing(verdict.target));
      facts = withShop(facts, ctx.views.facts(verdict.target, recorded.id, listing));
      if (verdict.afresh === true) facts = { ...facts, relisted: true };
    } else if (verdict.kind === "needGoneAnswer") {
      const answer = await waitFor("goneAnswer", () => ctx.writes.goneAnswer(verdict.target, recorded.id));
      if (answer !== undefined) facts = { ...facts, goneAnswer: answer };
    } else return held(ctx.claims, operation, recorded, verdict);
  }
  return { kind: "refuse", error: new Error(`internal error: no verdict about subscription ${recorded.id}`) };
}

/** The listed ids, besides the recorded one, that another resource of this deployment holds. */
function claimedLive(claims: Claims, facts: RecordedFacts): number[] {
  const shops = "missing" in facts.named ? facts.others : [facts.named, ...facts.others];
  return shops.flatMap((shop) =>
    (shop.listing ?? [])
      .filter((s) => s.id !== facts.recorded.id && claims.holds(shop.target.api, s.id, facts.recorded.id))
      .map((s) => s.id),
  );
}

/**
 * Holds the live subscription of an `ours` verdict for this resource, so that no other resource of the
 * deployment takes it in place of its own gone id; one taken in place of the recorded id (a write applied
 * late, ownershipFacts.ts) is said by refresh and delete.
 */
function held(claims: Claims, operation: Operation, recorded: Recorded, verdict: Verdict): Verdict {
  if (verdict.kind !== "ours" || verdict.live === undefined) return verdict;
  // Its own id too: a resource whose recorded id is gone must not take it (first come, first held).
  claims.hold(verdict.target.api, verdict.live.id, recorded.id);
  if (verdict.live.id === recorded.id || recorded.written?.includes(verdict.live.id) === true) return verdict;
  // Through the host's sink: the plugin host's stderr is not shown by the CLI (warnings.ts).
  if (operation !== "diff" && verdict.warning !== undefined) warn(verdict.warning);
  return verdict;
}

/**
 * For a delete: how the program of this deployment declares the recorded hook, shop by shop (the rule decides
 * which of them keep it: ownership.ts `keepsHook`), for a resource removed from the program (no diff ran
 * for it: `declaredIn`) or a replacement's old half that hands its hook on (its hook or shop changed:
 * `handedOnIn`). A URL change's old half keeps its hook: its new half's create took the hook over, so only a
 * declaration whose create failed counts. Two records can hold one id (a hook handed on to a resource the
 * engine checked first, which adopted it): the delete of the other one is then no old half, and must not
 * unsubscribe the hook the one whose URL changed still declares.
 */
function handedOn(ctx: SettleContext, facts: RecordedFacts): Partial<RecordedFacts> {
  const { recorded, named } = facts;
  // State of 0.1 holds no API: the recorded id is one of the API its shop resolves to, as diff noted it.
  const api = recorded.api ?? ("missing" in named ? undefined : named.target.api);
  const diffed = api === undefined ? undefined : ctx.records.diffedAs(api, recorded.id);
  const identities = namedShopsOf(recorded, "missing" in named ? undefined : named.listing);
  const shops = ctx.declaredIn(recorded, { api: api ?? "", identities });
  if (diffed === "keepsHook") {
    const failed = shops.filter((shop) => shop.createFailed);
    return failed.length === 0 ? {} : { declaredIn: failed };
  }
  return diffed === undefined ? { declaredIn: shops } : { handedOnIn: shops };
}

/** The facts with one shop's (now listed) facts in place of what was known of it before. */
function withShop(facts: RecordedFacts, shop: ShopFacts): RecordedFacts {
  const same = (s: ShopFacts) => s.target.shopKey === shop.target.shopKey;
  const named = "missing" in facts.named || !same(facts.named) ? facts.named : shop;
  return { ...facts, named, others: facts.others.map((o) => (same(o) ? shop : o)) };
}

/** A refusal of the verdict, or an internal error for a verdict that does not fit the operation. */
export function settled(verdict: Verdict): unknown {
  const unexpected = () => new ShippingError(`internal error: unexpected verdict ${verdict.kind}`);
  return verdict.kind === "refuse" ? verdict.error : unexpected();
}
