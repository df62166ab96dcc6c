/**
 * The provider's implementation, loaded by package name inside the dynamic-provider process (see
 * dynamicProvider.ts). Module state here lives for one provider process, that is one deployment.
 */
import type { LiveSubscription } from "./client/apiSchemas";
import { ShippingClient } from "./client/shippingClient";
import { ShippingRequestError } from "./errors/requestError";
import { ShippingError } from "./errors/shippingError";
import { IdBatcher } from "./idBatcher";
import { type CheckFailure, checkInputs, type DiffDecision, diffInputs, UNKNOWN_VALUE } from "./lifecycle";
import { type ConfigSource, resolveShop, type ShopTarget } from "./settings";

/** Outputs of a WebhookSubscription as stored in state. */
export interface SubscriptionOutputs {
  hook: string;
  url: string;
  shop?: string;
  subscriptionId: number;
  /** The subscription the hook had when this resource was created (taken over or overwritten). */
  previous?: { id: number; url: string };
}

let configSource: ConfigSource | undefined;
const clients = new Map<string, ShippingClient>();
/** Hooks written (or adopted) by a create in this deployment: shopKey -> hook -> subscription id. */
const claims = new Map<string, Map<string, number>>();
/**
 * One listing per shop per deployment, shared by every create of that shop (the engine starts creates a
 * few ms apart, so sharing only in-flight requests would still list once per create). Kept current with
 * this process's own writes; each hook is created at most once per deployment, so nothing else needs it.
 */
const listings = new Map<string, Promise<LiveSubscription[]>>();

function clientFor(target: ShopTarget): ShippingClient {
  const key = JSON.stringify([
    target.shopKey,
    target.authScheme,
    target.timeouts ?? {},
    target.retry ?? {},
    target.caCertificates ?? "",
  ]);
  let client = clients.get(key);
  if (client === undefined) {
    client = new ShippingClient({
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      authScheme: target.authScheme,
      ...(target.timeouts !== undefined ? { timeouts: target.timeouts } : {}),
      ...(target.retry !== undefined ? { retry: target.retry } : {}),
      ...(target.caCertificates !== undefined ? { caCertificates: target.caCertificates } : {}),
    });
    clients.set(key, client);
  }
  return client;
}

const reads = new IdBatcher<ShopTarget, LiveSubscription>(
  (target) => target.shopKey,
  async (target, ids) => new Map((await clientFor(target).list(ids)).map((s) => [s.id, s])),
);

const deletes = new IdBatcher<ShopTarget, true>(
  (target) => target.shopKey,
  async (target, ids) => {
    const client = clientFor(target);
    try {
      await client.delete(ids);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      // One of the ids vanished meanwhile; the API may have refused the whole batch, so go one by one.
      if (ids.length > 1) await Promise.all(ids.map((id) => client.delete([id]).catch(ignoreNotFound)));
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
  return resolveShop(typeof shop === "string" ? shop : undefined, configSource, process.env);
}

function subscriptionIdOf(id: string): number {
  if (!/^\d{1,15}$/.test(id))
    throw new ShippingError(`"${id}" is not a subscription id (a positive integer)`);
  return Number(id);
}

function sharedListing(target: ShopTarget): Promise<LiveSubscription[]> {
  let listing = listings.get(target.shopKey);
  if (listing === undefined) {
    listing = clientFor(target).list();
    listings.set(target.shopKey, listing);
    // A failed listing is not kept: the next create asks again.
    listing.catch(() => listings.delete(target.shopKey));
  }
  return listing;
}

function recordWrite(target: ShopTarget, written: LiveSubscription): void {
  const listing = listings.get(target.shopKey);
  if (listing === undefined) return;
  listings.set(
    target.shopKey,
    listing.then((subs) => [...subs.filter((s) => s.hook !== written.hook), written]),
  );
}

function claim(target: ShopTarget, hook: string, id: number): void {
  let hooks = claims.get(target.shopKey);
  if (hooks === undefined) {
    hooks = new Map();
    claims.set(target.shopKey, hooks);
  }
  hooks.set(hook, id);
}

/** Stores the stack configuration the engine hands over; values are read from it at call time. */
export async function configure(req: { config: { get(key: string): string | undefined } }): Promise<void> {
  configSource = (key) => req.config.get(key);
}

/** Validates inputs (no API call); also fails early when the shop's credentials are not configured. */
export async function check(
  _olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const result = checkInputs(news);
  const shop = result.inputs.shop;
  if (result.failures.every((f) => f.property !== "shop") && shop !== UNKNOWN_VALUE) {
    try {
      targetOf(shop);
    } catch (error) {
      if (!(error instanceof ShippingError)) throw error;
      result.failures.push({ property: "shop", reason: error.message });
    }
  }
  return result;
}

/** Replacement on any change of hook, url or shop; `__provider` is ignored. */
export async function diff(
  _id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<DiffDecision> {
  return diffInputs(olds, news);
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
  const current = (await sharedListing(target)).find((s) => s.hook === hook);
  const id =
    current !== undefined && current.url === url
      ? current.id
      : ((await clientFor(target).create([{ hook, url }]))[0] as number);
  claim(target, hook, id);
  recordWrite(target, { id, hook, url });
  const outs: SubscriptionOutputs = {
    hook,
    url,
    ...(typeof inputs.shop === "string" ? { shop: inputs.shop } : {}),
    subscriptionId: id,
    ...(current !== undefined ? { previous: { id: current.id, url: current.url } } : {}),
  };
  return { id: String(id), outs };
}

/** Reads the live subscription; a missing one returns no id, so refresh drops it from state. */
export async function read(
  id: string,
  props: Record<string, unknown>,
): Promise<{ id?: string; props?: Record<string, unknown> }> {
  const live = await reads.load(targetOf(props.shop), subscriptionIdOf(id));
  if (live === undefined) return {};
  return { id, props: { ...props, hook: live.hook, url: live.url, subscriptionId: live.id } };
}

/**
 * Deletes the subscription unless it is gone already or no longer ours: when a create in this deployment
 * claimed the same hook (a replacement: the old id was overwritten or is now the new subscription), or
 * when the live subscription points elsewhere than the URL this resource recorded (re-pointed since, by a
 * newer declaration or another stack), it is left alone.
 */
export async function deleteSubscription(id: string, props: Record<string, unknown>): Promise<void> {
  const target = targetOf(props.shop);
  if (claims.get(target.shopKey)?.has(String(props.hook))) return;
  const subscriptionId = subscriptionIdOf(id);
  const live = await reads.load(target, subscriptionId);
  if (live === undefined) return;
  if (live.hook !== props.hook || live.url !== props.url) {
    process.stderr.write(
      `shipping: not deleting subscription ${subscriptionId} (${live.hook}): it now points at another URL than this resource declared, so it belongs to a newer declaration\n`,
    );
    return;
  }
  await deletes.load(target, subscriptionId);
}
