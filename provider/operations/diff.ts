/**
 * `diff`: what a change of a resource's inputs does. Replacement on any change of hook, url or shop;
 * `__provider` is ignored. Refuses, before anything is written, a resource whose shop now resolves to another
 * API or (as the service reports it) another shop.
 */

import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import { type DiffDecision, diffInputs, UNKNOWN_VALUE } from "../inputs/lifecycle";
import { namedShopsOf, type Recorded, recordedIdentity } from "../rules/recorded";
import { createRefusalBeforeWrite } from "../writes/createPlans";
import type { Deployment } from "./deployment";
import { recordedOf } from "./records";
import { warnOfDrift } from "./warnings";

/** The body of `ShippingProvider.diff`. */
export async function diffResource(
  d: Deployment,
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<DiffDecision> {
  const decision = diffInputs(olds, news);
  const recorded = recordedOf(id, olds);
  if (decision.replaces.includes("shop") || news.shop === UNKNOWN_VALUE) {
    // The create decides under the new shop's write lane; what the resource records stays the stack's.
    d.records.noteWhereResolved(() => d.targetOf(recorded.shop), recorded);
    if (recorded.api !== undefined) d.records.noteDiffed(recorded.api, recorded.id, "handsOn");
    return decision;
  }
  const target = d.targetOf(news.shop);
  const kept = !decision.changes && d.declarations.wasChecked(target, recorded.hook, recorded.url);
  const verdict = await d.settle("diff", recorded, target);
  if (verdict.kind === "refuse") throw verdict.error;
  if (verdict.kind === "ours" && verdict.warning !== undefined) warnOfDrift(verdict.warning);
  d.records.note(target, recorded);
  const handsOn = decision.replaces.includes("hook");
  d.records.noteDiffed(recorded.api ?? target.api, recorded.id, handsOn ? "handsOn" : "keepsHook");
  if (decision.replaces.length > 0) {
    // Its create would overwrite a subscription made outside the stack: refused before any write.
    const takeover = await createRefusalBeforeWrite(d, news, target);
    if (takeover !== undefined) throw new ShippingError(takeover);
    // A replacement's create first settles that the recorded id is this shop's or gone.
    d.claims.noteReplaced(target, recorded);
  }
  if (kept) await keep(d, target, recorded);
  if (!decision.changes) {
    d.declarations.settleCreate(target, recorded.hook);
    d.creates.recheck(target);
  }
  return decision;
}

/**
 * A resource the program declares keeps this subscription: no delete of the deployment removes it, nor
 * unsubscribes its hook in the shop the service names (in state, and in the shop's listing, which diff has
 * read: state may name it without the account the listing names, or not at all), in any provider process; a
 * create of the same hook in the same shop under another key is a second declaration.
 */
async function keep(d: Deployment, target: ShopTarget, recorded: Recorded): Promise<void> {
  d.claims.keep(recorded.api ?? target.api, recorded.id);
  const listing = await d.views.listing(target).catch((error: unknown) => {
    if (error instanceof ShippingError) return undefined;
    throw error;
  });
  for (const shop of namedShopsOf(recorded, listing))
    d.declarations.placeKeptInSharedShop(target, shop, recorded.hook, recorded.url);
  const shop = recordedIdentity(recorded);
  if (shop !== undefined) d.creates.guardOneDeclaration(target, shop, recorded.hook);
}
