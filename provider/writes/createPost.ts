/**
 * The POST of a batch of creates, and the read-back that matches its answered ids to hooks. The POST is never
 * retried blind: one that failed with no answer may have been applied anyway, which a fresh listing tells.
 */
import type { LiveSubscription } from "../client/apiSchemas";
import type { NewSubscription } from "../client/shippingClient";
import type { Clients } from "../config/clients";
import type { ShopTarget } from "../config/settings";
import { ShippingRequestError } from "../errors/requestError";
import { ShippingError } from "../errors/shippingError";
import type { ShopViews } from "../facts/shopViews";
import { waitFor } from "../operations/trace";
import { outcomeUnknown, unmatchedId } from "../refusals/createOutcomes";
import { outcomeIsUnknown, unseenWrite } from "../refusals/lateWrites";
import { isHookAtUrl, shopIdentityOf } from "../rules/recorded";
import type { ItemResult } from "./batcher";
import type { Writes } from "./writes";

/** Statuses by which the service refuses what was sent (not who sent it): each item is tried on its own. */
const ITEM_REFUSALS = new Set([400, 409, 422]);

/** A write the service answered but that could not be read back: which ids the POST wrote, and why. */
export interface Unconfirmed {
  /** Every id the POST answered (this create's is one of them, by the order of the answer). */
  readonly written: readonly number[];
  /** How many hooks the POST held. */
  readonly hooks: number;
  readonly cause: unknown;
}

/** A written subscription's id, and whether it was seen live with its hook and URL afterwards. */
export interface Written {
  readonly id: number;
  readonly seen: boolean;
  readonly unconfirmed?: Unconfirmed;
}

/** What a POST goes through: the shop's client, its view and the deployment's writes (relist, read back). */
interface PostContext {
  readonly clients: Clients;
  readonly views: ShopViews;
  readonly writes: Writes;
}

/**
 * One POST, never retried blind. Failed with no answer (timeout, reset, 5xx) it may be applied anyway, even
 * late: a fresh listing tells, and one applied later is the resource's by hook and URL (ownershipFacts.ts). A
 * refusal or a 500 of several hooks sends each alone, to fail only its own; an unknown outcome (no answer,
 * 502/504) never.
 */
export async function postAll(
  ctx: PostContext,
  target: ShopTarget,
  subs: readonly NewSubscription[],
): Promise<ItemResult<Written>[]> {
  if (subs.length === 0) return [];
  const { clients, views } = ctx;
  let ids: number[];
  try {
    ids = await waitFor("post", () => clients.for(target).create(subs));
  } catch (error) {
    views.forget(target);
    const refusal = error instanceof ShippingRequestError && error.status < 500 && error.status !== 429;
    if (refusal && (subs.length === 1 || !ITEM_REFUSALS.has(error.status)))
      return subs.map(() => ({ error }));
    // No pin check here: an applied write found below is read back and checked by its create, like any.
    const applied = refusal ? [] : await waitFor("relist", () => ctx.writes.relist(target));
    // Applied or not, nobody can tell: sending it again would only hide that, so each create fails saying so.
    if (applied === undefined) {
      const unknown = new ShippingError(outcomeUnknown(target, subs, error), { cause: error });
      return subs.map(() => ({ error: unknown }));
    }
    return Promise.all(
      subs.map(async (sub): Promise<ItemResult<Written>> => {
        const found = applied.find((s) => isHookAtUrl(s, sub));
        if (found !== undefined) return { value: { id: found.id, seen: true } };
        if (subs.length > 1 && !outcomeIsUnknown(error))
          return (await postAll(ctx, target, [sub]))[0] as ItemResult<Written>;
        return { error: unseenWrite(target, sub.hook, error) };
      }),
    );
  }
  return subs.length === 1
    ? [{ value: { id: ids[0] as number, seen: false } }]
    : matchIds(ctx, target, subs, ids);
}

/**
 * Which answered id is which hook's: the spec does not say that the ids come back in the order of the
 * request, so they are read back (one GET of all of them) and matched by hook and URL. The read also tells
 * the shop the service reports, so an empty shop needs no other read-back.
 */
async function matchIds(
  ctx: PostContext,
  target: ShopTarget,
  subs: readonly NewSubscription[],
  ids: readonly number[],
): Promise<ItemResult<Written>[]> {
  const { views, writes } = ctx;
  let live: LiveSubscription[];
  try {
    live = await waitFor("readBack", () => writes.confirm(target, ids));
  } catch (cause) {
    await writes.undoIfUncheckable(target, ids, cause);
    // Recorded (as unconfirmed) by the order of the answer, which every known service keeps; a later
    // refresh or up reads them back and matches them by hook and URL among the written ids.
    return subs.map((sub, i) => {
      const id = ids[i];
      if (id === undefined) return { error: unmatchedId(ids, subs.length, sub.hook) };
      return { value: { id, seen: false, unconfirmed: { written: ids, hooks: subs.length, cause } } };
    });
  }
  void views.readBackIdentity(target, async () => shopIdentityOf(live));
  return subs.map((sub) => {
    const found = live.find((s) => isHookAtUrl(s, sub));
    if (found !== undefined) return { value: { id: found.id, seen: true } };
    return { error: unmatchedId(ids, subs.length, sub.hook) };
  });
}
