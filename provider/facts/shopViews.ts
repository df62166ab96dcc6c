import type { LiveSubscription } from "../client/apiSchemas";
import type { ShopTarget } from "../config/settings";
import type { ShopFacts } from "../rules/ownershipFacts";
import type { ShopIdentity } from "../rules/recorded";

/** What this deployment knows of one set of credentials' shop. */
interface ShopView {
  readonly api: string;
  /** The shop's subscriptions: listed once, then kept current with this deployment's writes. */
  listing: Promise<LiveSubscription[]> | undefined;
  /** The first listing of the deployment was empty. */
  listedEmpty: boolean;
  /** Ids listed in or written to this shop in this deployment: they are this shop's. */
  readonly seen: Set<number>;
  /** The shop a read-back of a write told, for a shop whose listing could not (asked once). */
  readBack: Promise<ShopIdentity | undefined> | undefined;
  /** That shop, once told (kept even when the write was undone since). */
  learnt: ShopIdentity | undefined;
}

/**
 * Each shop as this deployment sees it (by set of credentials, `shopKey`): one `GET /webhook_subscriptions/`
 * per shop per deployment, with every later write of the deployment applied, so nothing here is older than
 * this process's own writes.
 */
export class ShopViews {
  readonly #views = new Map<string, ShopView>();
  readonly #list: (target: ShopTarget) => Promise<LiveSubscription[]>;

  constructor(list: (target: ShopTarget) => Promise<LiveSubscription[]>) {
    this.#list = list;
  }

  #view(target: ShopTarget): ShopView {
    let view = this.#views.get(target.shopKey);
    if (view === undefined) {
      view = {
        api: target.api,
        listing: undefined,
        listedEmpty: false,
        seen: new Set(),
        readBack: undefined,
        learnt: undefined,
      };
      this.#views.set(target.shopKey, view);
    }
    return view;
  }

  /** The shop's subscriptions as this deployment knows them; a failed listing is not kept. */
  listing(target: ShopTarget): Promise<LiveSubscription[]> {
    const view = this.#view(target);
    if (view.listing !== undefined) return view.listing;
    return this.#first(view, this.#list(target));
  }

  /** The deployment's first listing of a shop: what it held is the shop's, and whether it was empty. */
  #first(view: ShopView, listed: Promise<LiveSubscription[]>): Promise<LiveSubscription[]> {
    listed.then(
      (subs) => {
        if (subs.length === 0) view.listedEmpty = true;
        for (const s of subs) view.seen.add(s.id);
      },
      () => undefined,
    );
    return this.#keep(view, listed);
  }

  /**
   * Takes `listing` as the shop's listing of this deployment when it has none yet (a preview's program listed
   * the shop a moment ago: previewListing.ts); a shop already listed keeps its own.
   */
  handOver(target: ShopTarget, listing: LiveSubscription[]): void {
    const view = this.#view(target);
    if (view.listing === undefined) void this.#first(view, Promise.resolve(listing));
  }

  /** Stores a listing; one that fails is dropped (the next caller lists again) and never unhandled. */
  #keep(view: ShopView, listing: Promise<LiveSubscription[]>): Promise<LiveSubscription[]> {
    view.listing = listing;
    listing.catch(() => {
      if (view.listing === listing) view.listing = undefined;
    });
    return listing;
  }

  /** Drops the shop's listing after a write whose outcome is unknown; the next caller lists again. */
  forget(target: ShopTarget): void {
    this.#view(target).listing = undefined;
  }

  /** Whether the service listed no subscription for the shop when this deployment first asked. */
  listedEmpty(target: ShopTarget): boolean {
    return this.#view(target).listedEmpty;
  }

  /** The facts of the shop for a decision about recorded id `id`, with its listing when given. */
  facts(target: ShopTarget, id: number, listing?: readonly LiveSubscription[]): ShopFacts {
    const view = this.#view(target);
    return {
      target,
      ...(listing !== undefined ? { listing } : {}),
      listedEmpty: view.listedEmpty,
      ...(view.learnt !== undefined ? { learnt: view.learnt } : {}),
      seen: view.seen.has(id),
    };
  }

  /** The shop the service reports for a shop that listed nothing, learnt once per deployment by `readBack`. */
  readBackIdentity(
    target: ShopTarget,
    readBack: () => Promise<ShopIdentity | undefined>,
  ): Promise<ShopIdentity | undefined> {
    const view = this.#view(target);
    if (view.readBack === undefined) {
      const identity = readBack();
      view.readBack = identity;
      identity.then(
        (learnt) => {
          if (learnt !== undefined) view.learnt = learnt;
        },
        () => {
          if (view.readBack === identity) view.readBack = undefined;
        },
      );
    }
    return view.readBack;
  }

  /** Records a subscription a create wrote or adopted: the shop's now, and in its listing. */
  recordWrite(target: ShopTarget, written: LiveSubscription): void {
    const view = this.#view(target);
    view.seen.add(written.id);
    if (view.listing === undefined) return;
    this.#keep(
      view,
      view.listing.then((subs) => [
        ...subs.filter((s) => s.hook !== written.hook && s.id !== written.id),
        written,
      ]),
    );
  }

  /** Records deleted ids: gone from every listing of the API, whichever key listed them. */
  recordDelete(api: string, ids: readonly number[]): void {
    const gone = new Set(ids);
    for (const view of this.#views.values()) {
      if (view.api !== api || view.listing === undefined) continue;
      this.#keep(
        view,
        view.listing.then((subs) => subs.filter((s) => !gone.has(s.id))),
      );
    }
  }
}
