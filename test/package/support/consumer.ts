import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../../e2e/support/engine";
import { runOk } from "./process";

/** The @pulumi/pulumi the consumer installs (the version this project builds its CLI for). */
export const PULUMI_SDK = "@pulumi/pulumi@3.248.0";
/** npm pack and npm install are slow on a loaded machine, but finite. */
const NPM_DEADLINE_MS = 240_000;

/** The packed tarball and its file list as npm reports it. */
export interface PackedPackage {
  readonly tarball: string;
  readonly files: readonly string[];
}

/** Packs the built repository (`npm pack`) into `dir`. */
export async function packRepository(dir: string): Promise<PackedPackage> {
  const run = await runOk("npm", ["pack", "--json", "--pack-destination", dir], {
    cwd: REPO_ROOT,
    env: process.env,
    deadlineMs: NPM_DEADLINE_MS,
  });
  const [report] = JSON.parse(run.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (report === undefined) throw new Error(`npm pack reported nothing: ${run.stdout}`);
  return { tarball: join(dir, report.filename), files: report.files.map((f) => f.path) };
}

/** A fresh consumer project outside the repository. */
export interface ConsumerProject {
  /** Temporary root holding everything below; removed by the test. */
  readonly root: string;
  readonly dir: string;
  readonly pulumiHome: string;
  readonly backendDir: string;
}

/** A temporary folder under the OS temp dir, far from the repository. */
export function temporaryRoot(): string {
  return mkdtempSync(join(tmpdir(), "pulumi-shipping-webhooks-package-"));
}

/**
 * Creates `<root>/consumer` with a bare package.json, installs the tarball and the Pulumi SDK there with
 * `--omit=dev` from the npm registry (the cache is usually warm), and copies the deploy scripts in.
 */
export async function installConsumer(root: string, tarball: string): Promise<ConsumerProject> {
  const project = {
    root,
    dir: join(root, "consumer"),
    pulumiHome: join(root, "pulumi-home"),
    backendDir: join(root, "backend"),
  };
  for (const dir of [project.dir, project.pulumiHome, project.backendDir])
    mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(project.dir, "package.json"),
    `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true }, null, 2)}\n`,
  );
  await runOk(
    "npm",
    [
      "install",
      "--omit=dev",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--save-exact",
      tarball,
      PULUMI_SDK,
    ],
    { cwd: project.dir, env: process.env, deadlineMs: NPM_DEADLINE_MS },
  );
  const fixtures = join(REPO_ROOT, "test", "package", "consumer");
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
