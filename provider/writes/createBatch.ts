/**
 * Creates, batched per set of credentials and pin: one POST for every hook of a shop that the program declares
 * and whose create arrives together, run in the shop's write lane. A hook whose subscription already has the
 * declared URL is adopted with no write; a second declaration of a hook for the shop is refused.
 */
import type { LiveSubscription } from "../client/apiSchemas";
import type { NewSubscription } from "../client/shippingClient";
import type { Clients } from "../config/clients";
import type { ShopTarget } from "../config/settings";
import type { Claims } from "../facts/claims";
import type { Declarations } from "../facts/declarations";
import type { ShopViews } from "../facts/shopViews";
import type { StackRecords } from "../facts/stackRecords";
import { phase, waitFor } from "../operations/trace";
import { overwrittenAtOnce } from "../refusals/createOutcomes";
import { pinMismatch, WRITTEN_AND_UNDONE } from "../refusals/pin";
import { declaredTwice } from "../rules/oneHookPerShop";
import { isHookAtUrl, type ShopIdentity, shopIdentityOf } from "../rules/recorded";
import { BATCH_WINDOW_MS, Batcher, type ItemResult } from "./batcher";
import { type CreateRequest, pinnedListing, planBatch, refusalOf } from "./createPlans";
import { postAll, type Unconfirmed, type Written } from "./createPost";
import type { Writes } from "./writes";

/**
 * Longest a create waits for the other creates of its shop that this deployment declares (checked) and has
 * not created yet, in ms. The engine starts a shop's creates one checkpoint save apart, which grows with the
 * stack (over 25 ms at a few hundred resources); the wait ends as soon as the last of them arrives.
 */
const CREATE_WAIT_MS = 1_000;
/**
 * A waiting create goes when no create of any shop arrived for this long, in ms: the engine is not starting
 * more (it runs few steps at once, for example `--parallel 1`, and starts the next only when this one ends).
 */
const CREATE_IDLE_MS = 100;

/** What a create wrote or adopted, and the subscription the hook had before. */
interface Created {
  readonly id: number;
  readonly current: LiveSubscription | undefined;
  /** Whether it was seen live with its hook and URL after the write (or adopted from a listing). */
  readonly seen: boolean;
  /** Present when the write could not be read back to match its id to its hook. */
  readonly unconfirmed?: Unconfirmed;
  /** The write overwrote a subscription that no resource of the stack recorded (`takeOver: true`). */
  readonly takenOver?: boolean;
}

/** The shop a batch of creates writes to, and the shop the service reported for it when the batch began. */
interface CreateGroup {
  readonly target: ShopTarget;
  readonly identity: ShopIdentity | undefined;
}

/** The facts and writes a batch of creates works with. */
interface CreateContext {
  readonly clients: Clients;
  readonly views: ShopViews;
  readonly declarations: Declarations;
  readonly claims: Claims;
  readonly records: StackRecords;
  readonly writes: Writes;
}

/** A read-back of a write failed (every attempt): the write stands, unconfirmed. */
export class ReadBackFailure {
  constructor(readonly cause: unknown) {}
}

/** The creates of one deployment. */
export class CreateBatches {
  readonly #ctx: CreateContext;
  readonly #batcher: Batcher<CreateGroup, CreateRequest, Created>;

  constructor(ctx: CreateContext) {
    this.#ctx = ctx;
    const { declarations, writes } = ctx;
    this.#batcher = new Batcher<CreateGroup, CreateRequest, Created>(
      ({ target }) => `${target.shopKey}#pin:${target.pin?.shopId ?? ""}`,
      ({ target, identity }, requests) => {
        // Sent: these creates came, so a sibling that arrives while the batch is in flight waits for none.
        for (const { hook } of requests) declarations.settleCreate(target, hook);
        phase("lane");
        return writes.exclusive(writes.laneOf(target, identity), () =>
          this.#createAll(target, identity, requests),
        );
      },
      {
        windowMs: ({ target }) =>
          declarations.awaitedCreates(target).size > 1 ? CREATE_WAIT_MS : BATCH_WINDOW_MS,
        idleMs: CREATE_IDLE_MS,
        traceAs: "create",
        complete: ({ target }, requests) => {
          const awaited = declarations.awaitedCreates(target);
          return awaited.size > 0 && [...awaited].every((hook) => requests.some((r) => r.hook === hook));
        },
      },
    );
  }

  /** Creates (or adopts) `request` in the shop, with the shop's other creates that arrive together. */
  add(target: ShopTarget, identity: ShopIdentity | undefined, request: CreateRequest): Promise<Created> {
    return this.#batcher.add({ target, identity }, request);
  }

  /** Sends the shop's waiting batch if it now has every create it waits for. */
  recheck(target: ShopTarget): void {
    this.#batcher.recheck({ target, identity: undefined });
  }

  /**
   * Learns the shop of a shop that listed nothing from a read of the new id: a write not seen live with its
   * hook and URL fails (something overwrote it at once); a pinned shop that turns out to be another is undone;
   * a read that fails every attempt throws {@link ReadBackFailure} (after undoing the write in a pinned shop).
   */
  async learnShop(
    target: ShopTarget,
    sub: LiveSubscription,
    seen: boolean,
  ): Promise<ShopIdentity | undefined> {
    const { views, writes } = this.#ctx;
    const { id, hook } = sub;
    const unchecked = async (cause: unknown): Promise<never> => {
      await writes.undoIfUncheckable(target, [id], cause);
      throw new ReadBackFailure(cause);
    };
    const written = seen ? undefined : await writes.readBack(target, id).catch(unchecked);
    if (!seen && (written === undefined || !isHookAtUrl(written, sub))) throw overwrittenAtOnce(id, hook);
    const identity = await views
      .readBackIdentity(target, async () =>
        shopIdentityOf([written ?? (await writes.readBack(target, id)) ?? sub]),
      )
      .catch(unchecked);
    if (target.pin !== undefined && identity?.shopId !== target.pin.shopId) {
      const error = pinMismatch(target, identity, WRITTEN_AND_UNDONE);
      await writes.undo(target, [id], error);
      throw error;
    }
    if (identity !== undefined) {
      this.guardOneDeclaration(target, identity, hook);
      this.record(target, { ...sub, ...identity });
    }
    return identity;
  }

  /**
   * Fails a create of a hook that a create of this deployment wrote in the same shop under another name or
   * key.
   */
  guardOneDeclaration(target: ShopTarget, identity: ShopIdentity, hook: string): void {
    if (this.#ctx.declarations.createIn(target, identity, hook))
      throw declaredTwice(target, identity.shopId, hook);
  }

  /** Records a subscription a create wrote or adopted: claimed for the deployment, and in the shop's view. */
  record(target: ShopTarget, written: LiveSubscription): void {
    this.#ctx.claims.claim(target.api, written.id);
    this.#ctx.records.note(target, written);
    this.#ctx.views.recordWrite(target, written);
  }

  /**
   * Under the shop's write lane (the listing has every earlier write of the deployment applied): adopts each
   * hook whose subscription already has the URL, and POSTs the others in one request.
   */
  async #createAll(
    target: ShopTarget,
    identity: ShopIdentity | undefined,
    requests: readonly CreateRequest[],
  ): Promise<ItemResult<Created>[]> {
    const { views } = this.#ctx;
    const listing = await waitFor("recheck", () => pinnedListing(views, target));
    const results: ItemResult<Created>[] = [];
    const toPost: number[] = [];
    const plans = planBatch(this.#ctx, target, identity, listing, requests);
    plans.forEach((plan, i) => {
      const error = refusalOf(plan, target, (requests[i] as CreateRequest).hook, identity);
      if (error !== undefined) results[i] = { error };
      else if (plan.kind === "adopt")
        results[i] = { value: { id: plan.live.id, current: plan.live, seen: true } };
      else toPost.push(i);
    });
    const posted = await postAll(
      this.#ctx,
      target,
      toPost.map((i) => requests[i] as NewSubscription),
    );
    toPost.forEach((requestIndex, j) => {
      const outcome = posted[j] as ItemResult<Written>;
      const current = listing.find((s) => s.hook === requests[requestIndex]?.hook);
      const plan = plans[requestIndex];
      const takenOver = plan?.kind === "post" && plan.takenOver === true;
      results[requestIndex] =
        "error" in outcome
          ? outcome
          : { value: { ...outcome.value, current, ...(takenOver ? { takenOver } : {}) } };
    });
    results.forEach((result, i) => {
      if ("value" in result) {
        const { hook, url } = requests[i] as CreateRequest;
        this.record(target, { id: result.value.id, hook, url, ...identity });
      }
    });
    return results;
  }
}
