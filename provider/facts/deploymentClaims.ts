/**
 * The claims of one deployment shared by its provider processes. The engine runs each provider in a process
 * of its own: the dynamic host, the plugin's default provider, each explicit provider. A stack moved from the
 * dynamic resource to the plugin's without an alias has the plugin create (adopting the live subscription, no
 * write) and the dynamic host delete the old resource: without this, that delete removed the subscription the
 * new resource had just adopted. Each process appends the subscriptions its resources create, adopt or keep
 * to a file of the deployment, and reads the others' there: the ownership rule then finds the subscription
 * claimed by a resource of this deployment and leaves it.
 *
 * A deployment is told by the engine's address (every provider of it gets the same one as its first argument)
 * and the Pulumi CLI process that serves it. Holds ids and API base URLs only, never a credential.
 */
import { createHash } from "node:crypto";
import {
  appendFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { warn } from "../operations/warnings";
import { pulumiCliProcess } from "./cliProcess";
import { isRunning, thisWriter } from "./writers";

/**
 * Where the files live: a folder of this user's only (mode 0700, checked with every folder above it:
 * {@link privateFolder}), under the user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`), so that no other
 * user of a shared machine can add, remove or redirect a deployment's files, nor make a folder in its place
 * first, as one could in the temporary folder every user shares, turning the sharing off. Undefined when there
 * is no absolute cache folder: a relative `XDG_CACHE_HOME` is ignored, as the XDG specification says, and a
 * container's user may have no home at all.
 */
export function sharedFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "pulumi-shipping-webhooks", "deployments");
  let home: string;
  try {
    home = homedir();
  } catch {
    return undefined; // no HOME, and a uid with no passwd entry
  }
  return isAbsolute(home) ? join(home, ".cache", "pulumi-shipping-webhooks", "deployments") : undefined;
}
/** Files of deployments this old are removed (no deployment runs for a day). */
const STALE_AFTER_MS = 24 * 60 * 60_000;
/**
 * The format of the files' lines, part of their name: a release that writes lines another way (these name the
 * process that wrote each: writers.ts) never opens a file of one that did not, also under `pulumi watch`.
 */
const FILE_FORMAT = "lines named by writer";
/** An engine address as the engine hands it to a provider plugin. */
const ENGINE_ADDRESS = /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/;

/**
 * The engine's address among a provider process's arguments (`argv` without node and the script): the engine
 * hands it to every provider, after any flags (`--tracing <url>`, `-v=9`); undefined when none is there.
 */
export function engineAddressOf(argv: readonly string[]): string | undefined {
  return argv.find((arg) => ENGINE_ADDRESS.test(arg));
}

/** The deployment whose engine started a process: its key, and where its shared files live. */
export interface Deployment {
  /** The deployment's key: a digest of the engine's address and the Pulumi CLI process serving it. */
  readonly key: string;
  /** Whether the key names the CLI process (pid, start time, boot): else it is the engine's address alone. */
  readonly cliKnown: boolean;
  /** The deployment's shared file of this kind (`claims`, `declarations`), in this user's private folder. */
  file(kind: string): string;
}

/**
 * The warning of a process whose engine started it but whose deployment's files cannot be kept in `folder`
 * (undefined: there is no cache folder): what is not guarded across the deployment's provider processes, and
 * the fix. None on Windows, where Node.js reports every folder as writable by others, so no folder is taken as
 * private and nothing is ever shared (docs/safety.md says so; a warning on every run would teach to ignore it).
 */
export function sharingOff(
  folder: string | undefined,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (platform === "win32") return undefined;
  const where =
    folder === undefined
      ? "there is no home folder or absolute XDG_CACHE_HOME to keep them in"
      : `${folder} is not a folder of this user's that only this user may write (mode 0700, and no other user may write or own a folder above it)`;
  const fix =
    folder === undefined
      ? "set XDG_CACHE_HOME to an absolute folder of yours"
      : `\`chmod 700 ${folder}\` (or remove it: it is made again), make the folders above it yours or root's and not writable by others, or set XDG_CACHE_HOME to a folder of yours`;
  return `shipping: this deployment's provider processes cannot share what their resources claim and declare: ${where}. Until they can, two guards hold within each process only: a stack moved from the dynamic resource to the plugin's without an alias (the old resource's delete may remove the subscription the new one adopted), and one hook per shop across providers. Fix: ${fix}.`;
}

/**
 * The deployment whose engine started this process (`argv`: its arguments, with node and the script);
 * undefined without an engine address or a private folder (then nothing is shared, and a warning says so).
 * Removes the files of earlier deployments older than a day.
 */
export function deploymentOf(
  argv: readonly string[] = process.argv,
  folderPath: () => string | undefined = sharedFolder,
): Deployment | undefined {
  const address = engineAddressOf(argv.slice(2));
  if (address === undefined) return undefined;
  const path = folderPath();
  const cli = pulumiCliProcess();
  const key = createHash("sha256")
    .update(`${FILE_FORMAT}\0${address}\0${cli ?? ""}`)
    .digest("hex")
    .slice(0, 24);
  const folder = path === undefined ? undefined : privateFolder(path);
  if (folder === undefined) {
    const warning = sharingOff(path);
    if (warning !== undefined) warn(warning);
    return undefined;
  }
  removeStale(folder);
  return { key, cliKnown: cli !== undefined, file: (kind) => join(folder, `${key}.${kind}`) };
}

/** What a deployment's processes claim, by id: the APIs of each claim, and of each kept unchanged. */
interface ClaimsRead {
  readonly claimed: Map<number, Set<string>>;
  readonly kept: Map<number, Set<string>>;
}

/**
 * The shared claims of a deployment; without a deployment (no engine address) it holds nothing. Each line names
 * the process that wrote it: lines of a process that no longer runs are an earlier deployment's (writers.ts).
 */
export class DeploymentClaims {
  readonly #file: string | undefined;
  #read: { size: number } & ClaimsRead = { size: -1, claimed: new Map(), kept: new Map() };

  /** `file`: the deployment's file; undefined: no sharing. */
  constructor(file?: string) {
    this.#file = file;
  }

  /** The claims of `deployment` (by default the one whose engine started this process). */
  static ofProcess(deployment: Deployment | undefined = deploymentOf()): DeploymentClaims {
    return new DeploymentClaims(deployment?.file("claims"));
  }

  /**
   * Records that a resource of this process claims subscription `id` of `api`: it creates or adopts it, or
   * (`kept`) the program declares it unchanged, so that no create of another process adopts or overwrites it.
   */
  add(api: string, id: number, kept = false): void {
    if (this.#file === undefined) return;
    const line = kept ? [api, id, thisWriter(), "kept"] : [api, id, thisWriter()];
    try {
      // The leading newline ends a line an earlier append left cut short (ENOSPC, a crash), so that this claim
      // is not glued onto it and lost (a delete would then remove a subscription this deployment claims).
      appendFileSync(this.#file, `\n${JSON.stringify(line)}\n`);
    } catch {
      // Not shared: this process's own claims still hold.
    }
  }

  /** The APIs at which a resource of this deployment (any process) claims `id`. */
  apisOf(id: number): string[] {
    return [...(this.#claims().claimed.get(id) ?? [])];
  }

  /** The APIs at which a resource of this deployment (any process) keeps `id` unchanged. */
  keptAt(id: number): string[] {
    return [...(this.#claims().kept.get(id) ?? [])];
  }

  /** The file's claims, read again when it grew. */
  #claims(): ClaimsRead {
    if (this.#file === undefined) return this.#read;
    let size: number;
    try {
      size = statSync(this.#file).size;
    } catch {
      return this.#read;
    }
    if (size === this.#read.size) return this.#read;
    const read: ClaimsRead = { claimed: new Map(), kept: new Map() };
    for (const line of readFileSync(this.#file, "utf8").split("\n")) {
      const claim = parseLine(line);
      if (claim === undefined || !isRunning(claim.writer)) continue;
      const { api, id } = claim;
      read.claimed.set(id, (read.claimed.get(id) ?? new Set()).add(api));
      if (claim.kept) read.kept.set(id, (read.kept.get(id) ?? new Set()).add(api));
    }
    this.#read = { size, ...read };
    return read;
  }
}

/** A line of the claims file: `[api, id, writer]`, or `[api, id, writer, "kept"]`. */
function parseLine(line: string): { api: string; id: number; writer: string; kept: boolean } | undefined {
  try {
    const parsed = JSON.parse(line) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    const [api, id, writer, kept] = parsed as unknown[];
    if (typeof api === "string" && typeof id === "number" && typeof writer === "string")
      return { api, id, writer, kept: kept === "kept" };
  } catch {
    // A blank line, or one cut short by a failed append: not a claim.
  }
  return undefined;
}

/**
 * `folder` (made if missing, then as its real path, links resolved) when it is a real folder of this user that
 * no one else may write (mode 0700), and every folder above it is this user's or root's and not writable by
 * others unless sticky (as /tmp is, where no one may rename another's entry): so no other user can swap a folder
 * on the way for one of theirs. Undefined otherwise (then nothing is shared). Exported for its tests.
 */
export function privateFolder(folder: string): string | undefined {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const info = lstatSync(folder);
    const mine = process.getuid === undefined || info.uid === process.getuid();
    if (!info.isDirectory() || !mine || (info.mode & 0o077) !== 0) return undefined;
    const real = realpathSync(folder);
    return foldersAboveAreSafe(real) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Whether every folder above `real` (a real path) is this user's or root's, and writable by others only if sticky. */
function foldersAboveAreSafe(real: string): boolean {
  const uid = process.getuid?.();
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    const info = lstatSync(dir);
    const owner = info.uid === 0 || uid === undefined || info.uid === uid;
    const othersMayWrite = (info.mode & 0o022) !== 0;
    if (!owner || (othersMayWrite && (info.mode & 0o1000) === 0)) return false;
    if (dirname(dir) === dir) return true;
  }
}

/** Removes the files of deployments older than {@link STALE_AFTER_MS}; an entry that vanishes or fails is skipped. */
export function removeStale(folder: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(folder, name);
    try {
      if (now - lstatSync(path).mtimeMs > STALE_AFTER_MS) rmSync(path, { force: true });
    } catch {
      // Removed meanwhile by another process, or not ours to remove: not this deployment's file either way.
    }
  }
}
