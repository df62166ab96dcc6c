import type { LiveSubscription } from "./client/apiSchemas";
import { ShippingClient } from "./client/shippingClient";
import type { GoneAnswer } from "./goneQuestions";
import type { ConfigSource, ShopTarget } from "./settings";
import { checkListedPin } from "./shopPin";
import type { RecordedPlace, ShopIdentity } from "./targetChange";

/** A hook declared in this deployment: by whom, for the message when another resource declares it again. */
interface Declaration {
  /** The shop as the resource names it: `(default)` or a `shipping:shops` entry. */
  readonly label: string;
}

/**
 * Everything one provider process (one deployment) knows beyond the resources it is handed: the
 * configuration, one HTTP client per shop, each shop's listing, the hooks declared and the subscriptions
 * written. Every write of the deployment updates every fact it touches, so nothing here is ever older than
 * this process's own writes: a create records what it wrote or adopted in the listing and in the claims; a
 * delete removes the id from every listing of its API.
 */
export class Deployment {
  /** The stack configuration the engine handed over; read at call time. */
  config: ConfigSource | undefined;
  readonly #clients = new Map<string, ShippingClient>();
  /** Each shop's subscriptions (by `shopKey`): listed once, then kept current with this deployment's writes. */
  readonly #listings = new Map<string, Promise<LiveSubscription[]>>();
  /** `api#id` of every subscription a create of this deployment wrote or adopted. */
  readonly #claimed = new Set<string>();
  /** `api#id` of every subscription a resource the program declares keeps unchanged (see `recordKept`). */
  readonly #kept = new Set<string>();
  /** Hooks declared (checked) in this deployment, by API, key and hook: one resource each. */
  readonly #declared = new Map<string, Declaration>();
  /** Declarations checked in this deployment, by key, hook and URL: what the program declares now. */
  readonly #checked = new Set<string>();
  /** Hooks created in this deployment, by API, the shop the service reports and hook: the creator's key. */
  readonly #createdInShop = new Map<string, string>();
  /** What each queued delete recorded, by `shopKey#id`, for the check made again right before the DELETE. */
  readonly #queuedDeletes = new Map<string, unknown>();
  /** Ids each shop (by `shopKey`) listed or was written in this deployment: they are that shop's. */
  readonly #seenIds = new Map<string, Set<number>>();
  /** Recorded subscriptions that `diff` replaces in each shop (by `shopKey`, then id), until settled. */
  readonly #replaced = new Map<string, Map<number, RecordedPlace>>();
  /** Shops (by `shopKey`) whose first listing of the deployment was empty. */
  readonly #listedEmpty = new Set<string>();
  /** The tail of each shop's chain of writes: writes of one shop run one at a time. */
  readonly #writes = new Map<string, Promise<unknown>>();
  /** Hooks each set of credentials (by `shopKey`) declares whose create may still come in this deployment. */
  readonly #awaitedCreates = new Map<string, Set<string>>();
  /** The shop the service reports for each set of credentials (by `shopKey`), once learned by a read-back. */
  readonly #readBackIdentities = new Map<string, Promise<ShopIdentity | undefined>>();
  /** The shop a read-back told for a key whose shop listed nothing (kept when the write was undone since). */
  readonly #learntIdentities = new Map<string, ShopIdentity>();
  readonly #goneAnswers = new Map<string, Promise<GoneAnswer | undefined>>();

  /** The client for a shop; one keep-alive pool per set of credentials and transport settings. */
  client(target: ShopTarget): ShippingClient {
    const key = JSON.stringify([
      target.shopKey,
      target.authScheme,
      target.timeouts ?? {},
      target.retry ?? {},
      target.caCertificates ?? "",
    ]);
    let client = this.#clients.get(key);
    if (client === undefined) {
      client = new ShippingClient({
        baseUrl: target.baseUrl,
        apiKey: target.apiKey,
        authScheme: target.authScheme,
        ...(target.timeouts !== undefined ? { timeouts: target.timeouts } : {}),
        ...(target.retry !== undefined ? { retry: target.retry } : {}),
        ...(target.caCertificates !== undefined ? { caCertificates: target.caCertificates } : {}),
      });
      this.#clients.set(key, client);
    }
    return client;
  }

  /**
   * The shop's subscriptions as this deployment knows them: one `GET /webhook_subscriptions/` per shop per
   * deployment, with every later write of the deployment applied. A failed listing is not kept. For a pinned
   * shop, fails when the service reports another shop, or none, for the shop's subscriptions (shopPin.ts).
   */
  listing(target: ShopTarget, options: { readonly checkPin?: boolean } = {}): Promise<LiveSubscription[]> {
    const listing = this.#listings.get(target.shopKey) ?? this.#list(target);
    if (target.pin === undefined || options.checkPin === false) return listing;
    return listing.then((subs) => {
      checkListedPin(
        target,
        subs,
        this.#listedEmpty.has(target.shopKey),
        this.#learntIdentities.get(target.shopKey),
      );
      return subs;
    });
  }

  #list(target: ShopTarget): Promise<LiveSubscription[]> {
    const listed = this.client(target).list();
    listed.then(
      (subs) => {
        if (subs.length === 0) this.#listedEmpty.add(target.shopKey);
        this.#see(
          target,
          subs.map((s) => s.id),
        );
      },
      () => undefined,
    );
    return this.#keep(target.shopKey, listed);
  }

  /** Whether the service listed no subscription for the shop when this deployment first asked. */
  listedEmpty(target: ShopTarget): boolean {
    return this.#listedEmpty.has(target.shopKey);
  }

  /** Whether this deployment saw `id` in the shop's listing or wrote it there: then the id is the shop's. */
  seenInShop(target: ShopTarget, id: number): boolean {
    return this.#seenIds.get(target.shopKey)?.has(id) === true;
  }

  /**
   * Notes a recorded subscription that this deployment replaces in the shop (its hook or URL changed): before
   * a create writes into the shop, it settles that the id is this shop's or gone (see `settleReplaced`).
   */
  noteReplaced(target: ShopTarget, recorded: RecordedPlace): void {
    const replaced = this.#replaced.get(target.shopKey) ?? new Map<number, RecordedPlace>();
    replaced.set(recorded.id, recorded);
    this.#replaced.set(target.shopKey, replaced);
  }

  /** The replaced subscriptions of the shop not settled yet. */
  replacedIn(target: ShopTarget): readonly RecordedPlace[] {
    return [...(this.#replaced.get(target.shopKey)?.values() ?? [])];
  }

  /** Marks a replaced subscription settled: it is the shop's or gone. */
  settleReplaced(target: ShopTarget, id: number): void {
    this.#replaced.get(target.shopKey)?.delete(id);
  }

  #see(target: ShopTarget, ids: readonly number[]): void {
    const seen = this.#seenIds.get(target.shopKey) ?? new Set<number>();
    for (const id of ids) seen.add(id);
    this.#seenIds.set(target.shopKey, seen);
  }

  /** Drops the shop's listing after a write whose outcome is unknown; the next caller lists again. */
  forgetListing(target: ShopTarget): void {
    this.#listings.delete(target.shopKey);
  }

  /** Stores a listing; one that fails is dropped (the next caller lists again) and never unhandled. */
  #keep(shopKey: string, listing: Promise<LiveSubscription[]>): Promise<LiveSubscription[]> {
    this.#listings.set(shopKey, listing);
    listing.catch(() => {
      if (this.#listings.get(shopKey) === listing) this.#listings.delete(shopKey);
    });
    return listing;
  }

  /**
   * The shop the service reports for a shop whose listing said nothing (it was empty): learned once per
   * deployment by `readBack` (a read of a just-written id), shared by every create of the shop.
   */
  readBackIdentity(
    target: ShopTarget,
    readBack: () => Promise<ShopIdentity | undefined>,
  ): Promise<ShopIdentity | undefined> {
    let identity = this.#readBackIdentities.get(target.shopKey);
    if (identity === undefined) {
      identity = readBack();
      this.#readBackIdentities.set(target.shopKey, identity);
      identity.then(
        (learnt) => {
          if (learnt !== undefined) this.#learntIdentities.set(target.shopKey, learnt);
        },
        () => this.#readBackIdentities.delete(target.shopKey),
      );
    }
    return identity;
  }

  /**
   * The service's answer to whether a recorded id the shop does not list is gone: asked once per deployment
   * (a replacement's create and the old resource's delete both need it; ids are never reused). A failed
   * question is not kept.
   */
  goneAnswer(
    target: ShopTarget,
    id: number,
    ask: () => Promise<GoneAnswer | undefined>,
  ): Promise<GoneAnswer | undefined> {
    const key = `${target.shopKey}#${id}`;
    let answer = this.#goneAnswers.get(key);
    if (answer === undefined) {
      answer = ask();
      this.#goneAnswers.set(key, answer);
      answer.catch(() => this.#goneAnswers.delete(key));
    }
    return answer;
  }

  /**
   * Records a hook declared by a resource being checked. Returns the earlier declaration when a resource of
   * this deployment declared the same hook with the same API and key under another shop name. (The engine
   * may check one resource twice, for example again for the create of a replacement; two resources under one
   * shop name are refused by the program itself.)
   */
  declare(target: ShopTarget, hook: string): Declaration | undefined {
    const key = `${target.shopKey}\u0000${hook}`;
    const earlier = this.#declared.get(key);
    if (earlier === undefined) this.#declared.set(key, { label: target.label });
    return earlier?.label === target.label ? undefined : earlier;
  }

  /**
   * Records that a create is about to write `hook` in the shop the service calls `shopId`. Returns the
   * in-process key of another set of credentials that already created the same hook in that shop in this
   * deployment: the same shop under two names or keys.
   */
  createIn(target: ShopTarget, shopId: string, hook: string): string | undefined {
    const key = `${target.api}\u0000${shopId}\u0000${hook}`;
    const earlier = this.#createdInShop.get(key);
    if (earlier !== undefined && earlier !== target.shopKey) return earlier;
    this.#createdInShop.set(key, target.shopKey);
    return undefined;
  }

  /** Records a subscription a create wrote or adopted: claimed for this deployment, and in the listing. */
  recordCreate(target: ShopTarget, written: LiveSubscription): void {
    this.#claimed.add(`${target.api}#${written.id}`);
    this.#see(target, [written.id]);
    const listing = this.#listings.get(target.shopKey);
    if (listing === undefined) return;
    this.#keep(
      target.shopKey,
      listing.then((subs) => [
        ...subs.filter((s) => s.hook !== written.hook && s.id !== written.id),
        written,
      ]),
    );
  }

  /** Records deleted ids: gone from every listing of the API, whichever key listed it. */
  recordDelete(target: ShopTarget, ids: readonly number[]): void {
    const gone = new Set(ids);
    for (const [shopKey, listing] of this.#listings) {
      if (!shopKey.startsWith(`${target.api}#`)) continue;
      this.#keep(
        shopKey,
        listing.then((subs) => subs.filter((s) => !gone.has(s.id))),
      );
    }
  }

  /** Queues a delete with what its resource recorded, for the check made again right before the DELETE. */
  queueDelete(target: ShopTarget, id: number, recorded: unknown): void {
    this.#queuedDeletes.set(`${target.shopKey}#${id}`, recorded);
  }

  /** What a queued delete recorded; undefined when none is queued. */
  queuedDelete(target: ShopTarget, id: number): unknown {
    return this.#queuedDeletes.get(`${target.shopKey}#${id}`);
  }

  /** Forgets queued deletes once their batch has run. */
  dequeueDeletes(target: ShopTarget, ids: readonly number[]): void {
    for (const id of ids) this.#queuedDeletes.delete(`${target.shopKey}#${id}`);
  }

  /** Whether a resource of this deployment created, adopted or keeps subscription `id` of `api`. */
  claimed(api: string, id: number): boolean {
    return this.#claimed.has(`${api}#${id}`);
  }

  /** Records a checked declaration whose create may come: the creates of a shop wait for each other. */
  awaitCreate(target: ShopTarget, hook: string): void {
    let hooks = this.#awaitedCreates.get(target.shopKey);
    if (hooks === undefined) {
      hooks = new Set();
      this.#awaitedCreates.set(target.shopKey, hooks);
    }
    hooks.add(hook);
  }

  /** Records that no create of this hook will come (its resource is unchanged, or its batch was sent). */
  settleCreate(target: ShopTarget, hook: string): void {
    this.#awaitedCreates.get(target.shopKey)?.delete(hook);
  }

  /** The hooks of these credentials whose create may still come in this deployment. */
  awaitedCreates(target: ShopTarget): ReadonlySet<string> {
    return this.#awaitedCreates.get(target.shopKey) ?? new Set();
  }

  /** Records a declaration the engine checked: the program of this deployment declares it. */
  recordChecked(target: ShopTarget, hook: string, url: string): void {
    this.#checked.add(`${target.shopKey}\u0000${hook}\u0000${url}`);
  }

  /** Whether the program of this deployment declares this hook and URL for this shop (it was checked). */
  wasChecked(target: ShopTarget, hook: string, url: string): boolean {
    return this.#checked.has(`${target.shopKey}\u0000${hook}\u0000${url}`);
  }

  /**
   * Records that a resource the program still declares keeps subscription `id` unchanged (its diff found no
   * change), so no delete of this deployment removes it: two resources can record one id, for example after
   * a rename without an alias whose delete did not run.
   */
  recordKept(api: string, id: number): void {
    this.#claimed.add(`${api}#${id}`);
    this.#kept.add(`${api}#${id}`);
  }

  /** Whether a resource the program declares keeps subscription `id` of `api` unchanged (its diff said so). */
  kept(api: string, id: number): boolean {
    return this.#kept.has(`${api}#${id}`);
  }

  /**
   * Runs `write` after every earlier write of the same shop has settled, so that a delete's ownership check
   * and its DELETE see every create of the deployment that came before, and no POST of the shop is in flight.
   */
  exclusive<T>(shop: string, write: () => Promise<T>): Promise<T> {
    const before = this.#writes.get(shop) ?? Promise.resolve();
    const result = before.then(write, write);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#writes.set(shop, settled);
    settled.then(() => {
      if (this.#writes.get(shop) === settled) this.#writes.delete(shop);
    });
    return result;
  }
}
