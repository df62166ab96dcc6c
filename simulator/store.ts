/** In-memory subscription store: one subscription per hook per shop, ids from one global counter. */

import type { Hook } from "../contract/hooks";
import { setOwn } from "./records";
import type { Subscription, Switches } from "./types";
import type { NewSubscription } from "./validation";

/** The persisted part of the state. */
export interface StoreSnapshot {
  nextId: number;
  shops: Record<string, Subscription[]>;
}

/** Subscriptions of all shops, indexed by shop/hook and by id. Reads never touch the disk. */
export class SubscriptionStore {
  #nextId = 1;
  readonly #shops = new Map<string, Map<Hook, Subscription>>();
  readonly #byId = new Map<number, { shop: string; sub: Subscription }>();
  readonly #shopNumbers = new Map<string, number>();

  /** Create an empty store knowing the given shops. */
  constructor(shopNames: string[]) {
    for (const name of shopNames) this.#addShop(name);
  }

  #addShop(name: string): Map<Hook, Subscription> {
    let hooks = this.#shops.get(name);
    if (hooks === undefined) {
      hooks = new Map();
      this.#shops.set(name, hooks);
      this.#shopNumbers.set(name, this.#shopNumbers.size + 1);
    }
    return hooks;
  }

  /** Replace the content with a (validated) snapshot; shops only in the snapshot are kept too. */
  load(snapshot: StoreSnapshot): void {
    this.clear();
    this.#nextId = snapshot.nextId;
    for (const [shop, subs] of Object.entries(snapshot.shops)) {
      const hooks = this.#addShop(shop);
      for (const sub of subs) {
        const copy = { id: sub.id, hook: sub.hook, url: sub.url };
        hooks.set(copy.hook, copy);
        this.#byId.set(copy.id, { shop, sub: copy });
      }
    }
  }

  /** A deep copy of the state: next id and every shop's subscriptions sorted by id. */
  snapshot(): StoreSnapshot {
    const shops: Record<string, Subscription[]> = {};
    for (const name of this.#shops.keys()) setOwn(shops, name, this.list(name));
    return { nextId: this.#nextId, shops };
  }

  /** Whether the shop exists. */
  hasShop(shop: string): boolean {
    return this.#shops.has(shop);
  }

  /** The shop's numeric id (1-based position), as reported in `shop_id`. */
  shopNumber(shop: string): number {
    return this.#shopNumbers.get(shop) ?? 0;
  }

  /** The shop's subscriptions, copies sorted by id. */
  list(shop: string): Subscription[] {
    const hooks = this.#shops.get(shop);
    if (hooks === undefined) return [];
    return [...hooks.values()]
      .map((s) => ({ id: s.id, hook: s.hook, url: s.url }))
      .sort((a, b) => a.id - b.id);
  }

  /** The shop's subscription for a hook, if any. */
  forHook(shop: string, hook: Hook): Subscription | undefined {
    const sub = this.#shops.get(shop)?.get(hook);
    return sub === undefined ? undefined : { ...sub };
  }

  /** The shop owning subscription `id`, if it exists. */
  owner(id: number): string | undefined {
    return this.#byId.get(id)?.shop;
  }

  /** Those of `ids` that belong to `shop`, in the given order (copies). */
  get(shop: string, ids: number[]): Subscription[] {
    const found: Subscription[] = [];
    for (const id of ids) {
      const entry = this.#byId.get(id);
      if (entry !== undefined && entry.shop === shop) found.push({ ...entry.sub });
    }
    return found;
  }

  /** Create or overwrite the shop's subscriptions, in order; answers the resulting ids. */
  create(shop: string, items: NewSubscription[], overwrite: Switches["overwrite"]): number[] {
    const hooks = this.#addShop(shop);
    return items.map(({ hook, url }) => {
      const existing = hooks.get(hook);
      if (existing !== undefined && overwrite === "keep-id") {
        existing.url = url;
        return existing.id;
      }
      if (existing !== undefined) this.#byId.delete(existing.id);
      const sub: Subscription = { id: this.#nextId++, hook, url };
      hooks.set(hook, sub);
      this.#byId.set(sub.id, { shop, sub });
      return sub.id;
    });
  }

  /** Delete the given ids (callers check ownership first). */
  remove(ids: number[]): void {
    for (const id of ids) {
      const entry = this.#byId.get(id);
      if (entry === undefined) continue;
      this.#byId.delete(id);
      this.#shops.get(entry.shop)?.delete(entry.sub.hook);
    }
  }

  /** Empty every shop and restart ids at 1 (shops are kept). */
  clear(): void {
    for (const hooks of this.#shops.values()) hooks.clear();
    this.#byId.clear();
    this.#nextId = 1;
  }
}
