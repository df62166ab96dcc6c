/**
 * The provider's implementation, loaded by package name inside the dynamic-provider process (see
 * dynamicProvider.ts). One provider process serves one deployment; what it knows lives in one
 * {@link Deployment}.
 */

import { BATCH_WINDOW_MS, Batcher, type ItemResult } from "./batcher";
import type { LiveSubscription } from "./client/apiSchemas";
import type { NewSubscription } from "./client/shippingClient";
import { Deployment } from "./deployment";
import { ShippingConfigError } from "./errors/configError";
import { ShippingRequestError } from "./errors/requestError";
import { ShippingError } from "./errors/shippingError";
import { askingWhetherGone, confirmGone, type QuestionPurpose } from "./goneQuestions";
import { IdBatcher } from "./idBatcher";
import { type CheckFailure, checkInputs, type DiffDecision, diffInputs, UNKNOWN_VALUE } from "./lifecycle";
import { configuredTargets, resolveShop, type ShopTarget } from "./settings";
import { checkWrittenPin, readBackFailed } from "./shopPin";
import {
  entryGone,
  type RecordedPlace,
  type ShopIdentity,
  shopCannotSay,
  shopIdentityOf,
  targetChanged,
} from "./targetChange";

/** Outputs of a WebhookSubscription as stored in state. */
export interface SubscriptionOutputs {
  hook: string;
  url: string;
  shop?: string;
  subscriptionId: number;
  /** The API that issued the id (canonical base URL, no credential): an id means something only there. */
  api: string;
  /** The shop the service says the subscription belongs to (`shop_id`), when it says so. */
  shopId?: string;
  /** The account the service says the subscription belongs to (`account_id`), when it says so. */
  accountId?: string;
  /** The subscription the hook had when this resource was created (taken over or overwritten). */
  previous?: { id: number; url: string };
}

const deployment = new Deployment();

/** Read-back of just-created ids, to learn the shop the service reports for them; batched per shop. */
const readBacks = new IdBatcher<ShopTarget, LiveSubscription>(
  (target) => target.shopKey,
  async (target, ids) => new Map((await deployment.client(target).list(ids)).map((s) => [s.id, s])),
);

const deletes = new IdBatcher<ShopTarget, true>(
  (target) => target.shopKey,
  async (target, ids) => {
    const listing = await deployment.listing(target);
    await deployment.exclusive(writeLane(target, shopIdentityOf(listing)), async () => {
      // Under the shop's write lane: every earlier create of the deployment is in the listing and the claims.
      const current = await deployment.listing(target);
      const owned = ids.filter((id) => {
        const recorded = deployment.queuedDelete(target, id) as Recorded | undefined;
        const live = current.find((s) => s.id === id);
        return (
          recorded !== undefined &&
          live !== undefined &&
          isRecorded(live, recorded) &&
          !deployment.claimed(target.api, id)
        );
      });
      await deleteIds(target, owned);
    });
    deployment.dequeueDeletes(target, ids);
    return new Map(ids.map((id) => [id, true as const]));
  },
);

async function deleteIds(target: ShopTarget, ids: number[]): Promise<void> {
  const client = deployment.client(target);
  try {
    await client.delete(ids);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    // One of the ids vanished meanwhile; the API may have refused the whole batch, so go one by one.
    if (ids.length > 1) await Promise.all(ids.map((id) => client.delete([id]).catch(ignoreNotFound)));
  } finally {
    deployment.recordDelete(target, ids);
  }
}

/**
 * For a failed read-back of ids just written: in a pinned shop that listed nothing (so the write is not
 * checked against the pin yet), the write is undone before the failure is reported (shopPin.ts).
 */
function unchecked(target: ShopTarget, ids: readonly number[]): (error: unknown) => Promise<never> {
  return async (error) => {
    if (target.pin === undefined || !deployment.listedEmpty(target)) throw error;
    // An earlier write of the deployment told the shop, and the listing's pin check passed: nothing to undo.
    const known = await deployment.listing(target).then(shopIdentityOf, () => undefined);
    if (known !== undefined) throw error;
    return readBackFailed(target, ids, (undone) => deleteIds(target, [...undone]), error);
  };
}

/** The lane that orders one shop's writes: the shop as the service reports it, else the credentials. */
function writeLane(target: ShopTarget, identity: ShopIdentity | undefined): string {
  return identity === undefined ? target.shopKey : `${target.api}#shop:${identity.shopId}`;
}

function isNotFound(error: unknown): boolean {
  return error instanceof ShippingRequestError && error.status === 404;
}

function ignoreNotFound(error: unknown): void {
  if (!isNotFound(error)) throw error;
}

function targetOf(shop: unknown): ShopTarget {
  return resolveShop(typeof shop === "string" ? shop : undefined, deployment.config, process.env);
}

function subscriptionIdOf(id: string): number {
  if (!/^\d{1,15}$/.test(id))
    throw new ShippingError(`"${id}" is not a subscription id (a positive integer)`);
  return Number(id);
}

/** What state says about a resource's subscription; `api` is undefined in state written before 0.2. */
interface Recorded extends RecordedPlace {
  readonly url: string;
}

function recordedOf(id: string, props: Record<string, unknown>): Recorded {
  return {
    id: subscriptionIdOf(id),
    hook: String(props.hook),
    url: String(props.url),
    shop: typeof props.shop === "string" ? props.shop : undefined,
    api: typeof props.api === "string" ? props.api : undefined,
    shopId: optionalString(props.shopId),
    accountId: optionalString(props.accountId),
  };
}

function optionalString(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

async function identityOf(target: ShopTarget): Promise<ShopIdentity | undefined> {
  return shopIdentityOf(await deployment.listing(target));
}

/**
 * The configured shop that reaches the recorded subscription: the one the resource names when it is at the
 * recorded API and (when known) is the recorded shop, else any other configured shop that is. Throws when
 * none is: the configuration was re-pointed, and acting on the ids at the new target would touch
 * subscriptions this resource never created.
 */
async function locate(recorded: Recorded): Promise<ShopTarget> {
  let named: ShopTarget | undefined;
  let namedError: unknown;
  try {
    named = targetOf(recorded.shop);
  } catch (error) {
    namedError = error;
  }
  if (recorded.api === undefined || (named !== undefined && named.api === recorded.api)) {
    if (named === undefined) throw namedError;
    if (recorded.shopId === undefined) return named;
    const identity = await identityOf(named);
    // A shop that lists nothing cannot say which it is: it is taken to be the recorded one (see README).
    if (identity === undefined || isSameShop(identity, recorded)) return named;
    return locateElsewhere(recorded, named, identity);
  }
  return locateElsewhere(recorded, named, undefined, namedError);
}

/**
 * Another configured shop that the service reports to be the recorded one (never one that cannot say which
 * shop it is: acting there would take an empty or silent shop for the recorded one).
 */
async function locateElsewhere(
  recorded: Recorded,
  named: ShopTarget | undefined,
  namedIdentity: ShopIdentity | undefined,
  namedError?: unknown,
): Promise<ShopTarget> {
  const others = configuredTargets(deployment.config, process.env).filter(
    (t) => t.api === recorded.api && t.shopKey !== named?.shopKey,
  );
  if (recorded.shopId !== undefined) {
    for (const other of others) {
      const identity = await identityOf(other);
      if (identity !== undefined && isSameShop(identity, recorded)) return other;
    }
  }
  if (named === undefined) throw entryGone(recorded, namedError);
  return Promise.reject(targetChanged(recorded, named, namedIdentity));
}

function isSameShop(identity: ShopIdentity, recorded: RecordedPlace): boolean {
  return (
    identity.shopId === recorded.shopId &&
    (identity.accountId === undefined ||
      recorded.accountId === undefined ||
      identity.accountId === recorded.accountId)
  );
}

/** Whether a live subscription is the recorded one: same id, hook, URL and (when both are known) shop. */
function isRecorded(live: LiveSubscription, recorded: Recorded): boolean {
  const identity = shopIdentityOf([live]);
  return (
    live.hook === recorded.hook &&
    live.url === recorded.url &&
    (recorded.shopId === undefined || identity === undefined || isSameShop(identity, recorded))
  );
}

/** Says why a subscription is left alone. Names no URL: it may be a secret, even its host name. */
function warnNotOurs(live: LiveSubscription, action: string): void {
  process.stderr.write(
    `shipping: subscription ${live.id} (${live.hook}) now points at another URL than this resource declared (changed in the back office or by another stack): ${action}\n`,
  );
}

/** Stores the stack configuration the engine hands over; values are read from it at call time. */
export async function configure(req: { config: { get(key: string): string | undefined } }): Promise<void> {
  deployment.config = (key) => req.config.get(key);
}

/**
 * Validates inputs: the URL and hook rules, the shop's credentials, one declaration per hook per shop (where
 * the same API and key count as the same shop whatever the shop is called), and, for a pinned shop only, that
 * its key reaches the pinned shop (one listing per shop per deployment; no other API call).
 */
export async function check(
  _olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const result = checkInputs(news);
  const { shop, hook } = result.inputs;
  if (result.failures.some((f) => f.property === "shop") || shop === UNKNOWN_VALUE) return result;
  let target: ShopTarget;
  try {
    target = targetOf(shop);
  } catch (error) {
    if (!(error instanceof ShippingError)) throw error;
    result.failures.push({ property: "shop", reason: error.message });
    return result;
  }
  if (
    typeof hook !== "string" ||
    hook === UNKNOWN_VALUE ||
    result.failures.some((f) => f.property === "hook")
  )
    return result;
  if (target.pin !== undefined) {
    // A pinned shop is checked here, before any step of the deployment writes: also an added resource, a
    // rename without an alias or `up --replace`, which the engine ties to no recorded resource (one listing).
    try {
      await deployment.listing(target);
    } catch (error) {
      if (!(error instanceof ShippingConfigError)) throw error;
      result.failures.push({ property: "shop", reason: error.message });
      return result;
    }
  }
  if (typeof result.inputs.url === "string") deployment.recordChecked(target, hook, result.inputs.url);
  deployment.awaitCreate(target, hook);
  const earlier = deployment.declare(target, hook);
  if (earlier !== undefined) {
    result.failures.push({
      property: "hook",
      reason: `${hook} is declared twice for one shop: another WebhookSubscription of this stack declares it for shop ${earlier.label}, which is the same shop as ${target.label} (the same API key at ${target.api}). A shop has one subscription per hook: remove one of the two declarations`,
    });
  }
  return result;
}

/**
 * Replacement on any change of hook, url or shop; `__provider` is ignored. Refuses, before anything is
 * written, a resource whose shop now resolves to another API or (as the service reports it) another shop.
 */
export async function diff(
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<DiffDecision> {
  const decision = diffInputs(olds, news);
  if (decision.replaces.includes("shop") || news.shop === UNKNOWN_VALUE) return decision;
  const recorded = recordedOf(id, olds);
  const target = targetOf(news.shop);
  const kept = !decision.changes && deployment.wasChecked(target, recorded.hook, recorded.url);
  // State written by 0.1 records no API or shop: nothing to compare (the replacement's create still asks).
  if (recorded.api !== undefined) await refuseTargetChange(recorded, target);
  // A replacement's create asks first whether the recorded id is this shop's (see settleReplaced).
  if (decision.replaces.length > 0) deployment.noteReplaced(target, recorded);
  return keep(decision, kept, target, recorded);
}

/**
 * Refuses, before any write, a resource whose shop now resolves to another API or (as the service reports it)
 * another shop than the one that issued its recorded subscription.
 */
async function refuseTargetChange(recorded: Recorded, target: ShopTarget): Promise<void> {
  if (target.api !== recorded.api) throw targetChanged(recorded, target, undefined);
  if (recorded.shopId === undefined) return;
  const listing = await deployment.listing(target);
  const identity = shopIdentityOf(listing);
  if (identity !== undefined && !isSameShop(identity, recorded))
    throw targetChanged(recorded, target, identity);
  // The shop lists nothing, so it cannot say which shop its key reaches: the recorded subscription was
  // deleted in the back office, or the key now reaches another, empty shop. Acting either way could report
  // success with the hook unsubscribed or orphan the old subscription: refuse before any write, saying how
  // to go on in each case.
  if (listing.length === 0) throw shopCannotSay(recorded, target);
}

/**
 * Records a resource the program declares in this deployment (it was checked) and that keeps its
 * subscription, so that no delete of the deployment removes it. (Refresh diffs too, and a resource refreshed
 * before its own destroy must not protect itself.)
 */
function keep(decision: DiffDecision, kept: boolean, target: ShopTarget, recorded: Recorded): DiffDecision {
  if (kept) {
    deployment.recordKept(recorded.api ?? target.api, recorded.id);
    // The hook is declared for this shop as the service reported it: a create of the same hook in the same
    // shop under another key (in this deployment) is a second declaration, whether it writes or adopts.
    if (recorded.shopId !== undefined)
      guardOneDeclaration(target, { shopId: recorded.shopId }, recorded.hook);
  }
  if (!decision.changes) {
    deployment.settleCreate(target, recorded.hook);
    creates.recheck({ target, identity: undefined });
  }
  return decision;
}

/**
 * Subscribes the hook. When the shop already has a subscription for it, this takes it over: no write if
 * the URL already matches, else a POST (which overwrites it). `previous` records what was there. The
 * creates of one shop that arrive together share one POST.
 */
export async function create(
  inputs: Record<string, unknown>,
): Promise<{ id: string; outs: SubscriptionOutputs }> {
  const hook = String(inputs.hook);
  const url = String(inputs.url);
  const target = targetOf(inputs.shop);
  await settleReplaced(target);
  let identity = shopIdentityOf(await deployment.listing(target));
  const { id, current, seen } = await creates.add({ target, identity }, { hook, url });
  if (identity === undefined && deployment.listedEmpty(target)) {
    // The shop listed nothing to say which shop it is; a read of a new id does (if the service says).
    const written = seen ? undefined : await readBacks.load(target, id).catch(unchecked(target, [id]));
    // Gone already: something overwrote the hook between the POST and this read, such as a declaration of
    // the same hook in the same shop under another key (whose writes are not ordered with these while the
    // shop cannot say which it is). Recording the id would report success for a subscription that is gone.
    if (!seen && (written === undefined || written.hook !== hook || written.url !== url))
      throw overwrittenAtOnce(id, hook);
    identity = await deployment
      .readBackIdentity(target, async () =>
        shopIdentityOf([written ?? (await readBacks.load(target, id)) ?? { id, hook, url }]),
      )
      .catch(unchecked(target, [id]));
    await checkWrittenPin(target, identity, [id], (ids) => deleteIds(target, [...ids]));
    if (identity !== undefined) {
      guardOneDeclaration(target, identity, hook);
      deployment.recordCreate(target, { id, hook, url, ...identity });
    }
  }
  const outs: SubscriptionOutputs = {
    hook,
    url,
    ...(typeof inputs.shop === "string" ? { shop: inputs.shop } : {}),
    subscriptionId: id,
    api: target.api,
    ...identity,
    ...(current !== undefined ? { previous: { id: current.id, url: current.url } } : {}),
  };
  return { id: String(id), outs };
}

/** The shop a batch of creates writes to, and the shop the service reported for it when the batch began. */
interface CreateGroup {
  readonly target: ShopTarget;
  readonly identity: ShopIdentity | undefined;
}

/** What a create wrote or adopted, and the subscription the hook had before. */
interface Created {
  readonly id: number;
  readonly current: LiveSubscription | undefined;
  /** Whether it was seen live with its hook and URL after the write (or adopted from a listing). */
  readonly seen: boolean;
}

/** A written subscription's id, and whether it was seen live with its hook and URL afterwards. */
interface Written {
  readonly id: number;
  readonly seen: boolean;
}

/**
 * Longest a create waits for the other creates of its shop that this deployment declares (checked) and has
 * not created yet, in ms. The engine starts a shop's creates one checkpoint save apart, which grows with the
 * stack (over 25 ms at a few hundred resources); the wait ends as soon as the last of them arrives.
 */
export const CREATE_WAIT_MS = 1_000;
/**
 * A waiting create goes when no create of any shop arrived for this long, in ms: the engine is not starting
 * more (it runs few steps at once, for example `--parallel 1`, and starts the next only when this one ends).
 */
export const CREATE_IDLE_MS = 100;

/**
 * The creates of one set of credentials, run as one batch in the shop's write lane: sent once every hook the
 * program declares for the shop and may still create has arrived, else after the window.
 */
const creates = new Batcher<CreateGroup, NewSubscription, Created>(
  ({ target }) => target.shopKey,
  ({ target, identity }, requests) => {
    // Sent: these creates came, so a sibling that arrives while the batch is in flight waits for none of them.
    for (const { hook } of requests) deployment.settleCreate(target, hook);
    return deployment.exclusive(writeLane(target, identity), () => createAll(target, identity, requests));
  },
  {
    windowMs: ({ target }) => (deployment.awaitedCreates(target).size > 1 ? CREATE_WAIT_MS : BATCH_WINDOW_MS),
    idleMs: CREATE_IDLE_MS,
    complete: ({ target }, requests) => {
      const awaited = deployment.awaitedCreates(target);
      return awaited.size > 0 && [...awaited].every((hook) => requests.some((r) => r.hook === hook));
    },
  },
);

/**
 * Under the shop's write lane (the listing has every earlier write of the deployment applied): adopts each
 * hook whose subscription already has the URL, and POSTs the others in one request.
 */
async function createAll(
  target: ShopTarget,
  identity: ShopIdentity | undefined,
  requests: readonly NewSubscription[],
): Promise<ItemResult<Created>[]> {
  const listing = await deployment.listing(target);
  const results: ItemResult<Created>[] = [];
  const toPost: number[] = [];
  const hooks = new Set<string>();
  requests.forEach(({ hook, url }, i) => {
    try {
      if (hooks.has(hook)) throw declaredTwice(target, identity?.shopId, hook);
      hooks.add(hook);
      if (identity !== undefined) guardOneDeclaration(target, identity, hook);
    } catch (error) {
      results[i] = { error };
      return;
    }
    const current = listing.find((s) => s.hook === hook);
    if (current !== undefined && deployment.kept(target.api, current.id)) {
      // Another resource of the program keeps this subscription (the same shop under another key, deployed
      // before): adopting it would make two resources record one subscription, and overwriting it would leave
      // that resource recording a subscription that is gone.
      results[i] = { error: declaredTwice(target, identity?.shopId, hook) };
    } else if (current !== undefined && current.url === url)
      results[i] = { value: { id: current.id, current, seen: true } };
    else toPost.push(i);
  });
  const posted = await postAll(
    target,
    toPost.map((i) => requests[i] as NewSubscription),
  );
  toPost.forEach((requestIndex, j) => {
    const outcome = posted[j] as ItemResult<Written>;
    const current = listing.find((s) => s.hook === requests[requestIndex]?.hook);
    results[requestIndex] = "error" in outcome ? outcome : { value: { ...outcome.value, current } };
  });
  results.forEach((result, i) => {
    const request = requests[i] as NewSubscription;
    if ("value" in result) deployment.recordCreate(target, { id: result.value.id, ...request, ...identity });
  });
  return results;
}

/** Statuses by which the service refuses what was sent (not who sent it): each item is tried on its own. */
const ITEM_REFUSALS = new Set([400, 409, 422]);

/**
 * One POST of the hooks. When it fails without an answer from the service (a dropped connection, a timeout,
 * a 5xx), the write may have been applied all the same: a fresh listing tells, and an applied write is taken
 * as done, so it is recorded in state rather than left behind. When the service refuses the content of a
 * request of several hooks, each is sent again alone, so that a refusal fails only the hook it is about.
 */
async function postAll(target: ShopTarget, subs: readonly NewSubscription[]): Promise<ItemResult<Written>[]> {
  if (subs.length === 0) return [];
  const client = deployment.client(target);
  let ids: number[];
  try {
    ids = await client.create(subs);
  } catch (error) {
    deployment.forgetListing(target);
    const refusal = error instanceof ShippingRequestError && error.status < 500 && error.status !== 429;
    if (refusal && (subs.length === 1 || !ITEM_REFUSALS.has(error.status)))
      return subs.map(() => ({ error }));
    // Not the pin's check here: an applied write into a pinned shop that listed nothing is found, then read
    // back and checked (and undone) by its create, like an answered one.
    const applied = refusal ? [] : await deployment.listing(target, { checkPin: false }).catch(() => []);
    return Promise.all(
      subs.map(async (sub): Promise<ItemResult<Written>> => {
        const found = applied.find((s) => s.hook === sub.hook && s.url === sub.url);
        if (found !== undefined) return { value: { id: found.id, seen: true } };
        // Sent again alone, so that what fails is this hook's own failure (a refusal of its content, or a
        // 5xx one hook's content may cause), not its shop's.
        if (subs.length > 1) return (await postAll(target, [sub]))[0] as ItemResult<Written>;
        return { error };
      }),
    );
  }
  return subs.length === 1 ? [{ value: { id: ids[0] as number, seen: false } }] : matchIds(target, subs, ids);
}

/**
 * Which answered id is which hook's: the spec does not say that the ids come back in the order of the
 * request, so they are read back (one GET of all of them) and matched by hook and URL. The read also tells
 * the shop the service reports, so an empty shop needs no other read-back.
 */
async function matchIds(
  target: ShopTarget,
  subs: readonly NewSubscription[],
  ids: readonly number[],
): Promise<ItemResult<Written>[]> {
  const live = await deployment.client(target).list(ids).catch(unchecked(target, ids));
  void deployment.readBackIdentity(target, async () => shopIdentityOf(live));
  return subs.map((sub) => {
    const found = live.find((s) => s.hook === sub.hook && s.url === sub.url);
    if (found !== undefined) return { value: { id: found.id, seen: true } };
    return {
      error: new ShippingError(
        `POST /webhook_subscriptions answered ids ${ids.join(", ")} for ${subs.length} hooks, but none of them is ${sub.hook} at the requested URL when read back; run \`pulumi up\` again (the hook is taken over if it was written)`,
      ),
    };
  });
}

/** Fails a create of a hook that a create of this deployment wrote in the same shop under another name or key. */
function guardOneDeclaration(target: ShopTarget, identity: ShopIdentity, hook: string): void {
  if (deployment.createIn(target, identity.shopId, hook) === undefined) return;
  throw declaredTwice(target, identity.shopId, hook);
}

function overwrittenAtOnce(id: number, hook: string): ShippingError {
  return new ShippingError(
    `POST /webhook_subscriptions answered id ${id} for ${hook}, but reading it back found it gone or changed: something overwrote ${hook} at once. If this stack declares ${hook} for the same shop under two shop entries or keys, remove one of the two; otherwise run \`pulumi up\` again`,
  );
}

function declaredTwice(target: ShopTarget, shopId: string | undefined, hook: string): ShippingError {
  return new ShippingError(
    `${hook} is declared twice for shop ${shopId ?? target.label} at ${target.api}: shop ${target.label} and another shop entry of this stack are the same shop (the service reports the same shop_id for both keys, or they have the same key). A shop has one subscription per hook: remove one of the two declarations`,
  );
}

/**
 * Reads the live subscription. It is this resource's only when id, hook, URL and shop match; anything else
 * (deleted, re-pointed by another stack or the back office) returns no id, so refresh drops it and the
 * next `up` subscribes the hook again.
 */
export async function read(
  id: string,
  props: Record<string, unknown>,
): Promise<{ id?: string; props?: Record<string, unknown> }> {
  const recorded = recordedOf(id, props);
  const target = await locate(recorded);
  const listing = await deployment.listing(target);
  const live = listing.find((s) => s.id === recorded.id);
  if (live === undefined) {
    await settleGone(target, recorded, listing, "refresh");
    return {};
  }
  if (!isRecorded(live, recorded)) {
    warnNotOurs(live, "refresh treats it as gone, and the next `pulumi up` subscribes the hook again");
    return {};
  }
  const identity = shopIdentityOf([live]);
  return { id, props: { ...props, api: target.api, ...identity } };
}

/**
 * Deletes the subscription unless it is gone already or no longer this resource's: when a create in this
 * deployment wrote or adopted the same id (a replacement), or when the live subscription has another hook,
 * URL or shop than recorded (re-pointed since, by a newer declaration, another stack or the back office).
 */
export async function deleteSubscription(id: string, props: Record<string, unknown>): Promise<void> {
  const recorded = recordedOf(id, props);
  // A replacement of this deployment wrote or adopted the id (also under a renamed shop entry): not ours now.
  if (recorded.api !== undefined && deployment.claimed(recorded.api, recorded.id)) return;
  const target = await locate(recorded);
  if (deployment.claimed(target.api, recorded.id)) return;
  const listing = await deployment.listing(target);
  const live = listing.find((s) => s.id === recorded.id);
  if (live === undefined) {
    await settleGone(target, recorded, listing, "delete");
    return;
  }
  if (!isRecorded(live, recorded)) {
    warnNotOurs(live, "not deleting it, it belongs to a newer declaration");
    return;
  }
  deployment.queueDelete(target, recorded.id, recorded);
  await deletes.load(target, recorded.id);
}

/** DELETEs that ask whether a recorded id a shop does not list is gone (see confirmGone). */
const goneQuestions = askingWhetherGone(deployment);

/** {@link confirmGone} with this deployment's questions. */
function settleGone(
  target: ShopTarget,
  recorded: RecordedPlace,
  listing: readonly LiveSubscription[],
  purpose: QuestionPurpose,
): Promise<void> {
  return confirmGone(deployment, goneQuestions, target, recorded, listing, purpose);
}

/**
 * Before a create writes into (or adopts from) a shop: every recorded subscription this deployment replaces
 * in the shop is the shop's or gone. Else the key now reaches another shop (which cannot say which it is),
 * and the replacement would write there before the old resource's delete found out.
 */
async function settleReplaced(target: ShopTarget): Promise<void> {
  const replaced = deployment.replacedIn(target);
  if (replaced.length === 0) return;
  const listing = await deployment.listing(target);
  await Promise.all(
    replaced.map(async (recorded) => {
      if (!listing.some((s) => s.id === recorded.id)) await settleGone(target, recorded, listing, "create");
      deployment.settleReplaced(target, recorded.id);
    }),
  );
}
