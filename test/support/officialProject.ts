import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterAll } from "vitest";
import type { StateResource } from "../../scripts/lib/stateResource";
import { consumerEnv } from "./consumer";
import { dist } from "./engine";
import { installedPackages, type ModuleKind } from "./install";
import { type ProcessResult, runProcess } from "./process";

/** One CLI command (Node start, ts-node's compile of the program, the engine) on a loaded 2-core machine. */
const COMMAND_DEADLINE_MS = 240_000;
/** The passphrase of the projects' stacks (the local secrets provider). */
const PASSPHRASE = "official-path-test";

/** The provider plugin's resource type token (`pulumi-resource-shipping`, a program of any language). */
export const PLUGIN_TYPE = "shipping:index:WebhookSubscription";
/** The dynamic resource's type token (what `pulumi-shipping-webhooks`'s class registers). */
export const DYNAMIC_TYPE = "pulumi-nodejs:dynamic/shipping:WebhookSubscription";
/** The WebhookSubscription types of either host. */
const SUBSCRIPTION_TYPES: ReadonlySet<string> = new Set([PLUGIN_TYPE, DYNAMIC_TYPE]);

/** The folders of this test file's projects, removed after its tests. */
const created: string[] = [];
afterAll(() => {
  for (const base of created.splice(0)) rmSync(base, { recursive: true, force: true });
});

/**
 * The CLI the tests run, with its Node.js language host: the one `npm test` chose and printed. Without a host
 * this throws, naming the fix: the official-path tests fail, never skip.
 */
export function officialCli(): { binary: string; languageHost: string; reason: string } {
  return dist.pulumiCli.requirePulumiCli();
}

/** What `pulumi new typescript` writes, with this package added (the program and Pulumi.yaml are the test's). */
export function typescriptProjectFiles(name: string, kind: ModuleKind = "commonjs"): Record<string, string> {
  const manifest = {
    name,
    main: "index.ts",
    ...(kind === "esm" ? { type: "module" } : {}),
    devDependencies: {
      "@types/node": "^20",
      typescript: "^5",
      ...(kind === "esm" ? { "ts-node": "^10.9.2" } : {}),
    },
    dependencies: { "@pulumi/pulumi": "^3", "pulumi-shipping-webhooks": "^0.2.0" },
  };
  const compilerOptions =
    kind === "esm"
      ? {
          strict: true,
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          skipLibCheck: true,
        }
      : {
          strict: true,
          outDir: "bin",
          target: "es2020",
          module: "commonjs",
          moduleResolution: "node",
          sourceMap: true,
          experimentalDecorators: true,
          noImplicitReturns: true,
          forceConsistentCasingInFileNames: true,
        };
  return {
    "Pulumi.yaml": `name: ${name}\ndescription: A test project\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\n`,
    "package.json": `${JSON.stringify(manifest, null, 2)}\n`,
    "tsconfig.json": `${JSON.stringify({ compilerOptions, files: ["index.ts"] }, null, 2)}\n`,
  };
}

/** A project folder run by the official CLI with its language host, on a file backend of its own. */
export class OfficialProject {
  readonly env: NodeJS.ProcessEnv;

  private constructor(
    /** The project folder: Pulumi.yaml, package.json, the program. */
    readonly dir: string,
    /** The `file://` backend's folder. */
    readonly backendDir: string,
    home: string,
  ) {
    const cli = officialCli();
    this.env = consumerEnv({
      // The CLI (with the language host and the dynamic-provider plugin beside it) and this Node.js first.
      PATH: [dirname(cli.binary), dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${backendDir}`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
    });
  }

  /**
   * Lays out `files` (relative path -> content; or a folder of the repository to copy) in a new project
   * folder under the installed packages of `kind`, as a user's project with `npm install` done. `at` is the
   * project folder's path below a new folder of its own (a folder inside a checkout, say: `clone/examples/x`).
   */
  static async create(
    name: string,
    files: Record<string, string> | { readonly copyOf: string },
    kind: ModuleKind = "commonjs",
    at = "project",
  ): Promise<OfficialProject> {
    const installed = await installedPackages(kind);
    const base = join(installed, "projects", `${name}-${randomBytes(4).toString("hex")}`);
    created.push(base);
    const project = new OfficialProject(join(base, at), join(base, "backend"), join(base, "home"));
    for (const dir of [project.dir, project.backendDir, join(base, "home")])
      mkdirSync(dir, { recursive: true });
    if ("copyOf" in files) cpSync(files.copyOf as string, project.dir, { recursive: true });
    else project.write(files);
    return project;
  }

  /** Writes (or overwrites) files of the project. */
  write(files: Record<string, string>): void {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), text);
    }
  }

  /** Runs `pulumi <args>` in the project folder; `extraEnv` adds to the environment (SHIPPING_*, say). */
  pulumi(args: readonly string[], extraEnv: Record<string, string> = {}): Promise<ProcessResult> {
    return runProcess("pulumi", [...args], {
      cwd: this.dir,
      env: { ...this.env, ...extraEnv },
      deadlineMs: COMMAND_DEADLINE_MS,
    });
  }

  /** Like {@link pulumi}, but fails (with everything the CLI printed) unless it exits 0. */
  async ok(args: readonly string[], extraEnv: Record<string, string> = {}): Promise<ProcessResult> {
    const run = await this.pulumi(args, extraEnv);
    if (run.status !== 0) {
      throw new Error(
        `pulumi ${args.join(" ")} exited ${run.status ?? run.signal}\n${run.stdout}\n${run.stderr}`,
      );
    }
    return run;
  }

  /** `pulumi stack init dev`, then the stack's `shipping:baseUrl` and, as a secret, its `shipping:apiKey`. */
  async initStack(baseUrl: string, apiKey: string): Promise<void> {
    await this.ok(["stack", "init", "dev"]);
    await this.ok(["config", "set", "shipping:baseUrl", baseUrl]);
    await this.ok(["config", "set", "--secret", "shipping:apiKey", apiKey]);
  }

  /** The stack's resources as `pulumi stack export` prints them (secrets stay encrypted). */
  async resources(): Promise<StateResource[]> {
    const run = await this.ok(["stack", "export"]);
    const exported = JSON.parse(run.stdout) as { deployment?: { resources?: StateResource[] } };
    return exported.deployment?.resources ?? [];
  }

  /** The stack's WebhookSubscription resources, of the TypeScript class (dynamic host) or the plugin. */
  async subscriptions(): Promise<StateResource[]> {
    return (await this.resources()).filter((r) => SUBSCRIPTION_TYPES.has(r.type));
  }

  /** Every file of the backend (stack files, backups, history) as text. */
  backendFiles(): string[] {
    const entries = readdirSync(this.backendDir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), "latin1"));
  }
}

/** A resource of a stack export (the shape the scripts read from checkpoints too). */
export type { StateResource };
