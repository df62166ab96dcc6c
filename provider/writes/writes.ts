/**
 * Every request of the deployment that changes the service, or reads back what it changed: the write lanes
 * (a shop's writes run one at a time), batched deletes with the ownership check made again right before the
 * DELETE, the DELETE that asks whether an unlisted id is gone, read-backs of written ids, and the undo of a
 * write into a pinned shop that could not be checked.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LiveSubscription } from "../client/apiSchemas";
import type { Clients } from "../config/clients";
import type { ShopTarget } from "../config/settings";
import { ShippingRequestError } from "../errors/requestError";
import type { Claims } from "../facts/claims";
import type { ShopViews } from "../facts/shopViews";
import { phase, waitFor } from "../operations/trace";
import { pinnedReadBackFailed, undoFailed } from "../refusals/pin";
import { type GoneAnswer, isRecorded, pinRefusal } from "../rules/ownershipFacts";
import { type Recorded, type ShopIdentity, shopIdentityOf } from "../rules/recorded";
import { IdBatcher } from "./idBatcher";

/**
 * Attempts at reading back what was just written: a GET, safe to repeat, so also after a 500 (which the
 * client does not retry); then a fresh listing of the shop. A write is lost only if every read fails.
 */
const READ_BACK_ATTEMPTS = 3;
/** Wait before the second read-back attempt, in ms; the third waits twice as long. */
const READ_BACK_RETRY_DELAY_MS = 250;
/** Attempts at the DELETE that undoes an unchecked write (a DELETE of an id is safe to repeat). */
const UNDO_ATTEMPTS = 3;
/** Wait before the second undo attempt, in ms; the third waits twice as long. */
const UNDO_RETRY_DELAY_MS = 500;

function isNotFound(error: unknown): boolean {
  return error instanceof ShippingRequestError && error.status === 404;
}

/** The writes of one deployment. */
export class Writes {
  readonly #clients: Clients;
  readonly #views: ShopViews;
  readonly #claims: Claims;
  /** The tail of each lane's chain of writes. */
  readonly #lanes = new Map<string, Promise<unknown>>();
  /** By `shopKey`, then id: what each queued delete recorded, for the check right before the DELETE. */
  readonly #queued = new Map<string, Map<number, Recorded>>();
  /** By `shopKey`, then id: the service's answer to whether an unlisted id is gone (ids are never reused). */
  readonly #goneAnswers = new Map<string, Map<number, Promise<GoneAnswer | undefined>>>();
  readonly #deletes: IdBatcher<ShopTarget, true>;
  readonly #questions: IdBatcher<ShopTarget, GoneAnswer>;
  readonly #readBacks: IdBatcher<ShopTarget, LiveSubscription>;

  constructor(clients: Clients, views: ShopViews, claims: Claims) {
    this.#clients = clients;
    this.#views = views;
    this.#claims = claims;
    const byShop = (target: ShopTarget) => target.shopKey;
    // A shop's first delete goes at once; those that come while it runs join the next DELETE (they would wait
    // for the shop's lane anyway). No delete waits for another that may not come: the engine rarely starts a
    // shop's deletes together (docs/performance.md).
    this.#deletes = new IdBatcher(byShop, (target, ids) => this.#deleteOwned(target, ids), {
      whileInFlight: true,
      traceAs: "delete",
    });
    this.#questions = new IdBatcher(byShop, async (target, ids) => new Map(await this.#ask(target, ids)));
    this.#readBacks = new IdBatcher(
      byShop,
      async (target, ids) => new Map((await this.confirm(target, ids)).map((s) => [s.id, s])),
    );
  }

  /** The lane of one shop's writes: the shop as the service reports it, else the credentials. */
  laneOf(target: ShopTarget, identity: ShopIdentity | undefined): string {
    return identity === undefined ? target.shopKey : `${target.api}#shop:${identity.shopId}`;
  }

  /**
   * Runs `write` after every earlier write of the same lane has settled, so that a delete's ownership check
   * and its DELETE see every create of the deployment that came before, and no POST of the shop is in flight.
   */
  exclusive<T>(lane: string, write: () => Promise<T>): Promise<T> {
    const result = (this.#lanes.get(lane) ?? Promise.resolve()).then(write, write);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#lanes.set(lane, settled);
    settled.then(() => {
      if (this.#lanes.get(lane) === settled) this.#lanes.delete(lane);
    });
    return result;
  }

  /** Deletes a recorded subscription, batched per shop, if it is still the resource's right before the DELETE. */
  async delete(target: ShopTarget, recorded: Recorded): Promise<void> {
    const queued = this.#queued.get(target.shopKey) ?? new Map<number, Recorded>();
    this.#queued.set(target.shopKey, queued.set(recorded.id, recorded));
    await waitFor("batchWindow", () => this.#deletes.load(target, recorded.id));
  }

  async #deleteOwned(target: ShopTarget, ids: number[]): Promise<Map<number, true>> {
    const lane = this.laneOf(
      target,
      shopIdentityOf(await waitFor("listing", () => this.#views.listing(target))),
    );
    const queued = this.#queued.get(target.shopKey);
    phase("lane");
    await this.exclusive(lane, async () => {
      // Under the shop's write lane: every earlier create of the deployment is in the listing and the claims.
      const current = await waitFor("recheck", () => this.#views.listing(target));
      const owned = ids.filter((id) => {
        const recorded = queued?.get(id);
        const live = current.find((s) => s.id === id);
        return (
          recorded !== undefined &&
          live !== undefined &&
          isRecorded(live, recorded) &&
          !this.#claims.isClaimed(target.api, id)
        );
      });
      await waitFor("delete", () => this.deleteIds(target, owned));
    });
    for (const id of ids) queued?.delete(id);
    return new Map(ids.map((id) => [id, true as const]));
  }

  /** DELETEs `ids` (one request; one by one when the service refuses the list for an unknown id). */
  async deleteIds(target: ShopTarget, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const client = this.#clients.for(target);
    try {
      await client.delete(ids);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      // One of the ids vanished meanwhile; the API may have refused the whole batch, so go one by one.
      const ignoreNotFound = (e: unknown) => {
        if (!isNotFound(e)) throw e;
      };
      if (ids.length > 1) await Promise.all(ids.map((id) => client.delete([id]).catch(ignoreNotFound)));
    } finally {
      this.#views.recordDelete(target.api, ids);
    }
  }

  /**
   * Asks the service whether a recorded id the shop does not list is gone: a DELETE of it, which deletes
   * nothing (the shop does not list it). 404 says gone, 403 deleteResourceOwnedByOthers another shop's, any
   * other 403 that this key may not ask; a success that it existed after all. Asked once per deployment.
   */
  goneAnswer(target: ShopTarget, id: number): Promise<GoneAnswer | undefined> {
    const answers =
      this.#goneAnswers.get(target.shopKey) ?? new Map<number, Promise<GoneAnswer | undefined>>();
    this.#goneAnswers.set(target.shopKey, answers);
    let answer = answers.get(id);
    if (answer === undefined) {
      answer = this.#questions.load(target, id);
      answers.set(id, answer);
      answer.catch(() => answers.delete(id));
    }
    return answer;
  }

  async #ask(target: ShopTarget, ids: number[]): Promise<[number, GoneAnswer][]> {
    const answer = (a: GoneAnswer) => ids.map((id): [number, GoneAnswer] => [id, a]);
    const oneByOne = async () => (await Promise.all(ids.map((id) => this.#ask(target, [id])))).flat();
    try {
      await this.#clients.for(target).delete(ids);
    } catch (error) {
      if (!(error instanceof ShippingRequestError)) throw error;
      // A service may answer 404 for a whole list when one id is unknown, even if another is another shop's
      // (the spec shows neither order): only an id asked about alone is gone on a 404.
      if (error.status === 404) return ids.length > 1 ? oneByOne() : answer("gone");
      if (error.status !== 403) throw error;
      if (!error.ownedByOthers) return answer("cannotAsk");
      // One id of another shop refuses the whole request: ask again one by one to learn which.
      return ids.length > 1 ? oneByOne() : answer("elsewhere");
    }
    this.#views.recordDelete(target.api, ids);
    return answer("deleted");
  }

  /**
   * The shop's listing after a write whose answer was lost (the view forgot it), tried like a read-back: the
   * only way to tell whether the write was applied. Undefined when every attempt failed.
   */
  async relist(target: ShopTarget): Promise<LiveSubscription[] | undefined> {
    const read = await attempts(READ_BACK_ATTEMPTS, READ_BACK_RETRY_DELAY_MS, () =>
      this.#views.listing(target),
    );
    return read.ok ? read.value : undefined;
  }

  /**
   * Reads back just-written ids: a GET of them, tried {@link READ_BACK_ATTEMPTS} times whatever the failure,
   * then a fresh listing of the shop. Throws the read's failure when every attempt failed.
   */
  async confirm(target: ShopTarget, ids: readonly number[]): Promise<LiveSubscription[]> {
    const client = this.#clients.for(target);
    const read = await attempts(READ_BACK_ATTEMPTS, READ_BACK_RETRY_DELAY_MS, () => client.list(ids));
    if (read.ok) return read.value;
    // A fresh listing of the shop, outside the deployment's view of it (which keeps what it knows).
    const listing = await client.list().catch(() => undefined);
    if (listing === undefined) throw read.failure;
    return listing.filter((s) => ids.includes(s.id));
  }

  /** Reads back a just-written id (batched per shop, see {@link confirm}); undefined when the shop lacks it. */
  readBack(target: ShopTarget, id: number): Promise<LiveSubscription | undefined> {
    return this.#readBacks.load(target, id);
  }

  /**
   * For a failed read-back of ids just written: in a pinned shop that listed nothing (so the write is not
   * checked against the pin yet, and no earlier write of the deployment told the shop), the write is undone
   * and the failure thrown. Otherwise returns: the write stays, for the create to record as unconfirmed.
   */
  async undoIfUncheckable(target: ShopTarget, ids: readonly number[], error: unknown): Promise<void> {
    if (target.pin === undefined || !this.#views.listedEmpty(target)) return;
    // An earlier write of the deployment told the shop, and the pin check passed: nothing to undo.
    const known = await this.#views.listing(target).then(
      (listing) =>
        pinRefusal({ ...this.#views.facts(target, 0, listing), listing }) === undefined
          ? shopIdentityOf(listing)
          : undefined,
      () => undefined,
    );
    if (known !== undefined) return;
    const failure = pinnedReadBackFailed(target, ids, error);
    await this.undo(target, ids, failure);
    throw failure;
  }

  /**
   * Deletes what this deployment wrote into a pinned shop that listed nothing, when the write cannot be
   * checked against the pin or failed the check. Throws, naming the subscriptions left behind, when the DELETE
   * fails {@link UNDO_ATTEMPTS} times.
   */
  async undo(target: ShopTarget, ids: readonly number[], why: unknown): Promise<void> {
    const undone = await attempts(UNDO_ATTEMPTS, UNDO_RETRY_DELAY_MS, () => this.deleteIds(target, ids));
    if (!undone.ok) throw undoFailed(target, ids, why, undone.failure);
  }
}

/**
 * Runs `operation` up to `count` times whatever its failure (on top of the client's own retries, which stop
 * at what its policy calls final), waiting `delayMs` times the attempt number before each new one: for the
 * reads and the undo that decide what a write did, where giving up loses that answer.
 */
async function attempts<T>(
  count: number,
  delayMs: number,
  operation: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; failure: unknown }> {
  let failure: unknown;
  for (let attempt = 0; attempt < count; attempt++) {
    if (attempt > 0) await sleep(delayMs * attempt);
    try {
      return { ok: true, value: await operation() };
    } catch (error) {
      failure = error;
    }
  }
  return { ok: false, failure };
}
