/**
 * The provider's implementation, loaded by package name inside the dynamic-provider process (see
 * dynamicProvider.ts). One provider process serves one deployment; what it knows lives in one
 * {@link Deployment}.
 */
import type { LiveSubscription } from "./client/apiSchemas";
import { Deployment } from "./deployment";
import { ShippingRequestError } from "./errors/requestError";
import { ShippingError } from "./errors/shippingError";
import { IdBatcher } from "./idBatcher";
import { type CheckFailure, checkInputs, type DiffDecision, diffInputs, UNKNOWN_VALUE } from "./lifecycle";
import { configuredTargets, resolveShop, type ShopTarget } from "./settings";
import {
  type RecordedPlace,
  type ShopIdentity,
  shopIdentityOf,
  targetChanged,
  visibleUrl,
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
    return new Map(ids.map((id) => [id, true as const]));
  },
);

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
    shopId: props.shopId === undefined || props.shopId === null ? undefined : String(props.shopId),
  };
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
  if (recorded.api === undefined) {
    if (named === undefined) throw namedError;
    return named;
  }
  const candidates = [named, ...configuredTargets(deployment.config, process.env)].filter(
    (t): t is ShopTarget => t !== undefined && t.api === recorded.api,
  );
  let other: ShopIdentity | undefined;
  for (const candidate of candidates) {
    if (recorded.shopId === undefined) return candidate;
    const identity = await identityOf(candidate);
    if (identity === undefined || identity.shopId === recorded.shopId) return candidate;
    other ??= identity;
  }
  if (candidates.length === 0 && named === undefined) throw namedError;
  throw targetChanged(recorded, (named ?? candidates[0]) as ShopTarget, other);
}

/** Whether a live subscription is the recorded one: same id, hook, URL and (when both are known) shop. */
function isRecorded(live: LiveSubscription, recorded: Recorded): boolean {
  return (
    live.hook === recorded.hook &&
    live.url === recorded.url &&
    (recorded.shopId === undefined || live.shopId === undefined || live.shopId === recorded.shopId)
  );
}

function warnNotOurs(live: LiveSubscription, recorded: Recorded, action: string): void {
  process.stderr.write(
    `shipping: subscription ${live.id} (${live.hook}) now points at ${visibleUrl(live.url)}, not at ${visibleUrl(recorded.url)} as this resource declared: ${action}\n`,
  );
}

/** Stores the stack configuration the engine hands over; values are read from it at call time. */
export async function configure(req: { config: { get(key: string): string | undefined } }): Promise<void> {
  deployment.config = (key) => req.config.get(key);
}

/**
 * Validates inputs (no API call): the URL and hook rules, the shop's credentials, and one declaration per
 * hook per shop, where the same API and key count as the same shop whatever the shop is called.
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
  if (decision.replaces.includes("shop") || news.shop === UNKNOWN_VALUE || olds.api === undefined)
    return decision;
  const recorded = recordedOf(id, olds);
  const target = targetOf(news.shop);
  if (target.api !== recorded.api) throw targetChanged(recorded, target, undefined);
  if (recorded.shopId !== undefined) {
    const identity = await identityOf(target);
    if (identity !== undefined && identity.shopId !== recorded.shopId)
      throw targetChanged(recorded, target, identity);
  }
  return decision;
}

/**
 * Subscribes the hook. When the shop already has a subscription for it, this takes it over: no write if
 * the URL already matches, else one POST (which overwrites it). `previous` records what was there.
 */
export async function create(
  inputs: Record<string, unknown>,
): Promise<{ id: string; outs: SubscriptionOutputs }> {
  const hook = String(inputs.hook);
  const url = String(inputs.url);
  const target = targetOf(inputs.shop);
  const listing = await deployment.listing(target);
  let identity = shopIdentityOf(listing);
  if (identity !== undefined) guardOneDeclaration(target, identity, hook);
  const current = listing.find((s) => s.hook === hook);
  const id =
    current !== undefined && current.url === url
      ? current.id
      : ((await deployment.client(target).create([{ hook, url }]))[0] as number);
  if (identity === undefined && listing.length === 0) {
    // The shop had nothing to say which shop it is; a read of the new id does (when the service reports it).
    identity = await deployment.readBackIdentity(target, async () =>
      shopIdentityOf([(await readBacks.load(target, id)) ?? { id, hook, url }]),
    );
    if (identity !== undefined) guardOneDeclaration(target, identity, hook);
  }
  deployment.recordCreate(target, { id, hook, url, ...identity });
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

/** Fails a create of a hook that a create of this deployment wrote in the same shop under another name or key. */
function guardOneDeclaration(target: ShopTarget, identity: ShopIdentity, hook: string): void {
  if (deployment.createIn(target, identity.shopId, hook) === undefined) return;
  throw new ShippingError(
    `${hook} is declared twice for shop ${identity.shopId} at ${target.api}: shop ${target.label} and another shop entry of this stack are the same shop (the service reports the same shop_id for both keys). A shop has one subscription per hook: remove one of the two declarations`,
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
  const live = (await deployment.listing(target)).find((s) => s.id === recorded.id);
  if (live === undefined) return {};
  if (!isRecorded(live, recorded)) {
    warnNotOurs(
      live,
      recorded,
      "refresh treats it as gone, and the next `pulumi up` subscribes the hook again",
    );
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
  const target = await locate(recorded);
  if (deployment.claimed(target.api, recorded.id)) return;
  const live = (await deployment.listing(target)).find((s) => s.id === recorded.id);
  if (live === undefined) return;
  if (!isRecorded(live, recorded)) {
    warnNotOurs(live, recorded, "not deleting it, it belongs to a newer declaration");
    return;
  }
  await deletes.load(target, recorded.id);
}
