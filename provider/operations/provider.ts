/**
 * The provider: one object per provider process, which serves one deployment. It owns what the deployment
 * knows (facts/), its writes and its batches; each operation decodes its inputs, resolves the shop, asks the
 * ownership rule (ownership.ts) and writes (writes.ts, createBatch.ts).
 */

import type { ConfigSource, ShopTarget } from "../config/settings";
import { ShopTargets } from "../config/shopTargets";
import { ShippingError } from "../errors/shippingError";
import { ShippingUnconfirmedWriteError } from "../errors/unconfirmedWriteError";
import { Claims } from "../facts/claims";
import { Declarations } from "../facts/declarations";
import type { DeploymentClaims } from "../facts/deploymentClaims";
import { ShopViews } from "../facts/shopViews";
import { StackRecords } from "../facts/stackRecords";
import { type CheckFailure, type DiffDecision, diffInputs, UNKNOWN_VALUE } from "../inputs/lifecycle";
import { notOurs, stillUnconfirmed } from "../refusals/refusals";
import { type Operation, type Recorded, shopIdentityOf, type Verdict } from "../rules/ownership";
import { Clients } from "../writes/clients";
import { CreateBatches, ReadBackFailure } from "../writes/createBatch";
import { pinnedListing, takeoverBeforeWrite } from "../writes/createPlans";
import { Writes } from "../writes/writes";
import { checkResource } from "./check";
import { importById } from "./importById";
import { confirmedProps, outputsOf, recordedOf, type SubscriptionOutputs, unconfirmedError } from "./records";
import { settleOwnership } from "./settle";
import { warn } from "./warnings";

export type { SubscriptionOutputs } from "./records";

/** The provider of one deployment: `configure`, `check`, `diff`, `create`, `read` and `delete`. */
export class ShippingProvider {
  #config: ConfigSource | undefined;
  readonly #targets: ShopTargets;
  readonly #clients = new Clients(() => this.#targets.configured());
  readonly #views = new ShopViews((target) => this.#clients.for(target).list());
  readonly #declarations = new Declarations();
  readonly #claims = new Claims();
  /** What a takeover decision before any write reads. */
  readonly #records = new StackRecords();
  /** What a takeover decision before any write reads. */
  readonly #facts = { views: this.#views, records: this.#records };
  readonly #writes = new Writes(this.#clients, this.#views, this.#claims);
  readonly #creates = new CreateBatches({
    clients: this.#clients,
    views: this.#views,
    declarations: this.#declarations,
    claims: this.#claims,
    records: this.#records,
    writes: this.#writes,
  });

  /** `env`: where settings not in stack config are read from, at call time. */
  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.#targets = new ShopTargets(() => this.#config, env);
  }

  /** Shares this provider's claims with the deployment's other provider processes (deploymentClaims.ts). */
  shareClaims(shared: DeploymentClaims): this {
    this.#claims.share(shared);
    return this;
  }

  /** Stores the stack configuration the engine hands over; values are read from it at call time. */
  async configure(req: { config: { get(key: string): string | undefined } }): Promise<void> {
    this.#config = (key) => req.config.get(key);
  }

  /**
   * Validates inputs before any write (check.ts): the URL and hook rules, the shop's credentials and pin, one
   * declaration per hook per shop (by `urn` when the host gives it), and no takeover of a subscription made
   * outside the stack.
   */
  check(
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    urn?: string,
  ): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
    const ctx = {
      ...this.#facts,
      declarations: this.#declarations,
      targetOf: (shop: unknown) => this.#targetOf(shop),
    };
    return checkResource(ctx, olds, news, urn);
  }

  /**
   * Replacement on any change of hook, url or shop; `__provider` is ignored. Refuses, before anything is
   * written, a resource whose shop now resolves to another API or (as the service reports it) another shop.
   */
  async diff(
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<DiffDecision> {
    const decision = diffInputs(olds, news);
    const recorded = recordedOf(id, olds);
    if (decision.replaces.includes("shop") || news.shop === UNKNOWN_VALUE) {
      // The create decides under the new shop's write lane; what the resource records stays the stack's.
      this.#records.noteWhereResolved(() => this.#targetOf(recorded.shop), recorded);
      if (recorded.api !== undefined) this.#records.noteDiffed(recorded.api, recorded.id, "handsOn");
      return decision;
    }
    const target = this.#targetOf(news.shop);
    const kept = !decision.changes && this.#declarations.wasChecked(target, recorded.hook, recorded.url);
    const verdict = await this.#settle("diff", recorded, target);
    if (verdict.kind === "refuse") throw verdict.error;
    this.#records.note(target, recorded);
    const handsOn = decision.replaces.includes("hook");
    this.#records.noteDiffed(recorded.api ?? target.api, recorded.id, handsOn ? "handsOn" : "keepsHook");
    if (decision.replaces.length > 0) {
      // Its create would overwrite a subscription made outside the stack: refused before any write.
      const takeover = await takeoverBeforeWrite(this.#facts, news, target);
      if (takeover !== undefined) throw new ShippingError(takeover);
      // A replacement's create first settles that the recorded id is this shop's or gone.
      this.#claims.noteReplaced(target, recorded);
    }
    if (kept) {
      // A resource the program declares keeps this subscription: no delete of the deployment removes it, and a
      // create of the same hook in the same shop under another key is a second declaration.
      this.#claims.keep(recorded.api ?? target.api, recorded.id);
      if (recorded.shopId !== undefined)
        this.#creates.guardOneDeclaration(target, { shopId: recorded.shopId }, recorded.hook);
    }
    if (!decision.changes) {
      this.#declarations.settleCreate(target, recorded.hook);
      this.#creates.recheck(target);
    }
    return decision;
  }

  /**
   * Subscribes the hook, taking over a live subscription of it: no write when its URL already matches, else a
   * POST (which overwrites it); `previous` records what was there. The creates of one shop share one POST.
   */
  async create(inputs: Record<string, unknown>): Promise<{ id: string; outs: SubscriptionOutputs }> {
    const hook = String(inputs.hook);
    const url = String(inputs.url);
    const target = this.#targetOf(inputs.shop);
    await this.#settleReplaced(target);
    let identity = shopIdentityOf(await pinnedListing(this.#views, target));
    const request = { hook, url, takeOver: inputs.takeOver === true };
    const { id, current, seen, unconfirmed, takenOver } = await this.#creates.add(target, identity, request);
    const outs = outputsOf(inputs, target, id, current, takenOver === true);
    if (unconfirmed !== undefined)
      throw unconfirmedError(inputs, target, outs, unconfirmed.written, unconfirmed.cause);
    // A shop that listed nothing cannot say which shop it is; a read of the new id does (if the service says).
    if (identity === undefined && this.#views.listedEmpty(target)) {
      identity = await this.#creates.learnShop(target, { id, hook, url }, seen).catch((error: unknown) => {
        if (error instanceof ReadBackFailure) throw unconfirmedError(inputs, target, outs, [id], error.cause);
        throw error;
      });
    }
    return { id: String(id), outs: { ...outs, ...identity } };
  }

  /**
   * Confirms a subscription whose create was written but not read back (the only resource the engine updates:
   * every change of inputs replaces): no write, one listing of the shop. Still unconfirmed, it fails again.
   */
  async update(
    id: string,
    olds: Record<string, unknown>,
    _news: Record<string, unknown>,
  ): Promise<{ outs: Record<string, unknown> }> {
    const recorded = recordedOf(id, olds);
    const verdict = await this.#settle("read", recorded, recorded.shop);
    if (verdict.kind === "refuse") throw verdict.error;
    if (verdict.kind === "ours" && verdict.live?.id === recorded.id) {
      return {
        outs: { ...confirmedProps(olds), api: verdict.target.api, ...shopIdentityOf([verdict.live]) },
      };
    }
    const why =
      verdict.kind === "ours"
        ? `the service holds ${recorded.hook} at this URL as subscription ${verdict.live?.id}`
        : `the service does not hold it as ${recorded.hook} at this URL`;
    throw new ShippingUnconfirmedWriteError(
      stillUnconfirmed(recorded.id, recorded.hook, why),
      recorded.id,
      olds,
    );
  }

  /**
   * Reads the live subscription. It is this resource's only when id, hook, URL and shop match; anything else
   * (deleted, re-pointed by another stack or the back office) returns no id, so refresh drops it and the next
   * `up` subscribes the hook again.
   */
  async read(
    id: string,
    props: Record<string, unknown>,
  ): Promise<{ id?: string; props?: Record<string, unknown>; inputs?: Record<string, unknown> }> {
    // An import: the id alone (importById.ts).
    if (props.hook === undefined) return importById(id, (shop) => this.#targetOf(shop), this.#views);
    const recorded = recordedOf(id, props);
    const verdict = await this.#settle("read", recorded, recorded.shop);
    if ("target" in verdict) this.#records.note(verdict.target, recorded);
    switch (verdict.kind) {
      case "ours": {
        // An unconfirmed write is confirmed once read back: its id is the one that is this hook at this URL.
        const liveId = verdict.live?.id ?? recorded.id;
        const { unconfirmed: _written, ...kept } = props;
        const identity = shopIdentityOf(verdict.live ? [verdict.live] : []);
        return {
          id: String(liveId),
          props: { ...kept, subscriptionId: liveId, api: verdict.target.api, ...identity },
        };
      }
      case "taken":
        warn(
          notOurs(
            verdict.live.id,
            verdict.live.hook,
            "refresh treats it as gone, and the next `pulumi up` subscribes the hook again",
          ),
        );
        return {};
      case "gone":
        if (verdict.warning !== undefined) warn(verdict.warning);
        return {};
      default:
        throw settled(verdict);
    }
  }

  /**
   * Deletes the subscription unless it is gone already or no longer this resource's: when a create in this
   * deployment wrote or adopted the same id (a replacement), or when the live subscription has another hook,
   * URL or shop than recorded (re-pointed since, by a newer declaration, another stack or the back office).
   */
  async delete(id: string, props: Record<string, unknown>): Promise<void> {
    const recorded = recordedOf(id, props);
    const verdict = await this.#settle("delete", recorded, recorded.shop);
    switch (verdict.kind) {
      case "ours":
        return this.#writes.delete(verdict.target, { ...recorded, id: verdict.live?.id ?? recorded.id });
      case "taken":
        return warn(
          notOurs(verdict.live.id, verdict.live.hook, "not deleting it, it belongs to a newer declaration"),
        );
      case "gone":
        return verdict.warning !== undefined ? warn(verdict.warning) : undefined;
      case "claimed":
        return;
      default:
        throw settled(verdict);
    }
  }

  /** The ownership rule's verdict about `recorded`, with the facts it asks for (settle.ts). */
  #settle(
    operation: Operation,
    recorded: Recorded,
    named: ShopTarget | string | undefined,
  ): Promise<Verdict> {
    const ctx = {
      views: this.#views,
      claims: this.#claims,
      records: this.#records,
      writes: this.#writes,
      resolve: (shop: string | undefined) => this.#targetOf(shop),
      configured: () => this.#targets.configured(),
      declaredIn: (hook: string, url: string) => this.#declarations.declaredIn(hook, url),
    };
    return settleOwnership(ctx, operation, recorded, named);
  }

  #targetOf(shop: unknown): ShopTarget {
    return this.#targets.resolve(typeof shop === "string" ? shop : undefined);
  }

  /**
   * Before a create writes into (or adopts from) a shop: every recorded subscription this deployment replaces
   * in the shop is the shop's or gone. Else the key now reaches another shop, and the replacement would write
   * there before the old resource's delete found out.
   */
  async #settleReplaced(target: ShopTarget): Promise<void> {
    await Promise.all(
      this.#claims.replacedIn(target).map(async (recorded) => {
        const verdict = await this.#settle("replace", recorded, target);
        if (verdict.kind === "refuse") throw verdict.error;
        if (verdict.kind === "gone" && verdict.warning !== undefined) warn(verdict.warning);
        this.#claims.settleReplaced(target, recorded.id);
      }),
    );
  }
}

/** A refusal of the verdict, or an internal error for a verdict that does not fit the operation. */
function settled(verdict: Verdict): unknown {
  const unexpected = () => new ShippingError(`internal error: unexpected verdict ${verdict.kind}`);
  return verdict.kind === "refuse" ? verdict.error : unexpected();
}
