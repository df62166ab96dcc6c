/**
 * The real system under exploration: two simulated services, two stacks driven by the real Pulumi CLI, and
 * the model (what each stack declares, who owns which subscription). `apply` runs one step and answers the
 * invariant violations it caused.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as pulumiSdk from "@pulumi/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import type * as providerModule from "../../provider";
import { pulumiCliRoot } from "../lib/pulumiCli";
import { DEMO_PASSPHRASE, withDeadline } from "../lib/stacks";
import {
  declaredHooksLive,
  declaredUrl,
  failureSaysWhy,
  firstError,
  secretsAtRest,
  secretsIn,
  secretsInOutputs,
} from "./checks";
import {
  type ExplorerStack,
  killDuringUp,
  OPERATION_DEADLINE_MS,
  type OperationResult,
  openExplorerStack,
  plainExport,
  runOperation,
} from "./engine";
import { allSubs, changesBetween, Ledger, type LiveSub, type Snapshot, type StateRecord } from "./ledger";
import {
  ALT_SHOP_ENTRY,
  applyEdit,
  backOfficeUrl,
  declaredShop,
  duplicateDeclarations,
  emptyStack,
  type FaultName,
  type Operation,
  realShop,
  resolveNames,
  resourceShop,
  type ServiceName,
  SHOP_KEYS,
  type ShopEntry,
  type StackDecl,
  type StackName,
  type Step,
} from "./model";
import { FAILING_FAULTS, Services, shopIdOf } from "./services";
import { checkpointFile, readCheckpoint, subscriptionRecords } from "./stateFiles";

/** The Pulumi project name of the explorer's stacks. */
const PROJECT = "explorer";
/** Short client limits, so a fault that outlasts the retries fails within seconds. */
const FAST_TIMEOUTS = { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000, deadlineMs: 15_000 };
const FAST_RETRY = { maxRetries: 3, baseDelayMs: 50, maxDelayMs: 400, maxRetryAfterMs: 5_000 };

/** The repository root: the nearest folder up whose package.json is this package. */
export function repoRoot(from = __dirname): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      JSON.parse(readFileSync(manifest, "utf8")).name === "pulumi-shipping-webhooks"
    ) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no pulumi-shipping-webhooks package.json above ${from}`);
    dir = parent;
  }
}

/** What happened in one step. */
export interface StepReport {
  readonly step: Step;
  /** The step did not apply (for example an edit of a resource that is not declared). */
  readonly skipped: boolean;
  /** Whether an engine operation ran. */
  readonly operation: boolean;
  readonly violations: readonly string[];
  /** A short note for the log: how an operation ended. */
  readonly note: string;
}

/** Options of a {@link World}. */
export interface WorldOptions {
  /**
   * A folder holding a package to install as `pulumi-shipping-webhooks` in the stacks' project, so that the
   * provider process loads its runtime instead of this repository's build (a deliberately broken build).
   */
  readonly providerPackageDir?: string;
}

interface StackRuntime {
  decl: StackDecl;
  handle?: ExplorerStack;
  /** Someone else changed one of its declared hooks since its last refresh. */
  dirty: boolean;
  /** The real shop of each entry when its last successful operation ran. */
  lastShops?: Record<ShopEntry, string>;
  /** Secret URLs were declared at some point (then a plain export is scanned after each `up`). */
  declaredSecrets: boolean;
}

/** The system under exploration. */
export class World {
  private readonly load: NodeJS.Require;
  private readonly root: string;
  private runDir = "";
  private ledger = new Ledger();
  private stacks: Record<StackName, StackRuntime> = { one: freshStack(), two: freshStack() };
  private pendingFaults: Array<{ service: ServiceName; fault: FaultName }> = [];

  private constructor(
    private readonly services: Services,
    private readonly options: WorldOptions,
  ) {
    this.root = repoRoot();
    this.load = createRequire(join(this.root, "dist", "provider", "index.js"));
  }

  /** Starts the services. */
  static async create(options: WorldOptions = {}): Promise<World> {
    return new World(await Services.start(), options);
  }

  /** Starts a fresh run: empty services, new project and backend folders, nothing declared. */
  async beginRun(): Promise<void> {
    await this.services.reset();
    this.runDir = join(this.root, ".tmp", "explorer", `run-${randomBytes(4).toString("hex")}`);
    mkdirSync(join(this.runDir, "project"), { recursive: true });
    mkdirSync(join(this.runDir, "backend"), { recursive: true });
    mkdirSync(this.pulumiHome(), { recursive: true });
    if (this.options.providerPackageDir !== undefined) {
      mkdirSync(join(this.runDir, "project", "node_modules"), { recursive: true });
      symlinkSync(
        this.options.providerPackageDir,
        join(this.runDir, "project", "node_modules", "pulumi-shipping-webhooks"),
      );
    }
    this.ledger = new Ledger();
    this.stacks = { one: freshStack(), two: freshStack() };
    this.pendingFaults = [];
  }

  /** Ends a run; its folders are removed unless `keep`. */
  endRun(keep = false): string {
    if (!keep && this.runDir !== "") rmSync(this.runDir, { recursive: true, force: true });
    return this.runDir;
  }

  /** Stops the services. */
  async close(): Promise<void> {
    await this.services.close();
  }

  /** Runs one step; answers what happened and the invariants it broke. */
  async apply(step: Step): Promise<StepReport> {
    const quiet = (skipped: boolean, note = ""): StepReport => ({
      step,
      skipped,
      operation: false,
      violations: [],
      note,
    });
    switch (step.kind) {
      case "operation":
      case "kill": {
        const runtime = this.stacks[step.stack];
        // A stack never deployed, declaring nothing: no operation can do anything (and each costs a CLI run).
        if (runtime.handle === undefined && runtime.decl.resources.length === 0) return quiet(true);
        return this.operate(step.stack, step.kind === "kill" ? "kill" : step.op, step);
      }
      case "fault":
        this.pendingFaults.push({ service: step.service, fault: step.fault });
        return quiet(false);
      case "switch":
        return quiet(!this.services.setSwitch(step.service, step.patch));
      case "outOfBand":
        return quiet(!(await this.backOffice(step)));
      default: {
        const runtime = this.stacks[step.stack];
        const resolved = resolveNames(runtime.decl, step);
        const next = applyEdit(runtime.decl, resolved);
        if (next === undefined) return quiet(true);
        runtime.decl = next;
        if (next.resources.some((r) => r.secret)) runtime.declaredSecrets = true;
        return { step: resolved, skipped: false, operation: false, violations: [], note: "" };
      }
    }
  }

  private pulumiHome(): string {
    return join(this.root, ".tmp", "explorer", "pulumi-home");
  }

  private async backOffice(step: Extract<Step, { kind: "outOfBand" }>): Promise<boolean> {
    const before = this.services.snapshot();
    const sent = await this.services.backOffice(
      step.service,
      step.key,
      step.action,
      step.hook,
      backOfficeUrl(step.url),
    );
    const changes = changesBetween(before, this.services.snapshot());
    this.ledger.recordBackOffice(changes);
    this.markDirty(
      undefined,
      changes.map((c) => `${c.shop}#${c.hook}`),
    );
    return sent;
  }

  private markDirty(actor: StackName | undefined, touched: readonly string[]): void {
    for (const [name, runtime] of Object.entries(this.stacks) as Array<[StackName, StackRuntime]>) {
      if (name === actor) continue;
      const declared = declaredPairs(runtime.decl);
      if (touched.some((t) => declared.has(t))) runtime.dirty = true;
    }
  }

  private async stackOf(name: StackName): Promise<ExplorerStack> {
    const runtime = this.stacks[name];
    if (runtime.handle === undefined) {
      runtime.handle = await openExplorerStack(
        {
          workDir: join(this.runDir, "project"),
          backendDir: join(this.runDir, "backend"),
          pulumiHome: this.pulumiHome(),
        },
        PROJECT,
        name,
        this.program(name),
      );
    }
    runtime.handle.setEnv(this.envOf(runtime.decl));
    return runtime.handle;
  }

  private program(name: StackName) {
    const pulumi = this.load("@pulumi/pulumi") as typeof pulumiSdk;
    const provider = this.load(join(this.root, "dist", "provider", "index.js")) as typeof providerModule;
    return async () => {
      const outputs: Record<string, unknown> = {};
      for (const r of this.stacks[name].decl.resources) {
        const url = declaredUrl(r);
        const resource = new provider.WebhookSubscription(
          r.name,
          {
            hook: r.hook,
            url: r.secret ? pulumi.secret(url) : url,
            ...(r.shop === "alt" ? { shop: ALT_SHOP_ENTRY } : {}),
          },
          {
            deleteBeforeReplace: r.deleteBeforeReplace,
            retainOnDelete: r.retainOnDelete,
            protect: r.protect,
            ...(r.ignoreUrl ? { ignoreChanges: ["url"] } : {}),
            ...(r.aliasOf !== undefined ? { aliases: [{ name: r.aliasOf }] } : {}),
          },
        );
        // One output per value: the engine marks secrecy per top-level output only.
        outputs[`${r.name}-id`] = resource.id;
        outputs[`${r.name}-url`] = resource.url;
        outputs[`${r.name}-previous`] = resource.previous;
      }
      return outputs;
    };
  }

  private envOf(decl: StackDecl): Record<string, string> {
    const { default: main, alt } = decl.targets;
    return {
      SHIPPING_API_KEY: SHOP_KEYS[main.key].key,
      SHIPPING_BASE_URL: this.services.baseUrl(main),
      ...(main.pin !== undefined ? { SHIPPING_SHOP_ID: shopIdOf(main.pin) } : {}),
      SHIPPING_SHOPS: JSON.stringify({
        [ALT_SHOP_ENTRY]: {
          apiKey: SHOP_KEYS[alt.key].key,
          baseUrl: this.services.baseUrl(alt),
          ...(alt.pin !== undefined ? { shopId: shopIdOf(alt.pin) } : {}),
        },
      }),
      SHIPPING_TIMEOUTS: JSON.stringify(FAST_TIMEOUTS),
      SHIPPING_RETRY: JSON.stringify(FAST_RETRY),
    };
  }

  private passphrase(): string {
    return process.env.PULUMI_CONFIG_PASSPHRASE ?? DEMO_PASSPHRASE;
  }

  private checkpointOf(name: StackName) {
    return readCheckpoint(checkpointFile(join(this.runDir, "backend"), PROJECT, name), this.passphrase());
  }

  private checkpointHash(name: StackName): string {
    const file = checkpointFile(join(this.runDir, "backend"), PROJECT, name);
    return existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : "none";
  }

  /** Operations run again after a gRPC transport failure between the CLI and the program (see operate). */
  transportRetries = 0;

  /** A failure of the engine-program transport ("14 UNAVAILABLE") that wrote nothing and saved nothing. */
  private lostTransport(
    result: OperationResult,
    writesBefore: number,
    name: StackName,
    hash: string,
  ): boolean {
    return (
      !result.ok &&
      /14 UNAVAILABLE: No connection established/.test(result.text) &&
      this.services.writeCount() === writesBefore &&
      this.checkpointHash(name) === hash
    );
  }

  private async operate(name: StackName, op: Operation | "kill", step: Step): Promise<StepReport> {
    const runtime = this.stacks[name];
    const { stack } = await this.stackOf(name);
    const faults = this.pendingFaults;
    this.pendingFaults = [];
    for (const f of faults) this.services.armFault(f.service, f.fault);
    const before = this.services.snapshot();
    const writesBefore = this.services.writeCount();
    const checkpointBefore = this.checkpointOf(name);
    const recordsBefore = subscriptionRecords(checkpointBefore);
    const hashBefore = this.checkpointHash(name);
    const started = Date.now();
    let result: OperationResult;
    let killed = false;
    if (op === "kill") {
      ({ killed, result } = await killDuringUp(
        stack,
        pulumiCliRoot(),
        () => this.services.writeCount() > writesBefore,
      ));
      if (killed) await this.recoverFromKill(stack);
    } else {
      result = await runOperation(stack, op);
      if (this.lostTransport(result, writesBefore, name, hashBefore)) {
        // The CLI and the inline program lost their gRPC connection before anything happened: no API write,
        // state untouched. The attempt had no effect, so it is run again once (and counted, not hidden). The
        // cause seen so far, a pooled connection to an earlier engine's port, is gone since openStack isolates
        // inline-program connections (provider/inlineProgramConnections.ts): the count should stay 0.
        this.transportRetries += 1;
        result = await runOperation(stack, op);
      }
    }
    this.services.clearFaults();
    const after = this.services.snapshot();
    const checkpointAfter = this.checkpointOf(name);
    const records = subscriptionRecords(checkpointAfter);
    const changes = changesBetween(before, after);
    const violations: string[] = [];
    const writing = op === "up" || op === "upRefresh" || op === "kill";
    const isDestroy = op === "destroy" || op === "destroyRefresh";

    if (op === "preview") {
      if (this.services.writeCount() !== writesBefore || changes.length > 0)
        violations.push("preview wrote to the API");
      if (this.checkpointHash(name) !== hashBefore) violations.push("preview changed the state file");
    }
    const mustGo = isDestroy && result.ok ? this.destroyable(name, before, recordsBefore) : [];
    violations.push(
      ...this.ledger.recordStackChanges(name, writing ? declaredPairs(runtime.decl) : new Set(), changes),
    );
    for (const sub of mustGo) {
      if (allSubs(after).some((s) => s.shop === sub.shop && s.id === sub.id && s.url === sub.url))
        violations.push(
          `destroy of ${name} succeeded but left ${sub.shop} id ${sub.id} ${sub.hook} ${sub.url}, which it wrote`,
        );
    }
    const released = new Set(
      recordsBefore
        .filter((r) => r.retainOnDelete && !records.some((n) => n.name === r.name))
        .map((r) => r.id),
    );
    violations.push(
      ...this.ledger.reconcileState(
        name,
        records,
        after,
        (record, sub) => this.adoptable(runtime.decl, record, sub),
        released,
        subscriptionRecords(checkpointAfter, true),
      ),
    );
    const duplicates = duplicateDeclarations(runtime.decl);
    if (result.ok && writing && duplicates.length > 0) {
      violations.push(
        `up accepted two declarations of one shop's hook: ${duplicates.map((d) => `${d.name} (${d.hook})`).join(", ")}`,
      );
    }
    const synced =
      op === "upRefresh" || (op === "up" && !runtime.dirty && checkpointBefore.pendingOperations === 0);
    if (result.ok && synced && duplicates.length === 0) {
      violations.push(...declaredHooksLive(runtime.decl, records, after));
    }
    violations.push(...secretsAtRest(join(this.runDir, "backend")));
    violations.push(...secretsIn(result.text, `the output of ${op}`), ...secretsInOutputs(result.outputs));
    if (result.ok && writing && runtime.declaredSecrets) {
      violations.push(...secretsIn(await plainExport(stack), "a plain stack export"));
    }
    if (!result.ok && !killed)
      violations.push(...this.explainFailure(name, op, result.text, faults, recordsBefore, before));

    if (result.ok && op !== "preview") {
      if (op === "refresh" || op === "upRefresh" || isDestroy) runtime.dirty = false;
      runtime.lastShops = shopsOf(runtime.decl);
    }
    this.markDirty(
      name,
      changes.map((c) => `${c.shop}#${c.hook}`),
    );
    const seconds = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const outcome = killed ? "killed" : result.ok ? "ok" : `failed: ${firstError(result.text)}`;
    return { step, skipped: false, operation: true, violations, note: `${outcome} (${seconds})` };
  }

  /** Subscriptions a successful destroy of `name` must remove: written by it, recorded, not retained. */
  private destroyable(name: StackName, before: Snapshot, records: readonly StateRecord[]): LiveSub[] {
    return allSubs(before).filter(
      (sub) =>
        this.ledger.writerOf(sub) === name &&
        this.ledger.isClaimedBy(sub, name) &&
        records.some((r) => !r.retainOnDelete && r.id === sub.id && r.hook === sub.hook && r.url === sub.url),
    );
  }

  /** A state record may adopt a live subscription where the program declares that hook and URL. */
  private adoptable(decl: StackDecl, record: StateRecord, sub: LiveSub): boolean {
    const resource = decl.resources.find((r) => r.name === record.name);
    if (resource === undefined || declaredShop(decl, resource) !== sub.shop || resource.hook !== sub.hook)
      return false;
    return resource.ignoreUrl || declaredUrl(resource) === sub.url;
  }

  /** Invariant 6 and the model's account of a failure: why it may fail, and that it says so. */
  private explainFailure(
    name: StackName,
    op: Operation | "kill",
    text: string,
    faults: ReadonlyArray<{ service: ServiceName; fault: FaultName }>,
    recordsBefore: readonly StateRecord[],
    before: Snapshot,
  ): string[] {
    const runtime = this.stacks[name];
    const names = [
      ...new Set([...runtime.decl.resources.map((r) => r.name), ...recordsBefore.map((r) => r.name)]),
    ];
    if (/did not finish within/.test(text)) return [`${op} of ${name} hung: ${firstError(text)}`];
    const explanations: Array<{ why: string; reason?: RegExp }> = [];
    if (faults.some((f) => FAILING_FAULTS.has(f.fault)))
      explanations.push({ why: "an armed fault", reason: /50[03]/ });
    if (recordsBefore.some((r) => r.protect))
      explanations.push({ why: "a protected resource", reason: /protect/i });
    if (duplicateDeclarations(runtime.decl).length > 0) explanations.push({ why: "a duplicate declaration" });
    // A pinned entry whose key reaches another shop, or whose service sends no shop_id, is refused.
    if (runtime.decl.targets.default.pin !== undefined || runtime.decl.targets.alt.pin !== undefined)
      explanations.push({ why: "a pinned shop", reason: /pins shop/ });
    const shops = shopsOf(runtime.decl);
    const last = runtime.lastShops;
    if (
      last !== undefined &&
      recordsBefore.length > 0 &&
      (last.default !== shops.default || last.alt !== shops.alt)
    ) {
      explanations.push({ why: "a change of target" });
    }
    // A shop that lists nothing cannot say which shop its key reaches: a resource recorded there is refused
    // (deleted in the back office, or the key now reaches another, empty shop), naming both ways on.
    const usedShops = new Set(runtime.decl.resources.map((r) => resourceShop(runtime.decl, r)));
    if (recordsBefore.length > 0 && [...usedShops].some((shop) => (before.get(shop) ?? []).length === 0))
      explanations.push({ why: "a configured shop that lists nothing", reason: /lists no subscription/ });
    if (explanations.length === 0)
      return [`${op} of ${name} failed and the model has no reason: ${firstError(text)}`];
    const attempts = explanations.map((e) => failureSaysWhy(text, names, e.reason));
    return attempts.find((a) => a.length === 0) ?? (attempts[0] as string[]);
  }

  /**
   * After a SIGKILL the file backend keeps the dead update's lock; `pulumi cancel` removes it (for a
   * `file://` backend it deletes the stack's lock files), as the README's troubleshooting says.
   */
  private async recoverFromKill(stack: Stack): Promise<void> {
    await withDeadline(stack.cancel(), OPERATION_DEADLINE_MS, `pulumi cancel of ${stack.name}`);
  }
}

function freshStack(): StackRuntime {
  return { decl: emptyStack(), dirty: false, declaredSecrets: false };
}

/** The `<shop>#<hook>` pairs a stack declares under its current targets (a pinned entry: in the pinned shop). */
function declaredPairs(decl: StackDecl): Set<string> {
  return new Set(decl.resources.map((r) => `${declaredShop(decl, r)}#${r.hook}`));
}

function shopsOf(decl: StackDecl): Record<ShopEntry, string> {
  return { default: realShop(decl.targets.default), alt: realShop(decl.targets.alt) };
}
