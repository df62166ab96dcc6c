import type { ShopTarget } from "../config/settings";
import { UNKNOWN_VALUE } from "../inputs/lifecycle";
import { HookDeclarers, type SecondDeclaration, TYPESCRIPT_CLASS } from "../rules/oneHookPerShop";
import type { Declared } from "../rules/ownershipFacts";
import { type ShopIdentity, serviceShopKey } from "../rules/recorded";
import { type RecordedShop, SharedDeclarations } from "./deploymentDeclarations";

/**
 * What the program of this deployment declares (the resources the engine checked), and which hooks each
 * set of credentials created: "one hook per shop" is decided from these.
 */
export class Declarations {
  /** The declarations of the deployment's other provider processes (the plugin's: deploymentDeclarations.ts). */
  #shared = new SharedDeclarations();
  /** By `shopKey`: the shop name of the resource that declared each hook first. */
  readonly #shopNames = new HookDeclarers();
  /** By `shopKey`, then hook: the URLs declared for it. */
  readonly #checked = new Map<string, Map<string, Set<string>>>();
  /** By `shopKey`: hooks whose create failed in this deployment (under `up --continue-on-error` the engine goes on). */
  readonly #failedCreates = new Map<string, Set<string>>();
  /** By `shopKey`: hooks declared whose create may still come in this deployment. */
  readonly #awaited = new Map<string, Set<string>>();
  /** By `shopKey`: the URN of the resource that declared each hook first (hosts that say which resource). */
  readonly #resources = new HookDeclarers();
  /** By API and the shop the service reports: the `shopKey` that created each hook first. */
  readonly #creators = new HookDeclarers();

  /** Shares declarations and creates with the deployment's other provider processes (a host sets it once). */
  share(shared: SharedDeclarations): void {
    this.#shared = shared;
  }

  /** Whether declarations are shared with the deployment's other provider processes. */
  isShared(): boolean {
    return this.#shared.isShared();
  }

  /**
   * Records, for the deployment's other provider processes, that `target`'s credentials declare `hook` (at
   * `url`, when known) in the shop the service names `shop`; returns whether other credentials declared or
   * created it there first.
   */
  declareInSharedShop(target: ShopTarget, shop: ShopIdentity, hook: string, url?: string): boolean {
    if (url !== undefined) this.#shared.declareUrlInShop(target, shop, hook, url);
    return this.#shared.createIn(target, shop, hook);
  }

  /**
   * Records, for the deployment's other provider processes, that a resource the program keeps unchanged declares
   * `hook` at `url` in the shop the service named for its subscription: a delete there, under other credentials,
   * keeps that hook (its record may be stale: another key's create overwrote it).
   */
  placeKeptInSharedShop(target: ShopTarget, shop: ShopIdentity, hook: string, url: string): void {
    this.#shared.declareKeptInShop(target, shop, hook, url);
  }

  /**
   * Records a declaration the engine checked (its URL, when a string; its URN, when the host says it) and says
   * why it is the second of its hook for the shop, if it is: another resource of the shop name declares it,
   * the same API and key declare it under another shop name, or another resource declares it at another URL
   * under `ignoreChanges: ["hook"]`, which the engine applies before check.
   */
  declare(target: ShopTarget, hook: string, url?: string, urn?: string): SecondDeclaration | undefined {
    const keptHook =
      url !== undefined && url !== UNKNOWN_VALUE && this.#declaredAtOtherUrl(target, hook, url);
    if (url !== undefined) {
      const urls = inner(this.#checked, target.shopKey);
      urls.set(hook, (urls.get(hook) ?? new Set()).add(url));
      if (url !== UNKNOWN_VALUE) this.#shared.declareUrl(target, hook, url);
    }
    const resource = urn === undefined ? undefined : this.#resources.otherThan(target.shopKey, hook, urn);
    if (resource !== undefined) return { by: "resource", urn: resource };
    // Another provider process of the deployment (the default provider and an explicit one, or the dynamic host
    // and the plugin) declares it. The dynamic host does not say which resource it checks: it declares as the
    // class, whose program-side check refuses two of its own resources.
    const elsewhere = this.#shared.declare(target, hook, urn ?? TYPESCRIPT_CLASS);
    if (elsewhere !== undefined) return { by: "resource", urn: elsewhere };
    const label = this.#shopNames.otherThan(target.shopKey, hook, target.label);
    if (label !== undefined) return { by: "shopName", label };
    return keptHook ? { by: "keptHook" } : undefined;
  }

  /**
   * Whether another resource of the program declared this hook for this shop under the same shop name, at
   * another URL (the engine checks one resource twice only with the same inputs: a replacement's re-check).
   */
  #declaredAtOtherUrl(target: ShopTarget, hook: string, url: string): boolean {
    const urls = this.#checked.get(target.shopKey)?.get(hook);
    return urls !== undefined && !urls.has(url);
  }

  /** Whether the program of this deployment declares this hook and URL for this shop (it was checked). */
  wasChecked(target: ShopTarget, hook: string, url: string): boolean {
    return this.#checked.get(target.shopKey)?.get(hook)?.has(url) === true;
  }

  /**
   * How the program of this deployment declares `hook` (recorded at `url` in `recorded`'s shop): in this
   * process (any shop it checked), and in the deployment's others (for `targets`, the shops configured here;
   * and credentials configured only there, by the shop the service named for them). The ownership rule decides
   * which of them keep the hook (ownership.ts `keepsHook`).
   */
  declaredIn(hook: string, url: string, targets: readonly ShopTarget[], recorded: RecordedShop): Declared[] {
    const here = [...this.#checked]
      .filter(([, hooks]) => hooks.has(hook))
      .map(([shopKey, hooks]) => ({
        shopKey,
        atRecordedUrl: hooks.get(hook)?.has(url) === true,
        createFailed: this.#failedCreates.get(shopKey)?.has(hook) === true,
      }));
    const merged = new Map(here.map((d) => [d.shopKey, d]));
    const elsewhere: Declared[] = [];
    for (const d of this.#shared.declaredIn(hook, url, targets, recorded)) {
      if (d.shopKey === undefined) {
        elsewhere.push(d);
        continue;
      }
      const known = merged.get(d.shopKey);
      merged.set(d.shopKey, {
        shopKey: d.shopKey,
        atRecordedUrl: d.atRecordedUrl || known?.atRecordedUrl === true,
        createFailed: d.createFailed || known?.createFailed === true,
      });
    }
    return [...merged.values(), ...elsewhere];
  }

  /**
   * Records that a create of `hook` in `target`'s shop failed in this deployment (it took nothing over);
   * `shop`: the shop the service named for `target` when a listing told it, or "empty" when it listed nothing.
   */
  createFailed(target: ShopTarget, hook: string, shop?: ShopIdentity | "empty"): void {
    const hooks = this.#failedCreates.get(target.shopKey) ?? new Set<string>();
    this.#failedCreates.set(target.shopKey, hooks.add(hook));
    this.#shared.createFailed(target, hook, shop);
  }

  /** Records a checked declaration whose create may come: the creates of a shop wait for each other. */
  awaitCreate(target: ShopTarget, hook: string): void {
    const hooks = this.#awaited.get(target.shopKey) ?? new Set<string>();
    this.#awaited.set(target.shopKey, hooks.add(hook));
  }

  /** Records that no create of this hook will come (its resource is unchanged, or its batch was sent). */
  settleCreate(target: ShopTarget, hook: string): void {
    this.#awaited.get(target.shopKey)?.delete(hook);
  }

  /** The hooks of these credentials whose create may still come in this deployment. */
  awaitedCreates(target: ShopTarget): ReadonlySet<string> {
    return this.#awaited.get(target.shopKey) ?? new Set();
  }

  /**
   * Records that `target` creates `hook` in the shop the service names `shop`. Returns whether another set of
   * credentials already created it there in this deployment (in any of its provider processes): the same shop
   * under two names or keys.
   */
  createIn(target: ShopTarget, shop: ShopIdentity, hook: string): boolean {
    const serviceShop = `${target.api}\u0000${serviceShopKey(shop)}`;
    const here = this.#creators.otherThan(serviceShop, hook, target.shopKey) !== undefined;
    return this.#shared.createIn(target, shop, hook) || here;
  }
}

/** The inner map of `key` in nested maps, made when absent. */
function inner<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let map = outer.get(key);
  if (map === undefined) {
    map = new Map();
    outer.set(key, map);
  }
  return map;
}
