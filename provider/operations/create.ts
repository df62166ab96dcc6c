/**
 * `create`: subscribes the hook, taking over a live subscription of it: no write when its URL already
 * matches, else a POST (which overwrites it); `previous` records what was there. The creates of one shop share
 * one POST (writes/createBatch.ts).
 */
import type { ShopTarget } from "../config/settings";
import { type ShopIdentity, shopIdentityOf } from "../rules/recorded";
import { ReadBackFailure } from "../writes/createBatch";
import { pinnedListing } from "../writes/createPlans";
import type { Deployment } from "./deployment";
import { outputsOf, type SubscriptionOutputs, unconfirmedError } from "./records";
import { waitFor } from "./trace";
import { warn } from "./warnings";

/**
 * The body of `ShippingProvider.create`. A create that fails is remembered (with the shop the service named,
 * when its listing told it), so that the delete of a resource the program no longer declares keeps the hook
 * subscribed (`Declarations.declaredIn`).
 */
export async function createResource(
  d: Deployment,
  inputs: Record<string, unknown>,
): Promise<{ id: string; outs: SubscriptionOutputs }> {
  const target = d.targetOf(inputs.shop);
  const listed: Listed = {};
  return subscribe(d, inputs, target, listed).catch((error: unknown) => {
    d.declarations.createFailed(target, String(inputs.hook), listed.shop);
    throw error;
  });
}

/** What a create's listing told of its shop: the shop the service named, or that it listed nothing. */
interface Listed {
  shop?: ShopIdentity | "empty";
}

/** Subscribes the hook in `target`'s shop (adopting or POSTing) and says what the resource records. */
async function subscribe(
  d: Deployment,
  inputs: Record<string, unknown>,
  target: ShopTarget,
  listed: Listed,
): Promise<{ id: string; outs: SubscriptionOutputs }> {
  const hook = String(inputs.hook);
  const url = String(inputs.url);
  await settleReplaced(d, target);
  const listing = await waitFor("listing", () => pinnedListing(d.views, target));
  let identity = shopIdentityOf(listing);
  const told = listing.length === 0 ? "empty" : identity;
  if (told !== undefined) listed.shop = told;
  const request = { hook, url, takeOver: inputs.takeOver === true };
  const { id, current, seen, unconfirmed, takenOver } = await waitFor("batchWindow", () =>
    d.creates.add(target, identity, request),
  );
  const outs = outputsOf(inputs, target, id, current, takenOver === true);
  if (unconfirmed !== undefined)
    throw unconfirmedError(inputs, target, outs, unconfirmed.written, unconfirmed.cause);
  // A shop that listed nothing cannot say which shop it is; a read of the new id does (if the service says).
  if (identity === undefined && d.views.listedEmpty(target)) {
    const learnt = () => d.creates.learnShop(target, { id, hook, url }, seen);
    identity = await waitFor("readBack", learnt).catch((error: unknown) => {
      if (error instanceof ReadBackFailure) throw unconfirmedError(inputs, target, outs, [id], error.cause);
      throw error;
    });
  }
  return { id: String(id), outs: { ...outs, ...identity } };
}

/**
 * Before a create writes into (or adopts from) a shop: every recorded subscription this deployment replaces
 * in the shop is the shop's or gone. Else the key now reaches another shop, and the replacement would write
 * there before the old resource's delete found out.
 */
async function settleReplaced(d: Deployment, target: ShopTarget): Promise<void> {
  await Promise.all(
    d.claims.replacedIn(target).map(async (recorded) => {
      const verdict = await d.settle("replace", recorded, target);
      if (verdict.kind === "refuse") throw verdict.error;
      if (verdict.kind === "gone" && verdict.warning !== undefined) warn(verdict.warning);
      d.claims.settleReplaced(target, recorded.id);
    }),
  );
}
