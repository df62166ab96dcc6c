import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import type * as pulumiSdk from "@pulumi/pulumi";
import type * as automation from "@pulumi/pulumi/automation";
import type * as providerModule from "../../provider";
import type * as pulumiCliModule from "../../scripts/lib/pulumiCli";
import type * as stacksModule from "../../scripts/lib/stacks";

/**
 * Engine tests load the compiled package: a provider imported from TypeScript source under vitest does not
 * serialize, and the serialized shim requires `pulumi-shipping-webhooks/runtime` (dist) by name anyway.
 */
const load = createRequire(__filename);
export const REPO_ROOT = resolve(__dirname, "..", "..");
export const dist = {
  provider: load(join(REPO_ROOT, "dist/provider/index.js")) as typeof providerModule,
  stacks: load(join(REPO_ROOT, "dist/scripts/lib/stacks.js")) as typeof stacksModule,
  pulumiCli: load(join(REPO_ROOT, "dist/scripts/lib/pulumiCli.js")) as typeof pulumiCliModule,
  /** Loads any compiled module of the repo, e.g. `scripts/lib/stacks.js`. */
  module: (path: string): unknown => load(join(REPO_ROOT, "dist", path)),
  /**
   * An inline program that runs a compiled program module of the repo (top-level statements, as the language
   * host runs `examples/gitops/index.ts`) afresh on every engine run; its exports are the stack outputs.
   */
  program: (path: string): automation.PulumiFn => {
    const file = join(REPO_ROOT, "dist", path);
    return async () => {
      delete load.cache[file];
      return { ...(load(file) as Record<string, unknown>) };
    };
  },
};
export const pulumi = load("@pulumi/pulumi") as typeof pulumiSdk;

/** Deadline of one engine operation: generous for a loaded 2-core machine, finite so nothing hangs. */
const ENGINE_DEADLINE_MS = 180_000;

/** Folders of one isolated project: the engine runs the provider from `workDir`, inside the repo. */
export interface Sandbox {
  readonly root: string;
  readonly workDir: string;
  readonly backendDir: string;
  readonly pulumiHome: string;
}

/** A fresh sandbox under `.tmp/e2e/` (inside the repo, so that node_modules resolves from it). */
export function sandbox(name: string): Sandbox {
  const root = join(REPO_ROOT, ".tmp", "e2e", `${name}-${randomBytes(4).toString("hex")}`);
  const box = {
    root,
    workDir: join(root, "project"),
    backendDir: join(root, "backend"),
    pulumiHome: join(root, "home"),
  };
  for (const dir of [box.workDir, box.backendDir, box.pulumiHome]) mkdirSync(dir, { recursive: true });
  return box;
}

/** One declared subscription of a test program. */
export interface Declaration {
  readonly name: string;
  readonly hook: string;
  readonly url: string;
  readonly shop?: string;
  readonly secretUrl?: boolean;
  /** The input `takeOver: true`: may overwrite a subscription of the hook made outside the stack. */
  readonly takeOver?: boolean;
  /** Resource options, e.g. `{ deleteBeforeReplace: true }`. */
  readonly options?: pulumiSdk.CustomResourceOptions;
}

/** An inline program declaring `current()`; change what it returns between runs. */
export function declarationsProgram(current: () => readonly Declaration[]): automation.PulumiFn {
  return async () => {
    const outputs: Record<string, unknown> = {};
    for (const d of current()) {
      const resource = new dist.provider.WebhookSubscription(
        d.name,
        {
          hook: d.hook as providerModule.Hook,
          url: d.secretUrl ? pulumi.secret(d.url) : d.url,
          ...(d.shop !== undefined ? { shop: d.shop } : {}),
          ...(d.takeOver !== undefined ? { takeOver: d.takeOver } : {}),
        },
        d.options,
      );
      outputs[d.name] = {
        id: resource.id,
        subscriptionId: resource.subscriptionId,
        previous: resource.previous,
      };
    }
    return outputs;
  };
}

/** Everything an engine run printed. */
export class OutputLog {
  text = "";
  readonly onOutput = (out: string): void => {
    this.text += out;
  };
}

/** Opens a stack of `program` in `box` with the given stack config. */
export async function stackIn(
  box: Sandbox,
  program: automation.PulumiFn,
  config: automation.ConfigMap,
  env: Record<string, string> = {},
): Promise<automation.Stack> {
  return dist.stacks.openStack({
    workDir: box.workDir,
    backendDir: box.backendDir,
    projectName: "e2e",
    stackName: "test",
    program,
    config,
    env: { PULUMI_HOME: box.pulumiHome, ...env },
  });
}

/** Runs an engine operation under {@link ENGINE_DEADLINE_MS}. */
export function engine<T>(operation: Promise<T>, what: string): Promise<T> {
  return dist.stacks.withDeadline(operation, ENGINE_DEADLINE_MS, what);
}

/** Every file under `dir`, recursively, as text (for scanning state at rest: backups and history included). */
export function filesUnder(dir: string): Array<{ path: string; text: string }> {
  const files: Array<{ path: string; text: string }> = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...filesUnder(path));
    else files.push({ path, text: readFileSync(path, "latin1") });
  }
  return files;
}

/** A resource of an exported deployment. */
interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly inputs: Record<string, unknown>;
  readonly outputs: Record<string, unknown>;
}

/** Every resource of an exported deployment. */
export function stateResources(deployment: automation.Deployment): StateResource[] {
  return (deployment.deployment as { resources?: StateResource[] }).resources ?? [];
}

/** The WebhookSubscription resources of an exported deployment. */
export function subscriptionResources(deployment: automation.Deployment): StateResource[] {
  const resources = stateResources(deployment);
  return resources.filter((r) => String(r.type).endsWith("shipping:WebhookSubscription"));
}
