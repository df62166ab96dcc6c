/**
 * The provider: one object per provider process, which serves one deployment. It owns what the deployment
 * knows (facts/), its writes and its batches (writes/); each engine operation is one file of this folder
 * (check.ts, diff.ts, create.ts, read.ts, update.ts, delete.ts), which decodes the inputs, resolves the shop,
 * asks the ownership rule (rules/ownership.ts, through settle.ts) and writes (writes/writes.ts,
 * writes/createBatch.ts).
 */
import { Clients } from "../config/clients";
import type { ConfigSource, ShopTarget } from "../config/settings";
import { ShopTargets } from "../config/shopTargets";
import { Claims } from "../facts/claims";
import { Declarations } from "../facts/declarations";
import type { DeploymentClaims } from "../facts/deploymentClaims";
import type { RecordedShop, SharedDeclarations } from "../facts/deploymentDeclarations";
import { ShopViews } from "../facts/shopViews";
import { StackRecords } from "../facts/stackRecords";
import type { CheckFailure, DiffDecision } from "../inputs/lifecycle";
import type { Operation, Verdict } from "../rules/ownershipFacts";
import type { Recorded } from "../rules/recorded";
import { CreateBatches } from "../writes/createBatch";
import { Writes } from "../writes/writes";
import { checkResource } from "./check";
import { createResource } from "./create";
import { deleteResource } from "./delete";
import type { Deployment } from "./deployment";
import { diffResource } from "./diff";
import { readResource } from "./read";
import type { SubscriptionOutputs } from "./records";
import { settleOwnership } from "./settle";
import { SlotTrace, type TracedOperation } from "./trace";
import { confirmWrite } from "./update";

/** The provider of one deployment: `configure`, `check`, `diff`, `create`, `read` and `delete`. */
export class ShippingProvider {
  #config: ConfigSource | undefined;
  /** The slot-time trace, when SHIPPING_TRACE_FILE names a file (trace.ts). */
  readonly #trace: SlotTrace | undefined;
  readonly #targets: ShopTargets;
  readonly #clients = new Clients(() => this.#targets.configured());
  readonly #views = new ShopViews((target) => this.#clients.for(target).list());
  readonly #declarations = new Declarations();
  readonly #claims = new Claims();
  /** What the stack records, as this deployment has seen it. */
  readonly #records = new StackRecords();
  readonly #writes = new Writes(this.#clients, this.#views, this.#claims);
  readonly #creates = new CreateBatches({
    clients: this.#clients,
    views: this.#views,
    declarations: this.#declarations,
    claims: this.#claims,
    records: this.#records,
    writes: this.#writes,
  });
  /** What every operation reads and writes through. */
  readonly #deployment: Deployment = {
    views: this.#views,
    records: this.#records,
    declarations: this.#declarations,
    claims: this.#claims,
    writes: this.#writes,
    creates: this.#creates,
    targetOf: (shop) => this.#targetOf(shop),
    settle: (operation, recorded, named) => this.#settle(operation, recorded, named),
  };

  /** `env`: where settings not in stack config are read from, at call time. */
  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.#targets = new ShopTargets(() => this.#config, env);
    this.#trace = SlotTrace.from(env);
  }

  /** Shares this provider's claims with the deployment's other provider processes (deploymentClaims.ts). */
  shareClaims(shared: DeploymentClaims): this {
    this.#claims.share(shared);
    return this;
  }

  /**
   * Shares the declarations and creates of this provider's resources with the deployment's other provider
   * processes, so that one hook per shop holds across them (deploymentDeclarations.ts).
   */
  shareDeclarations(shared: SharedDeclarations): this {
    this.#declarations.share(shared);
    return this;
  }

  /** Stores the stack configuration the engine hands over; values are read from it at call time. */
  async configure(req: { config: { get(key: string): string | undefined } }): Promise<void> {
    this.#config = (key) => req.config.get(key);
  }

  /**
   * Validates inputs before any write (check.ts): the URL and hook rules, the shop's credentials and pin, one
   * declaration per hook per shop (by `urn` when the host gives it), and no takeover of a subscription made
   * outside the stack. A failure never quotes an input the host says is `secret`.
   */
  check(
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    urn?: string,
    secret?: ReadonlySet<string>,
  ): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
    return this.#traced("check", () => checkResource(this.#deployment, olds, news, urn, secret));
  }

  /**
   * Replacement on any change of hook, url or shop; `__provider` is ignored. Refuses, before anything is
   * written, a resource whose shop now resolves to another API or (as the service reports it) another shop
   * (diff.ts).
   */
  async diff(
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<DiffDecision> {
    return this.#traced("diff", () => diffResource(this.#deployment, id, olds, news));
  }

  /**
   * Subscribes the hook, taking over a live subscription of it: no write when its URL already matches, else a
   * POST (which overwrites it); `previous` records what was there. The creates of one shop share one POST
   * (create.ts).
   */
  async create(inputs: Record<string, unknown>): Promise<{ id: string; outs: SubscriptionOutputs }> {
    return this.#traced("create", () => createResource(this.#deployment, inputs));
  }

  /**
   * Confirms a subscription whose create was written but not read back (the only resource the engine updates:
   * every change of inputs replaces): no write, one listing of the shop. Still unconfirmed, it fails again
   * (update.ts).
   */
  async update(
    id: string,
    olds: Record<string, unknown>,
    _news: Record<string, unknown>,
  ): Promise<{ outs: Record<string, unknown> }> {
    return this.#traced("update", () => confirmWrite(this.#deployment, id, olds));
  }

  /**
   * Reads the live subscription. It is this resource's only when id, hook, URL and shop match; anything else
   * (deleted, re-pointed by another stack or the back office) returns no id, so refresh drops it and the next
   * `up` subscribes the hook again (read.ts).
   */
  async read(
    id: string,
    props: Record<string, unknown>,
  ): Promise<{ id?: string; props?: Record<string, unknown>; inputs?: Record<string, unknown> }> {
    return this.#traced("read", () => readResource(this.#deployment, id, props));
  }

  /**
   * Deletes the subscription unless it is gone already or no longer this resource's: when a create in this
   * deployment wrote or adopted the same id (a replacement), or when the live subscription has another hook,
   * URL or shop than recorded (re-pointed since, by a newer declaration, another stack or the back office)
   * (delete.ts).
   */
  async delete(id: string, props: Record<string, unknown>): Promise<void> {
    return this.#traced("delete", () => deleteResource(this.#deployment, id, props));
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
      declaredIn: (recorded: Recorded, at: RecordedShop) =>
        this.#declarations.declaredIn(recorded.hook, recorded.url, this.#targets.configured(), at),
    };
    return settleOwnership(ctx, operation, recorded, named);
  }

  /** `run`, traced as `op` when the trace is on. */
  #traced<T>(op: TracedOperation, run: () => Promise<T>): Promise<T> {
    return this.#trace === undefined ? run() : this.#trace.run(op, run);
  }

  #targetOf(shop: unknown): ShopTarget {
    return this.#targets.resolve(typeof shop === "string" ? shop : undefined);
  }
}
