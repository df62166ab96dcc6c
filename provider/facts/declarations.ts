import type { ShopTarget } from "../settings";

/** Nested maps: outer key, then inner key. */
function inner<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let map = outer.get(key);
  if (map === undefined) {
    map = new Map();
    outer.set(key, map);
  }
  return map;
}

/**
 * What the program of this deployment declares (the resources the engine checked), and which hooks each
 * set of credentials created: "one hook per shop" is decided from these.
 */
export class Declarations {
  /** By `shopKey`, then hook: the shop name of the resource that declared it. */
  readonly #declared = new Map<string, Map<string, string>>();
  /** By `shopKey`, then hook: the URLs declared for it. */
  readonly #checked = new Map<string, Map<string, Set<string>>>();
  /** By `shopKey`: hooks declared whose create may still come in this deployment. */
  readonly #awaited = new Map<string, Set<string>>();
  /** By `shopKey`, then hook: the URN of the resource that declared it (hosts that say which resource). */
  readonly #urns = new Map<string, Map<string, string>>();
  /** By API, then the shop the service reports, then hook: the `shopKey` that created it. */
  readonly #created = new Map<string, Map<string, Map<string, string>>>();

  /**
   * Records a hook declared by a resource being checked. Returns the shop name of an earlier declaration of
   * the same hook with the same API and key under another shop name. (The engine may check one resource
   * twice, for example again for the create of a replacement.)
   */
  declare(target: ShopTarget, hook: string): string | undefined {
    const hooks = inner(this.#declared, target.shopKey);
    const earlier = hooks.get(hook);
    if (earlier === undefined) hooks.set(hook, target.label);
    return earlier === target.label ? undefined : earlier;
  }

  /**
   * Records the resource (by URN) that declares `hook` in the shop. Returns the URN of another resource that
   * declared it earlier in this deployment: the same shop's hook declared twice. (The same URN checked again, a
   * replacement's create, is no second declaration.)
   */
  declareResource(target: ShopTarget, hook: string, urn: string): string | undefined {
    const hooks = inner(this.#urns, target.shopKey);
    const earlier = hooks.get(hook);
    if (earlier === undefined) hooks.set(hook, urn);
    return earlier === urn ? undefined : earlier;
  }

  /** Records a declaration the engine checked: the program of this deployment declares this hook and URL. */
  check(target: ShopTarget, hook: string, url: string): void {
    const urls = inner(this.#checked, target.shopKey);
    urls.set(hook, (urls.get(hook) ?? new Set()).add(url));
  }

  /**
   * Whether another resource of the program declares this hook for this shop under the same shop name, at
   * another URL (the engine checks one resource twice only with the same inputs: a replacement's re-check).
   */
  declaredAtOtherUrl(target: ShopTarget, hook: string, url: string): boolean {
    const urls = this.#checked.get(target.shopKey)?.get(hook);
    return (
      urls !== undefined && !urls.has(url) && this.#declared.get(target.shopKey)?.get(hook) === target.label
    );
  }

  /** Whether the program of this deployment declares this hook and URL for this shop (it was checked). */
  wasChecked(target: ShopTarget, hook: string, url: string): boolean {
    return this.#checked.get(target.shopKey)?.get(hook)?.has(url) === true;
  }

  /**
   * The shops (by `shopKey`) for which the program of this deployment declares `hook` (it was checked), at
   * another URL than `url` only (a declaration of `url` itself may be the recorded resource's own, replaced
   * with no diff by `up --replace`).
   */
  declaredIn(hook: string, url: string): string[] {
    return [...this.#checked]
      .filter(([, hooks]) => hooks.has(hook) && hooks.get(hook)?.has(url) !== true)
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
    const hooks = inner(inner(this.#created, target.api), shopId);
    const earlier = hooks.get(hook);
    if (earlier !== undefined) return earlier !== target.shopKey;
    hooks.set(hook, target.shopKey);
    return false;
  }
}
