/**
 * The real system under exploration: two simulated services, two stacks driven by the real Pulumi CLI, and
 * the model (what each stack declares, who owns which subscription). `apply` runs one step and answers the
 * invariant violations it caused (the operation's checks are in operate.ts).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as pulumiSdk from "@pulumi/pulumi";
import type * as providerModule from "../../provider";
import { DEMO_PASSPHRASE } from "../lib/stacks";
import { applyEdit, resolveNames } from "./edits";
import { type ExplorerStack, openExplorerStack } from "./engine";
import type { ArmedFault } from "./failureAccount";
import { changesBetween, Ledger } from "./ledger";
import { backOfficeUrl, declaredPairs, emptyStack, type Operation, type StackName, type Step } from "./model";
import { type OperationContext, operate, type StackRuntime } from "./operate";
import { inlineProgram, providerEnv, stackConfigOf, syncStackConfig } from "./program";
import { Services } from "./services";
import { PROJECT, type Scope } from "./targets";

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

/** The system under exploration. */
export class World {
  private readonly load: NodeJS.Require;
  private readonly root: string;
  private runDir = "";
  private ledger = new Ledger();
  private stacks: Record<StackName, StackRuntime> = { one: freshStack(), two: freshStack() };
  private pendingFaults: ArmedFault[] = [];
  /** Operations run again after a gRPC transport failure between the CLI and the program (see operate.ts). */
  transportRetries = 0;

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
      case "targeted": {
        // Never deployed: only an `up --target` of a declared resource can do anything.
        const runtime = this.stacks[step.stack];
        const fresh = runtime.handle === undefined;
        if (fresh && (step.op !== "up" || runtime.decl.resources.length === 0)) return quiet(true);
        return this.operate(step.stack, step.op, step);
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

  /** Marks every stack but `actor` that declares one of the `<shop>#<hook>` pairs `touched` as dirty. */
  private markDirty(actor: StackName | undefined, touched: readonly string[]): void {
    for (const [name, runtime] of Object.entries(this.stacks) as Array<[StackName, StackRuntime]>) {
      if (name === actor) continue;
      const declared = declaredPairs(runtime.decl);
      if (touched.some((t) => declared.has(t))) runtime.dirty = true;
    }
  }

  /** The stack, opened on first use, with the environment and stack config of its declaration. */
  private async stackOf(name: StackName): Promise<ExplorerStack> {
    const runtime = this.stacks[name];
    if (runtime.handle === undefined) {
      const modules = {
        pulumi: this.load("@pulumi/pulumi") as typeof pulumiSdk,
        provider: this.load(join(this.root, "dist", "provider", "index.js")) as typeof providerModule,
      };
      runtime.handle = await openExplorerStack(
        {
          workDir: join(this.runDir, "project"),
          backendDir: join(this.runDir, "backend"),
          pulumiHome: this.pulumiHome(),
        },
        PROJECT,
        name,
        inlineProgram(modules, () => this.stacks[name].decl),
      );
    }
    runtime.handle.setEnv(providerEnv(this.services, runtime.decl));
    runtime.config = await syncStackConfig(runtime.handle.stack, stackConfigOf(runtime.decl), runtime.config);
    return runtime.handle;
  }

  private async operate(
    name: StackName,
    op: Operation | "kill",
    step: Extract<Step, { kind: "operation" | "kill" | "targeted" }>,
  ): Promise<StepReport> {
    const runtime = this.stacks[name];
    const { stack } = await this.stackOf(name);
    const faults = this.pendingFaults;
    this.pendingFaults = [];
    const context: OperationContext = {
      stack,
      name,
      runtime,
      services: this.services,
      ledger: this.ledger,
      runDir: this.runDir,
      faults,
      passphrase: this.passphrase(),
      onTransportRetry: () => {
        this.transportRetries += 1;
      },
    };
    const scope: Scope | undefined =
      step.kind === "targeted" ? { mode: step.mode, name: step.name } : undefined;
    const outcome = await operate(context, op, scope);
    if (outcome === undefined) {
      // Nothing to target: the step is skipped and its faults wait for the next operation.
      this.pendingFaults = [...faults, ...this.pendingFaults];
      return { step, skipped: true, operation: false, violations: [], note: "" };
    }
    this.markDirty(name, outcome.touched);
    const reported =
      outcome.scope !== undefined && step.kind === "targeted" ? { ...step, name: outcome.scope.name } : step;
    return {
      step: reported,
      skipped: false,
      operation: true,
      violations: outcome.violations,
      note: outcome.note,
    };
  }

  private passphrase(): string {
    return process.env.PULUMI_CONFIG_PASSPHRASE ?? DEMO_PASSPHRASE;
  }
}

function freshStack(): StackRuntime {
  return { decl: emptyStack(), dirty: false, declaredSecrets: false, config: {} };
}
