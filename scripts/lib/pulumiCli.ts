import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { linkedCliRoot } from "./linkedCliRoot";

/** The Pulumi CLI version this project builds (scripts/install-pulumi.sh) when no installed CLI fits. */
export const PULUMI_CLI_VERSION = "3.248.0";

/**
 * The oldest CLI that runs inline programs for every operation we use: the Automation API passes `--client`
 * to `refresh` and `destroy` of an inline program and refuses CLIs older than 3.181.0 there (up and preview
 * are older still). Major 4 would be another API.
 */
export const MIN_INLINE_CLI_VERSION = "3.181.0";

/**
 * Environment variable that names the CLI to use: a folder holding `bin/pulumi` (a CLI root, as the official
 * installer's `~/.pulumi`) or holding `pulumi` itself (the official Linux tarball's `pulumi/` folder).
 */
export const PULUMI_ROOT_ENV = "SHIPPING_PULUMI_ROOT";

/** The dynamic-provider plugin that must sit beside the CLI (or on PATH) for the engine to find it. */
export const DYNAMIC_PLUGIN = "pulumi-resource-pulumi-nodejs";

/**
 * The Node.js language host: the plugin through which the CLI runs a project folder (`pulumi up` where
 * Pulumi.yaml is, Automation API local programs). Every official install ships it beside the CLI; without it
 * a CLI runs only inline programs, which no user runs first.
 */
export const LANGUAGE_HOST = "pulumi-language-nodejs";

/**
 * Environment variable naming the folder that holds a language host per CLI version
 * (`<folder>/<version>/pulumi-language-nodejs`); default {@link sharedLanguageHosts}.
 */
const LANGUAGE_HOSTS_ENV = "SHIPPING_LANGHOST_DIR";

/** How long `pulumi version` may take on a loaded machine. */
const VERSION_PROBE_TIMEOUT_MS = 30_000;

/** Where a candidate CLI came from, in the order they are tried. */
type PulumiCliSource = "SHIPPING_PULUMI_ROOT" | "PATH" | "built";

/** A CLI that fits: where it is, its version, and a sentence saying which one is used and why. */
export interface PulumiCliChoice {
  readonly source: PulumiCliSource;
  /** The `pulumi` executable. */
  readonly binary: string;
  /** The folder whose `bin/` holds it, when it is laid out that way (always when built); see {@link pulumiCliRoot}. */
  readonly root: string | undefined;
  readonly version: string;
  /** The Node.js language host the CLI runs project folders with. */
  readonly languageHost: string;
  readonly reason: string;
}

/** The outcome of looking: a fitting CLI, or none with why each candidate was turned down. */
type PulumiCliLookup =
  | { readonly found: PulumiCliChoice; readonly rejected: readonly string[] }
  | { readonly found: undefined; readonly rejected: readonly string[] };

/** `$PULUMI_HOME/versions/<version>` (PULUMI_HOME defaults to `~/.pulumi`): where install-pulumi.sh builds. */
export function builtCliRoot(env: NodeJS.ProcessEnv = process.env, version = PULUMI_CLI_VERSION): string {
  const home =
    env.PULUMI_HOME !== undefined && env.PULUMI_HOME !== "" ? env.PULUMI_HOME : join(homedir(), ".pulumi");
  return join(home, "versions", version);
}

/** Parses `v3.248.0` (or `3.248.0-dev.0`) into [major, minor, patch]; undefined when it is no version. */
function parseVersion(text: string): [number, number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Whether `version` is at least {@link MIN_INLINE_CLI_VERSION} and of major 3. */
export function runsInlinePrograms(version: string): boolean {
  const parsed = parseVersion(version);
  const min = parseVersion(MIN_INLINE_CLI_VERSION);
  if (parsed === undefined || min === undefined || parsed[0] !== min[0]) return false;
  for (let i = 1; i < 3; i++) {
    if ((parsed[i] ?? 0) !== (min[i] ?? 0)) return (parsed[i] ?? 0) > (min[i] ?? 0);
  }
  return true;
}

/** Whether `path` is a file (a folder named `pulumi` is not a CLI). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first executable file `name` on PATH, or undefined. A folder of that name is skipped, as the shell
 * (`command -v`) skips it: folders pass the X_OK check.
 */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    const path = join(dir, name);
    if (dir !== "" && isFile(path) && isExecutable(path)) return path;
  }
  return undefined;
}

/** Checks one candidate; returns its version, or why it does not fit. */
function probe(
  binary: string,
  env: NodeJS.ProcessEnv,
): { version: string; host: string } | { problem: string } {
  if (!isExecutable(binary)) return { problem: `${binary} does not exist` };
  const run = spawnSync(binary, ["version"], {
    encoding: "utf8",
    timeout: VERSION_PROBE_TIMEOUT_MS,
    env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  const version = (run.stdout ?? "").trim();
  if (run.status !== 0 || parseVersion(version) === undefined) {
    return { problem: `${binary} version failed: ${(run.stderr ?? String(run.error ?? "")).trim()}` };
  }
  if (!runsInlinePrograms(version)) {
    return {
      problem: `${binary} is ${version}; inline programs need ${MIN_INLINE_CLI_VERSION} or newer (3.x) for refresh and destroy`,
    };
  }
  const folder = dirname(realpathSync(binary));
  if (!isExecutable(join(folder, DYNAMIC_PLUGIN)) && onPath(DYNAMIC_PLUGIN, env) === undefined) {
    return { problem: `${binary} is ${version} but has no ${DYNAMIC_PLUGIN} beside it or on PATH` };
  }
  const host = languageHostOf(folder, env);
  if (host === undefined) {
    return {
      problem: `${binary} is ${version} but has no Node.js language host (${LANGUAGE_HOST}) beside it or on PATH, so it cannot run a project folder; official installs ship it beside the CLI (here: copy ${join(sharedLanguageHosts(env), version.replace(/^v/, ""), LANGUAGE_HOST)} beside it, as scripts/install-pulumi.sh does)`,
    };
  }
  return { version, host };
}

/** Where the CLI finds its language host: beside itself (the official layout), else on PATH. */
function languageHostOf(cliFolder: string, env: NodeJS.ProcessEnv): string | undefined {
  const beside = join(cliFolder, LANGUAGE_HOST);
  return isExecutable(beside) ? beside : onPath(LANGUAGE_HOST, env);
}

/**
 * The folder of prebuilt language hosts, one per CLI version: `$SHIPPING_LANGHOST_DIR`, else
 * `../shared/pulumi-langhost` beside the repository (the Go module proxy here does not serve the host's module).
 */
function sharedLanguageHosts(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[LANGUAGE_HOSTS_ENV];
  return named !== undefined && named !== ""
    ? named
    : resolve(repositoryRoot(), "..", "shared", "pulumi-langhost");
}

/** The repository this module is part of, from its source (`scripts/lib`) or its build (`dist/scripts/lib`). */
function repositoryRoot(): string {
  const up = resolve(__dirname, "..", "..");
  return basename(up) === "dist" ? dirname(up) : up;
}

/** A CLI to probe: where it came from and why it would be chosen. */
interface Candidate {
  source: PulumiCliSource;
  binary: string;
  root: string | undefined;
  why: string;
}

/** The candidate that SHIPPING_PULUMI_ROOT names: `<folder>/bin/pulumi`, else `<folder>/pulumi` (tarball layout). */
function namedCandidate(folder: string): Candidate {
  const why = `${PULUMI_ROOT_ENV} points at it`;
  const tarball = join(folder, "pulumi");
  if (!isFile(join(folder, "bin", "pulumi")) && isFile(tarball)) {
    return { source: PULUMI_ROOT_ENV, binary: tarball, root: undefined, why };
  }
  return { source: PULUMI_ROOT_ENV, binary: join(folder, "bin", "pulumi"), root: folder, why };
}

/**
 * Finds the Pulumi CLI to use, without building anything:
 * 1. `$SHIPPING_PULUMI_ROOT/bin/pulumi` (or `$SHIPPING_PULUMI_ROOT/pulumi` when that folder is laid out as the
 *    official tarball) when that variable is set (the only candidate then: an explicit choice);
 * 2. else `pulumi` on PATH, when it runs inline programs ({@link MIN_INLINE_CLI_VERSION}+) and the
 *    dynamic-provider plugin is beside it or on PATH;
 * 3. else the CLI that scripts/install-pulumi.sh builds into {@link builtCliRoot}.
 */
export function findPulumiCli(env: NodeJS.ProcessEnv = process.env): PulumiCliLookup {
  const rejected: string[] = [];
  const override = env[PULUMI_ROOT_ENV];
  const candidates: Candidate[] = override !== undefined && override !== "" ? [namedCandidate(override)] : [];
  if (candidates.length === 0) {
    const fromPath = onPath("pulumi", env);
    if (fromPath === undefined) rejected.push("no pulumi on PATH");
    else {
      const binDir = dirname(fromPath);
      const root = binDir.endsWith("/bin") ? dirname(binDir) : undefined;
      candidates.push({ source: "PATH", binary: fromPath, root, why: "found on PATH" });
    }
    const built = builtCliRoot(env);
    candidates.push({
      source: "built",
      binary: join(built, "bin", "pulumi"),
      root: built,
      why: "built by scripts/install-pulumi.sh",
    });
  }
  for (const candidate of candidates) {
    const result = probe(candidate.binary, env);
    if ("problem" in result) {
      rejected.push(result.problem);
      continue;
    }
    const reason =
      `Using Pulumi CLI ${result.version} at ${candidate.binary} (${candidate.why}; ${MIN_INLINE_CLI_VERSION}+ with ` +
      `${DYNAMIC_PLUGIN}) and its Node.js language host ${result.host}` +
      (rejected.length > 0 ? `; passed over: ${rejected.join("; ")}` : "");
    return { found: { ...candidate, version: result.version, languageHost: result.host, reason }, rejected };
  }
  return { found: undefined, rejected };
}

/** The CLI to use, or an error that says why none fits and how to get one. */
export function requirePulumiCli(env: NodeJS.ProcessEnv = process.env): PulumiCliChoice {
  const lookup = findPulumiCli(env);
  if (lookup.found !== undefined) return lookup.found;
  throw new Error(
    `No usable Pulumi CLI: ${lookup.rejected.join("; ")}. Run scripts/install-pulumi.sh to build ${PULUMI_CLI_VERSION} ` +
      `(needs Go 1.25.11+), or install a Pulumi CLI ${MIN_INLINE_CLI_VERSION}+ with ${DYNAMIC_PLUGIN} beside it (as ` +
      `https://www.pulumi.com/docs/install/ does) and put it on PATH or set ${PULUMI_ROOT_ENV} to its folder.`,
  );
}

/**
 * A folder whose `bin/pulumi` is the CLI that {@link requirePulumiCli} picks (what the Automation API's
 * `PulumiCommand.get({ root })`, SHIPPING_PULUMI_ROOT and PATH entries take): the CLI's own root, or, for one
 * laid out without `bin/` (the official Linux tarball), a {@link linkedCliRoot} whose `bin` links to its folder.
 */
export function pulumiCliRoot(env: NodeJS.ProcessEnv = process.env): string {
  const choice = requirePulumiCli(env);
  return choice.root ?? linkedCliRoot(choice.binary, env);
}

/** The CLI as the Automation API drives it: `<pulumiCliRoot()>/bin/pulumi`, the one {@link requirePulumiCli} picks. */
export async function pulumiCommand(env: NodeJS.ProcessEnv = process.env): Promise<PulumiCommand> {
  // Loaded here, not at the top: it takes about a second, which `ensurePulumiCli` (every npm test) need not pay.
  const { PulumiCommand } =
    require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
  return PulumiCommand.get({ root: pulumiCliRoot(env) });
}
