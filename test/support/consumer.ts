import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { REPO_ROOT } from "./engine";
import { runOk } from "./process";
import { INSTALL_ATTEMPTS, REGISTRY_IDLE_TIMEOUT_MS, retryOnRegistryStall } from "./registryStall";

/**
 * The @pulumi/pulumi the consumer installs: the one this checkout runs with (3.248.0 on the project's own
 * pair, the newest on scripts/newest-pair.sh's copy).
 */
export const PULUMI_SDK_VERSION: string = JSON.parse(
  readFileSync(join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
).version;
/** npm pack and a package manager's install are slow on a loaded machine, but finite. */
const INSTALL_DEADLINE_MS = 300_000;

/** The package managers a consumer may install with; pnpm and yarn are the repository's devDependencies. */
type PackageManager = "npm" | "pnpm" | "yarn";

/** The packed tarball and its file list as npm reports it. */
interface PackedPackage {
  readonly tarball: string;
  readonly files: readonly string[];
}

/**
 * Packs a package folder (the repository by default) into `dir` with `npm pack`. The repository's pack skips
 * npm's scripts: the tests run on the build they made (scripts/test-stage.sh), and its `prepare` would
 * rebuild dist/ under the test files running beside this one. `{ runScripts: true }` packs as a user does,
 * `prepare` building dist/ first (a clean clone has none).
 */
export async function packRepository(
  dir: string,
  options: { readonly from?: string; readonly runScripts?: boolean } = {},
): Promise<PackedPackage> {
  const scripts = options.runScripts === true ? [] : ["--ignore-scripts"];
  const run = await runOk("npm", ["pack", "--json", ...scripts, "--pack-destination", dir], {
    cwd: options.from ?? REPO_ROOT,
    env: process.env,
    deadlineMs: INSTALL_DEADLINE_MS,
  });
  const [report] = packReport(run.stdout);
  if (report === undefined) throw new Error(`npm pack reported nothing: ${run.stdout}`);
  return { tarball: join(dir, report.filename), files: report.files.map((f) => f.path) };
}

/**
 * `npm pack --json`'s report: the JSON array on stdout, from its first line that is `[` (anything a
 * lifecycle script printed to stdout before it is skipped; npm 11 prints its script banners to stderr).
 */
function packReport(stdout: string): Array<{ filename: string; files: Array<{ path: string }> }> {
  const start = stdout.search(/^\[\s*$/m);
  if (start === -1) throw new Error(`npm pack printed no JSON report: ${stdout.slice(0, 2000)}`);
  return JSON.parse(stdout.slice(start));
}

/** A fresh consumer project outside the repository. */
export interface ConsumerProject {
  /** Temporary root holding everything below; removed by the test. */
  readonly root: string;
  readonly dir: string;
  readonly pulumiHome: string;
  /** The file backend, `<root>/backend`: shared by every consumer of one root. */
  readonly backendDir: string;
}

/** A temporary folder under the OS temp dir, far from the repository. */
export function temporaryRoot(): string {
  return mkdtempSync(join(tmpdir(), "pulumi-shipping-webhooks-package-"));
}

/** The repository packed into a temporary root for a test file (read its fields inside tests). */
interface PackedRepository {
  /** The temporary root the tarball is in (consumers are installed below it too); removed after the file. */
  readonly root: string;
  readonly packed: PackedPackage;
}

/** How long a packing test file's setup and cleanup may take. */
interface PackedRepositoryTimeouts {
  /** Packing, in `beforeAll`. */
  readonly packMs: number;
  /** Removing the root, in `afterAll` (consumers' node_modules take long to remove on a loaded disk). */
  readonly cleanupMs: number;
}

/** Packs the repository into a fresh {@link temporaryRoot} before the calling file's tests; removes it after. */
export function usePackedRepository(timeouts: PackedRepositoryTimeouts): PackedRepository {
  let root: string | undefined;
  let packed: PackedPackage | undefined;
  beforeAll(async () => {
    root = temporaryRoot();
    packed = await packRepository(root);
  }, timeouts.packMs);
  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  }, timeouts.cleanupMs);
  const set = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the packed repository is read before beforeAll packed it");
    return value;
  };
  return {
    get root() {
      return set(root);
    },
    get packed() {
      return set(packed);
    },
  };
}

/** How a consumer is installed. */
interface ConsumerOptions {
  /** Folder name under the root; default "consumer". */
  readonly name?: string;
  readonly packageManager?: PackageManager;
  /** The @pulumi/pulumi version; default {@link PULUMI_SDK_VERSION}. */
  readonly sdkVersion?: string;
}

/** The registry npm is configured with, so that pnpm and yarn use the same one. */
async function npmRegistry(): Promise<string> {
  const run = await runOk("npm", ["config", "get", "registry"], {
    cwd: REPO_ROOT,
    env: process.env,
    deadlineMs: INSTALL_DEADLINE_MS,
  });
  return run.stdout.trim();
}

/**
 * Installs the tarball and the SDK with `manager`, from the npm registry, running the install again (at most
 * {@link INSTALL_ATTEMPTS} times) when it failed on the network rather than on the package.
 */
async function install(manager: PackageManager, dir: string, tarball: string, sdk: string): Promise<void> {
  await retryOnRegistryStall(
    () => installOnce(manager, dir, tarball, sdk),
    (attempt) =>
      console.warn(
        `${manager} install failed on the network (attempt ${attempt} of ${INSTALL_ATTEMPTS}); again`,
      ),
  );
}

/** Installs the tarball and the SDK as production dependencies with `manager`, from the npm registry. */
async function installOnce(
  manager: PackageManager,
  dir: string,
  tarball: string,
  sdk: string,
): Promise<void> {
  const env = { ...process.env, npm_config_fetch_timeout: String(REGISTRY_IDLE_TIMEOUT_MS) };
  const options = { cwd: dir, env, deadlineMs: INSTALL_DEADLINE_MS };
  const bin = (name: string) => join(REPO_ROOT, "node_modules", ".bin", name);
  if (manager === "npm") {
    const flags = ["--omit=dev", "--no-audit", "--no-fund", "--prefer-offline", "--save-exact"];
    await runOk("npm", ["install", ...flags, tarball, sdk], options);
  } else if (manager === "pnpm") {
    // pnpm's default layout: strict, only direct dependencies at the top of node_modules. pnpm 10.7+ fails
    // the install until each dependency's build script is allowed or not: protobufjs (of @pulumi/pulumi) has
    // a postinstall that only prints a version notice, so a consumer declines it (README, Package).
    writeFileSync(join(dir, "pnpm-workspace.yaml"), "allowBuilds:\n  protobufjs: false\n");
    await runOk(bin("pnpm"), ["add", "--save-exact", "--reporter=append-only", tarball, sdk], options);
  } else {
    writeFileSync(
      join(dir, ".yarnrc.yml"),
      [
        "nodeLinker: node-modules",
        `npmRegistryServer: "${(await npmRegistry()).replace(/\/$/, "")}"`,
        "enableTelemetry: false",
        "enableImmutableInstalls: false",
        "",
      ].join("\n"),
    );
    writeFileSync(join(dir, "yarn.lock"), "");
    await runOk(bin("yarn"), ["add", "--exact", `pulumi-shipping-webhooks@file:${tarball}`, sdk], options);
  }
}

/**
 * Creates `<root>/<name>` with a bare package.json, installs the tarball and the Pulumi SDK there as
 * production dependencies with the given package manager (the caches are usually warm), and copies the
 * deploy scripts in.
 */
export async function installConsumer(
  root: string,
  tarball: string,
  options: ConsumerOptions = {},
): Promise<ConsumerProject> {
  const name = options.name ?? "consumer";
  const project = {
    root,
    dir: join(root, name),
    pulumiHome: join(root, `${name}-pulumi-home`),
    backendDir: join(root, "backend"),
  };
  for (const dir of [project.dir, project.pulumiHome, project.backendDir])
    mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(project.dir, "package.json"),
    `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true }, null, 2)}\n`,
  );
  const sdk = `@pulumi/pulumi@${options.sdkVersion ?? PULUMI_SDK_VERSION}`;
  await install(options.packageManager ?? "npm", project.dir, tarball, sdk);
  const fixtures = join(REPO_ROOT, "test", "support", "consumer");
  for (const file of readdirSync(fixtures)) copyFileSync(join(fixtures, file), join(project.dir, file));
  return project;
}

/** Every `.js` file under `dir`. */
function javascriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".js"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The package name of a bare module specifier (`@scope/name/sub` -> `@scope/name`). */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/**
 * The packages the installed package's code requires that its package.json does not declare as a
 * dependency or peer dependency (Node built-ins and self-references are fine): those would be dev-only.
 */
export function undeclaredRequires(packageDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    name: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const allowed = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const undeclared = new Set<string>();
  for (const file of javascriptFiles(packageDir)) {
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/\brequire\("([^"]+)"\)/g)) {
      if (specifier === undefined || specifier.startsWith(".")) continue;
      const name = packageName(specifier.replace(/^node:/, ""));
      if (builtinModules.includes(name) || specifier.startsWith("node:") || allowed.has(name)) continue;
      undeclared.add(`${name} (${file.slice(packageDir.length + 1)})`);
    }
  }
  return [...undeclared];
}

/** Environment of a process in a consumer project: no SHIPPING_* or PULUMI_* of the developer's shell. */
export function consumerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("SHIPPING_") && !name.startsWith("PULUMI_")) env[name] = value;
  }
  return { ...env, ...extra };
}

/** What one engine operation of drive.cjs reported. */
interface OperationResult {
  readonly operation: "up" | "preview" | "refresh" | "destroy";
  /** Resource changes by kind (`create`, `same`, `update`, `delete`, `replace`, ...). */
  readonly changes: Record<string, number>;
  readonly outputs?: Record<string, { value: unknown; secret: boolean }>;
}

/** The last line drive.cjs prints. */
interface DriveReport {
  readonly subscriptionId?: number;
  readonly results: readonly OperationResult[];
}

/**
 * The changes of a consumer's up, refresh and destroy of one hook, as {@link changesOf} lists them: the stack
 * and its subscription created, read unchanged, deleted.
 */
export const UP_REFRESH_DESTROY = [
  ["up", { create: 2 }],
  ["refresh", { same: 2 }],
  ["destroy", { delete: 2 }],
] as const;

/** Each operation of `report` and its changes, as `[operation, changes]`, in the order they ran. */
export function changesOf(
  report: DriveReport,
): Array<[OperationResult["operation"], Record<string, number>]> {
  return report.results.map((r) => [r.operation, r.changes]);
}

/** A run of a consumer's deploy script. */
interface DriveOptions {
  /** `deploy.mjs` (ESM) or `deploy.cjs` (CommonJS). */
  readonly script: "deploy.mjs" | "deploy.cjs";
  /** The Node.js that runs it (and, first on PATH, the dynamic provider); default this process's. */
  readonly node?: string;
  readonly pulumiRoot: string;
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly hookUrl: string;
  readonly secretHookUrl?: string;
  readonly stack?: string;
  /** Comma-separated, in order; default "up,export,refresh,destroy". */
  readonly operations?: string;
  readonly deadlineMs: number;
}

/** Runs a deploy script in the consumer project and returns its report and output. */
export async function drive(
  consumer: ConsumerProject,
  options: DriveOptions,
): Promise<{ report: DriveReport; stdout: string; stderr: string }> {
  const node = options.node ?? process.execPath;
  const env = consumerEnv({
    // The engine starts the dynamic provider with `node` from PATH: make it the same Node.js.
    PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: consumer.pulumiHome,
    CONSUMER_PULUMI_ROOT: options.pulumiRoot,
    CONSUMER_BACKEND_DIR: consumer.backendDir,
    CONSUMER_API_KEY: options.apiKey,
    CONSUMER_BASE_URL: options.baseUrl,
    CONSUMER_HOOK_URL: options.hookUrl,
    ...(options.secretHookUrl !== undefined ? { CONSUMER_SECRET_HOOK_URL: options.secretHookUrl } : {}),
    ...(options.stack !== undefined ? { CONSUMER_STACK: options.stack } : {}),
    ...(options.operations !== undefined ? { CONSUMER_OPERATIONS: options.operations } : {}),
  });
  const run = await runOk(node, [options.script], { cwd: consumer.dir, env, deadlineMs: options.deadlineMs });
  const report = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as DriveReport;
  return { report, stdout: run.stdout, stderr: run.stderr };
}
