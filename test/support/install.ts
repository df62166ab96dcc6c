import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, inject } from "vitest";
import { PULUMI_SDK_VERSION, packRepository } from "./consumer";
import { runOk } from "./process";
import { REGISTRY_IDLE_TIMEOUT_MS, retryOnRegistryStall } from "./registryStall";

/** What `pulumi new typescript` puts in devDependencies (pinned to what this repository locks). */
const TYPESCRIPT = "typescript@5.9.3";
const NODE_TYPES = "@types/node@20.19.43";
/** An ES-module TypeScript program needs a ts-node with `ts-node/esm` in the project (Pulumi vendors 7.0.1). */
const TS_NODE = "ts-node@10.9.2";
/** npm pack and an install from the registry on a loaded machine. */
const INSTALL_DEADLINE_MS = 300_000;
/** Marks an install that finished; an install is renamed into place only once it has. */
const READY_MARKER = ".official-path-ready";
/**
 * Installs of other builds are removed once no run has used them for this long (a run of another build, in
 * another checkout, may still be using a recent one). About 130 MB each: a day's builds once left 11 GB.
 */
const STALE_AFTER_MS = 2 * 60 * 60_000;
/** Where the installs live. */
const INSTALLS = join(tmpdir(), "pulumi-shipping-webhooks-official");

/** Which project kind the packages are for. */
export type ModuleKind = "commonjs" | "esm";

/** The packed tarball of this build and the folders its packages are installed in, by project kind. */
export interface OfficialPackages {
  /** `npm pack`'s tarball of the repository (what `pulumi new` with the template installs, too). */
  readonly tarball: string;
  /** The folder holding the tarball; removed when the run ends. */
  readonly packDir: string;
  /** The install of each kind: see {@link installedPackages}. */
  readonly installs: Partial<Record<ModuleKind, string>>;
}

declare module "vitest" {
  interface ProvidedContext {
    /** Made once per run by `globalSetup.ts`, before the official-path files run (in parallel). */
    officialPackages?: OfficialPackages;
  }
}

/**
 * Packs the repository once and installs its packages for each of `kinds` (in parallel, each only when this
 * build has no install yet). `vitest.config.mts` runs it once per run, in the official project's globalSetup,
 * so the files that then run side by side share one pack and one install per kind.
 */
export async function prepareOfficialPackages(kinds: readonly ModuleKind[]): Promise<OfficialPackages> {
  const packDir = join(INSTALLS, `pack-${randomBytes(4).toString("hex")}`);
  mkdirSync(packDir, { recursive: true });
  const { tarball } = await packRepository(packDir);
  const entries = await Promise.all(
    kinds.map(async (kind) => [kind, await installFor(tarball, kind)] as const),
  );
  return { tarball, packDir, installs: Object.fromEntries(entries) };
}

/** This process's packages when no globalSetup provided them (a file run by another config). */
let local: Promise<OfficialPackages> | undefined;
const localKinds = new Map<ModuleKind, Promise<string>>();

/** The packages of this run: the globalSetup's, else packed once by this process. */
function officialPackages(): Promise<OfficialPackages> {
  const provided = inject("officialPackages");
  if (provided !== undefined) return Promise.resolve(provided);
  if (local === undefined) {
    local = prepareOfficialPackages([]);
    const made = local;
    afterAll(async () => rmSync((await made).packDir, { recursive: true, force: true }));
  }
  return local;
}

/** The packed tarball of this build (one per run). */
export async function packedTarball(): Promise<string> {
  return (await officialPackages()).tarball;
}

/**
 * A folder whose `node_modules` holds this package (from its packed tarball, as a user installs it),
 * `@pulumi/pulumi`, TypeScript and the Node types: what `npm install` gives a project made by `pulumi new
 * typescript` that added this package. Projects are laid out in folders below it, so Node resolves their
 * imports (and the engine its dynamic-provider plugin) from there. ES-module projects also get ts-node 10.
 *
 * Installed once per tarball content, SDK version and kind, and kept under the OS temp folder: the next run
 * of the same build reuses it.
 */
export async function installedPackages(kind: ModuleKind): Promise<string> {
  const packages = await officialPackages();
  const provided = packages.installs[kind];
  if (provided !== undefined) return provided;
  let installing = localKinds.get(kind);
  if (installing === undefined) {
    installing = installFor(packages.tarball, kind);
    localKinds.set(kind, installing);
  }
  return installing;
}

/** The install of `tarball` for `kind`, made unless this build has one. */
async function installFor(tarball: string, kind: ModuleKind): Promise<string> {
  const key = createHash("sha256")
    .update(readFileSync(tarball))
    .update(`${PULUMI_SDK_VERSION}\0${kind}\0${process.version}`)
    .digest("hex")
    .slice(0, 16);
  const root = join(INSTALLS, `${kind}-${key}`);
  if (!existsSync(join(root, READY_MARKER))) await install(root, tarball, kind);
  // Marks the install used now (a stale one is one no run has used for STALE_AFTER_MS).
  const now = new Date();
  utimesSync(root, now, now);
  removeStaleInstalls(root);
  return root;
}

/** Removes the installs of other builds that no run has used for {@link STALE_AFTER_MS}. */
function removeStaleInstalls(current: string): void {
  for (const name of readdirSync(INSTALLS)) {
    const path = join(INSTALLS, name);
    if (path !== current && Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS)
      rmSync(path, { recursive: true, force: true });
  }
}

async function install(root: string, tarball: string, kind: ModuleKind): Promise<void> {
  const partial = `${root}.partial-${randomBytes(4).toString("hex")}`;
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, "package.json"), `${JSON.stringify({ name: "installed", private: true })}\n`);
  const packages = [tarball, `@pulumi/pulumi@${PULUMI_SDK_VERSION}`, TYPESCRIPT, NODE_TYPES];
  if (kind === "esm") packages.push(TS_NODE);
  const flags = ["--no-audit", "--no-fund", "--prefer-offline", "--save-exact"];
  const env = { ...process.env, npm_config_fetch_timeout: String(REGISTRY_IDLE_TIMEOUT_MS) };
  await retryOnRegistryStall(
    async () => {
      await runOk("npm", ["install", ...flags, ...packages], {
        cwd: partial,
        env,
        deadlineMs: INSTALL_DEADLINE_MS,
      });
    },
    (attempt) => console.warn(`npm install failed on the network (attempt ${attempt}); again`),
  );
  writeFileSync(join(partial, READY_MARKER), "");
  rmSync(root, { recursive: true, force: true });
  renameSync(partial, root);
}
