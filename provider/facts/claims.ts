import type { ShopTarget } from "../config/settings";
import type { Recorded } from "../rules/recorded";
import { DeploymentClaims } from "./deploymentClaims";

/**
 * The subscriptions that resources of this deployment hold: created, adopted or kept unchanged (claimed; a
 * delete of the deployment leaves them alone), and the recorded ones that replacements are about to take
 * the place of. Claims are shared with the deployment's other provider processes (deploymentClaims.ts).
 */
export class Claims {
  #shared = new DeploymentClaims();
  /** By API: ids a resource of this deployment creates, adopts or keeps. */
  readonly #claimed = new Map<string, Set<number>>();
  /** By API: ids a resource the program declares keeps unchanged (its diff found no change). */
  readonly #kept = new Map<string, Set<number>>();
  /** By API, then live id: the recorded id of the resource that holds it (its own, or in place of a gone one). */
  readonly #held = new Map<string, Map<number, number>>();
  /** By `shopKey`: recorded subscriptions that diff replaces, until their shop settled them. */
  readonly #replaced = new Map<string, Map<number, Recorded>>();

  /** Shares the claims with the deployment's other provider processes (a host sets it once, at start). */
  share(shared: DeploymentClaims): void {
    this.#shared = shared;
  }

  /** Records an id a create of this deployment wrote or adopted. */
  claim(api: string, id: number): void {
    this.#shared.add(api, id);
    this.#claimHere(api, id);
  }

  #claimHere(api: string, id: number): void {
    this.#claimed.set(api, (this.#claimed.get(api) ?? new Set<number>()).add(id));
  }

  /**
   * Records that a resource the program still declares keeps subscription `id` unchanged, so that no delete of
   * this deployment removes it (two resources can record one id, for example after a rename without an alias
   * whose delete did not run).
   */
  keep(api: string, id: number): void {
    this.#shared.add(api, id, true);
    this.#claimHere(api, id);
    const ids = this.#kept.get(api) ?? new Set<number>();
    this.#kept.set(api, ids.add(id));
  }

  /** Whether a resource the program declares keeps `id` of `api` unchanged, in any process of the deployment. */
  isKept(api: string, id: number): boolean {
    return this.#kept.get(api)?.has(id) === true || this.#shared.keptAt(id).includes(api);
  }

  /** Whether a resource of this deployment creates, adopts or keeps `id` of `api`. */
  isClaimed(api: string, id: number): boolean {
    return this.#claimed.get(api)?.has(id) === true || this.#shared.apisOf(id).includes(api);
  }

  /**
   * Records that the resource recording `recordedId` holds live `id` (its own, or taken in place of its gone
   * id), unless another one held it first: no other resource takes it in place of a gone id.
   */
  hold(api: string, id: number, recordedId: number): void {
    const ids = this.#held.get(api) ?? new Map<number, number>();
    this.#held.set(api, ids.has(id) ? ids : ids.set(id, recordedId));
  }

  /**
   * Whether a resource of this deployment other than the one recording `recordedId` holds `id` of `api`: a
   * create or kept resource claimed it, or another resource took it in place of its own gone id.
   */
  holds(api: string, id: number, recordedId: number): boolean {
    const holder = this.#held.get(api)?.get(id);
    return this.isClaimed(api, id) || (holder !== undefined && holder !== recordedId);
  }

  /** The APIs at which a resource of this deployment creates, adopts or keeps `id`. */
  claimedAt(id: number): string[] {
    const here = [...this.#claimed].filter(([, ids]) => ids.has(id)).map(([api]) => api);
    return [...new Set([...here, ...this.#shared.apisOf(id)])];
  }

  /** Notes a recorded subscription this deployment replaces in the shop: its create settles it first. */
  noteReplaced(target: ShopTarget, recorded: Recorded): void {
    const replaced = this.#replaced.get(target.shopKey) ?? new Map<number, Recorded>();
    this.#replaced.set(target.shopKey, replaced.set(recorded.id, recorded));
  }

  /** The replaced subscriptions of the shop not settled yet. */
  replacedIn(target: ShopTarget): Recorded[] {
    return [...(this.#replaced.get(target.shopKey)?.values() ?? [])];
  }

  /** Marks a replaced subscription settled: it is the shop's, or gone. */
  settleReplaced(target: ShopTarget, id: number): void {
    this.#replaced.get(target.shopKey)?.delete(id);
  }
}
