import type { ShopTarget } from "../config/settings";
import { isHookAtUrl, isListedUrl } from "../rules/recorded";

/** How a replacement's diff left its recorded hook: kept (a URL change) or handed on (a hook or shop change). */
type DiffedAs = "keepsHook" | "handsOn";

/**
 * What the stack records, as this deployment has seen it (a resource's diff, check with old inputs, or
 * refresh ran): the hooks and URLs of its subscriptions by shop, which a create may overwrite as the stack's
 * own without `takeOver`; and the recorded ids a diff of a declared resource saw, which tell a delete of a
 * replacement's old half from the delete of a resource removed from the program.
 */
export class StackRecords {
  /** By `shopKey`, then hook: URLs a resource of the stack records. */
  readonly #urls = new Map<string, Map<string, Set<string>>>();
  /** By API, then id: the hook and URL a resource records (the same shop may be reached by another key). */
  readonly #ids = new Map<string, Map<number, { readonly hook: string; readonly url: string }>>();
  /** By API, then id: how the diff of the declared resource that records it left its hook. */
  readonly #diffed = new Map<string, Map<number, DiffedAs>>();

  /** Notes that a resource of the stack records `hook` at `url` in the shop (as subscription `id`, if known). */
  note(target: ShopTarget, sub: { readonly id?: number; readonly hook: string; readonly url: string }): void {
    const hooks = this.#urls.get(target.shopKey) ?? new Map<string, Set<string>>();
    this.#urls.set(target.shopKey, hooks.set(sub.hook, (hooks.get(sub.hook) ?? new Set()).add(sub.url)));
    if (sub.id === undefined) return;
    const ids = this.#ids.get(target.api) ?? new Map();
    this.#ids.set(target.api, ids.set(sub.id, { hook: sub.hook, url: sub.url }));
  }

  /**
   * Whether a resource of the stack records the live subscription: its hook at its URL in this shop (its
   * listed URL may be a preview's digest). A re-point by anyone else changes the URL, so it is not held.
   */
  holds(
    target: ShopTarget,
    live: { readonly id: number; readonly hook: string; readonly url: string },
  ): boolean {
    const urls = this.#urls.get(target.shopKey)?.get(live.hook);
    if (urls !== undefined && [...urls].some((url) => isListedUrl(live.url, url))) return true;
    const byId = this.#ids.get(target.api)?.get(live.id);
    return byId !== undefined && isHookAtUrl(live, byId);
  }

  /**
   * Notes `sub` in the shop `resolve` gives, when it still resolves (an entry gone or broken: the resource's
   * own steps say so).
   */
  noteWhereResolved(resolve: () => ShopTarget, sub: { readonly hook: string; readonly url: string }): void {
    let target: ShopTarget;
    try {
      target = resolve();
    } catch {
      return;
    }
    this.note(target, sub);
  }

  /** Notes a recorded id whose resource the program declares (its diff ran), and how the diff left its hook. */
  noteDiffed(api: string, id: number, as: DiffedAs): void {
    const ids = this.#diffed.get(api) ?? new Map<number, DiffedAs>();
    this.#diffed.set(api, ids.set(id, as));
  }

  /**
   * How the diff of a declared resource left recorded `id` of `api`; undefined when no diff ran for it. An id
   * means something only at its API: the same number at another API is another subscription.
   */
  diffedAs(api: string, id: number): DiffedAs | undefined {
    return this.#diffed.get(api)?.get(id);
  }
}
