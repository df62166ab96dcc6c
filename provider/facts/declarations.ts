import type { ShopTarget } from "../config/settings";
import { UNKNOWN_VALUE } from "../inputs/lifecycle";
import { HookDeclarers, NEW_RESOURCE, type SecondDeclaration } from "../rules/oneHookPerShop";

/** A new resource whose URL is not known yet (a preview): it cannot be told apart from another. */
const NEW_UNKNOWN_URL = `${NEW_RESOURCE}\u0000${UNKNOWN_VALUE}`;

/** Who declares, as check knows it: the URN when the host says it, the recorded inputs when it has state. */
export interface Declarer {
  readonly urn?: string | undefined;
  /** {@link recordedDeclarer} of the old inputs, for a resource with state. */
  readonly recorded?: string | undefined;
}

/**
 * What the program of this deployment declares (the resources the engine checked), and which hooks each
 * set of credentials created: "one hook per shop" is decided from these.
 */
export class Declarations {
  /** By `shopKey`: the shop name of the resource that declared each hook first. */
  readonly #shopNames = new HookDeclarers();
  /** By `shopKey`, then hook: the URLs declared for it. */
  readonly #checked = new Map<string, Map<string, Set<string>>>();
  /** By `shopKey`, then hook: who declares it (a URN, a {@link recordedDeclarer}, or {@link NEW_RESOURCE}). */
  readonly #declarers = new Map<string, Map<string, Set<string>>>();
  /** By `shopKey`, hook and URL: the resource whose replacement diff decided (its next check has no olds). */
  readonly #rechecks = new Map<string, string>();
  /** By `shopKey`: hooks declared whose create may still come in this deployment. */
  readonly #awaited = new Map<string, Set<string>>();
  /** By `shopKey`: the URN of the resource that declared each hook first (hosts that say which resource). */
  readonly #resources = new HookDeclarers();
  /** By API and the shop the service reports: the `shopKey` that created each hook first. */
  readonly #creators = new HookDeclarers();

  /**
   * Records a declaration the engine checked (its URL, when a string; who declares it: its URN when the host
   * says it, else its recorded inputs when it has state, else a new resource) and says why it is the second of
   * its hook for the shop, if it is: another resource of the shop name declares it, the same API and key
   * declare it under another shop name, or another resource declares it under the same shop name where the
   * host names neither (one keeps its recorded hook through `ignoreChanges: ["hook"]`, which the engine
   * applies before check). The same resource checked again (a replacement's create) is no second.
   */
  declare(
    target: ShopTarget,
    hook: string,
    url: string | undefined,
    declarer: Declarer,
  ): SecondDeclaration | undefined {
    if (url !== undefined) {
      const urls = inner(this.#checked, target.shopKey);
      urls.set(hook, (urls.get(hook) ?? new Set()).add(url));
    }
    // A new resource is told apart by its URL; one not known yet (a preview) tells nothing.
    const who =
      declarer.urn ??
      declarer.recorded ??
      this.#rechecks.get(recheckKey(target, hook, url)) ??
      `${NEW_RESOURCE}\u0000${url ?? UNKNOWN_VALUE}`;
    const declarers = inner(this.#declarers, target.shopKey);
    const others = [...(declarers.get(hook) ?? [])].filter(
      (d) => d !== who && d !== NEW_UNKNOWN_URL && who !== NEW_UNKNOWN_URL,
    );
    declarers.set(hook, (declarers.get(hook) ?? new Set()).add(who));
    const resource =
      declarer.urn === undefined ? undefined : this.#resources.otherThan(target.shopKey, hook, declarer.urn);
    if (resource !== undefined) return { by: "resource", urn: resource };
    const label = this.#shopNames.otherThan(target.shopKey, hook, target.label);
    if (label !== undefined) return { by: "shopName", label };
    return others.length > 0 ? { by: "keptHook" } : undefined;
  }

  /** Whether two resources of the deployment declare `hook` with these credentials (as check told them apart). */
  declaredByAnother(target: ShopTarget, hook: string): boolean {
    const declarers = [...(this.#declarers.get(target.shopKey)?.get(hook) ?? [])];
    return declarers.filter((d) => d !== NEW_UNKNOWN_URL).length > 1;
  }

  /** Whether the program of this deployment declares this hook and URL for this shop (it was checked). */
  wasChecked(target: ShopTarget, hook: string, url: string): boolean {
    return this.#checked.get(target.shopKey)?.get(hook)?.has(url) === true;
  }

  /**
   * Records that diff decided to replace the resource `recorded` (a {@link recordedDeclarer}) with `hook` at
   * `url`: the engine checks the replacement again without its old inputs, and that check is the same resource.
   */
  expectRecheck(target: ShopTarget, hook: string, url: string, recorded: string): void {
    this.#rechecks.set(recheckKey(target, hook, url), recorded);
  }

  /**
   * The shops (by `shopKey`) for which a resource of this deployment other than `own` (the deleted resource's
   * {@link recordedDeclarer}) declares `hook`. In `ownShopKey`, a new resource at `ownUrl` is not counted: it
   * is the resource's own replacement by `up --replace` (which the engine checks without old inputs), or a
   * rename without an alias that keeps hook and URL, which this host cannot tell apart from it (safety.md).
   */
  declaredIn(hook: string, own: { declarer: string; shopKey?: string | undefined; url: string }): string[] {
    const replacement = `${NEW_RESOURCE}\u0000${own.url}`;
    return [...this.#declarers]
      .filter(([shopKey, hooks]) =>
        [...(hooks.get(hook) ?? [])].some(
          (d) => d !== own.declarer && !(d === replacement && shopKey === own.shopKey),
        ),
      )
      .map(([shopKey]) => shopKey);
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
   * Records that `target` creates `hook` in the shop the service calls `shopId`. Returns whether another set of
   * credentials already created it there in this deployment: the same shop under two names or keys.
   */
  createIn(target: ShopTarget, shopId: string, hook: string): boolean {
    return this.#creators.otherThan(`${target.api}\u0000${shopId}`, hook, target.shopKey) !== undefined;
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

/** The key of a replacement's expected check. */
function recheckKey(target: ShopTarget, hook: string, url: string | undefined): string {
  return `${target.shopKey}\u0000${hook}\u0000${url ?? ""}`;
}
