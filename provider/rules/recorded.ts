/**
 * What state records of a subscription, and the shop the service reports on its subscriptions: the facts the
 * ownership rule (ownership.ts) and its messages (refusals/) are about.
 */
import { createHash } from "node:crypto";
import type { LiveSubscription } from "../client/apiSchemas";

/**
 * How a listing handed over by a preview's program carries each URL (previewListing.ts): a digest, so that no
 * URL of the shop reaches the engine (its verbose logs print every input). A callback URL never starts so.
 */
const URL_DIGEST_PREFIX = "sha256:";

/** The digest a handed listing gives in place of `url`. */
export function urlDigest(url: string): string {
  return `${URL_DIGEST_PREFIX}${createHash("sha256").update(url).digest("hex")}`;
}

/** Whether a listed URL (or its digest, in a handed listing) is `url`. */
export function isListedUrl(listed: string, url: string): boolean {
  return listed.startsWith(URL_DIGEST_PREFIX) ? listed === urlDigest(url) : listed === url;
}

/** A hook and the URL it calls, as declared, recorded or written. */
interface HookAtUrl {
  readonly hook: string;
  readonly url: string;
}

/**
 * Whether a live (or listed) subscription is `sub`'s hook calling `sub`'s URL (its listed URL may be a handed
 * listing's digest): the one question every "is this the subscription we declared, recorded or wrote?" asks.
 */
export function isHookAtUrl(live: HookAtUrl, sub: HookAtUrl): boolean {
  return live.hook === sub.hook && isListedUrl(live.url, sub.url);
}

/** A shop as the service reports it on its subscriptions. */
export interface ShopIdentity {
  readonly shopId: string;
  readonly accountId?: string;
}

/** Where state says a subscription lives. `api` is undefined in state written before 0.2. */
export interface RecordedPlace {
  readonly id: number;
  readonly hook: string;
  readonly shop: string | undefined;
  readonly api: string | undefined;
  readonly shopId: string | undefined;
  readonly accountId: string | undefined;
}

/** What state says about a resource's subscription. */
export interface Recorded extends RecordedPlace {
  readonly url: string;
  /**
   * For a write not yet confirmed (its read-back failed): every id its POST wrote. The recorded id is one of
   * them by the order of the answer; the one that is this hook at this URL is the resource's.
   */
  readonly written?: readonly number[];
}

/** The shop the service reports on any of a shop's subscriptions; undefined when none says. */
export function shopIdentityOf(subscriptions: readonly LiveSubscription[]): ShopIdentity | undefined {
  const reported = subscriptions.find((s) => s.shopId !== undefined);
  if (reported?.shopId === undefined) return undefined;
  return {
    shopId: reported.shopId,
    ...(reported.accountId !== undefined ? { accountId: reported.accountId } : {}),
  };
}

/** The shop the service named for a recorded subscription, when state holds it. */
export function recordedIdentity(recorded: RecordedPlace): ShopIdentity | undefined {
  if (recorded.shopId === undefined) return undefined;
  return {
    shopId: recorded.shopId,
    ...(recorded.accountId !== undefined ? { accountId: recorded.accountId } : {}),
  };
}

/**
 * Every shop the service named for a recorded subscription: in state, and in its shop's listing now (`listing`,
 * once listed), which names it when state was written before the service named shops (0.1) or without the
 * account it names now. Either may be the one another process placed a declaration of the hook in.
 */
export function namedShopsOf(
  recorded: RecordedPlace,
  listing: readonly LiveSubscription[] | undefined,
): ShopIdentity[] {
  const shops = [recordedIdentity(recorded), listing === undefined ? undefined : shopIdentityOf(listing)];
  return shops.filter((shop) => shop !== undefined);
}

/**
 * The shop as the service names it, as one key: its id, within its account when the service reports one (shop
 * ids are per account, so shop 1 of two accounts are two shops). What "the same shop under two keys" compares.
 */
export function serviceShopKey(identity: ShopIdentity): string {
  return identity.accountId === undefined ? identity.shopId : `${identity.accountId}\u0000${identity.shopId}`;
}

/** Whether the service's shop is the recorded one (the account, too, when both say). */
export function isSameShop(
  identity: ShopIdentity,
  recorded: { readonly shopId: string | undefined; readonly accountId?: string | undefined },
): boolean {
  return (
    identity.shopId === recorded.shopId &&
    (identity.accountId === undefined ||
      recorded.accountId === undefined ||
      identity.accountId === recorded.accountId)
  );
}
