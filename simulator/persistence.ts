/** Persistence of the store to one JSON file: strict loading, atomic saves (temp file, fsync, rename). */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Hook } from "../contract/hooks";
import { STATE_FILE_VERSION } from "./constants";
import { setOwn } from "./records";
import { formatIssues, stateFileSchema, stateShopSchema } from "./schemas";
import type { StoreSnapshot } from "./store";
import type { Subscription } from "./types";
import { urlProblem } from "./validation";

/** The data file cannot be used: unreadable, not JSON, or not a valid state. The message says how to fix it. */
export class SimulatorStateError extends Error {
  /** The data file in question. */
  readonly file: string;

  /** Build an error naming the file and the problem, and suggesting the fix. */
  constructor(
    file: string,
    problem: string,
    fix = "fix the file, or move it aside or delete it to start empty",
  ) {
    super(`simulator data file ${file} ${problem}. The simulator will not start on it: ${fix}.`);
    this.name = "SimulatorStateError";
    this.file = file;
  }
}

function semanticProblem(snapshot: StoreSnapshot): string | undefined {
  const seen = new Set<number>();
  for (const [shop, subs] of Object.entries(snapshot.shops)) {
    const hooks = new Set<Hook>();
    for (const [i, sub] of subs.entries()) {
      const at = `shops.${shop}[${i}]`;
      if (seen.has(sub.id)) return `${at}.id ${sub.id} is used twice`;
      if (sub.id >= snapshot.nextId) return `${at}.id ${sub.id} is not below nextId ${snapshot.nextId}`;
      if (hooks.has(sub.hook)) return `${at}.hook "${sub.hook}" appears twice in shop "${shop}"`;
      const problem = urlProblem(sub.url);
      if (problem !== undefined) return `${at}.url ${problem}`;
      seen.add(sub.id);
      hooks.add(sub.hook);
    }
  }
  return undefined;
}

/** Escape `text` for use inside a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The name of the temporary file a save writes before renaming it over `file`. */
function tempName(file: string): string {
  return `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

/**
 * Remove the temporary files that saves of `file` interrupted by a crash left beside it (only names that
 * `tempName` produces). Answers how many were removed. One data file is never shared by two simulators,
 * so none of them can belong to a save still running.
 */
export function removeInterruptedSaves(file: string): number {
  const pattern = new RegExp(`^\\.${escapeRegExp(basename(file))}\\.\\d+\\.[0-9a-f]{8}\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return 0;
  }
  const leftovers = names.filter((name) => pattern.test(name));
  for (const name of leftovers) rmSync(join(dirname(file), name), { force: true });
  return leftovers.length;
}

/**
 * Load the state file. A missing file answers undefined (start empty); anything else that is wrong throws
 * SimulatorStateError. Creates the file's directory if needed so later saves succeed.
 */
export function loadState(file: string): StoreSnapshot | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      try {
        mkdirSync(dirname(file), { recursive: true });
      } catch (mkdirError) {
        const why = (mkdirError as NodeJS.ErrnoException).code ?? String(mkdirError);
        throw new SimulatorStateError(
          file,
          `does not exist and its directory cannot be created (${why})`,
          "choose a data file in a writable directory",
        );
      }
      return undefined;
    }
    throw new SimulatorStateError(file, `cannot be read (${code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SimulatorStateError(file, `is not valid JSON (${(error as Error).message})`);
  }
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new SimulatorStateError(
      file,
      `is not a simulator state (version ${STATE_FILE_VERSION}): ${formatIssues(parsed.error)}`,
    );
  }
  const shops: StoreSnapshot["shops"] = {};
  // From the parsed JSON's own entries: JSON.parse keeps a shop named `__proto__` as a key, zod would not.
  for (const [name, list] of Object.entries((json as { shops: Record<string, unknown> }).shops)) {
    const subs = stateShopSchema.safeParse(list);
    if (!subs.success) {
      throw new SimulatorStateError(
        file,
        `is not a simulator state (version ${STATE_FILE_VERSION}): ${formatIssues(subs.error, ["shops", name])}`,
      );
    }
    setOwn(shops, name, subs.data as Subscription[]);
  }
  const snapshot: StoreSnapshot = { nextId: parsed.data.nextId, shops };
  const problem = semanticProblem(snapshot);
  if (problem !== undefined) throw new SimulatorStateError(file, `is inconsistent: ${problem}`);
  return snapshot;
}

/**
 * The file operations a save uses (node:fs/promises by default): the seam through which tests inject a full
 * disk or a failing fsync.
 */
export interface SaveFileSystem {
  open: typeof open;
  rename: typeof rename;
  unlink: typeof unlink;
}

/** node:fs/promises. */
const NODE_FS: SaveFileSystem = { open, rename, unlink };

async function writeAtomically(file: string, text: string, fs: SaveFileSystem): Promise<void> {
  const dir = dirname(file);
  const temp = join(dir, tempName(file));
  const handle = await fs.open(temp, "w", 0o600);
  try {
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    // A full disk (ENOSPC) or a failed fsync leaves a partial file; it would stay until the next start.
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  // Make the rename itself durable; some platforms cannot fsync a directory, which is not fatal.
  const dirHandle = await open(dir, "r").catch(() => undefined);
  await dirHandle?.sync().catch(() => undefined);
  await dirHandle?.close();
}

/**
 * Serialised, coalescing writer: `save()` resolves once a write that includes the caller's change is on
 * disk. At most one write runs at a time; changes made meanwhile are written together by the next one.
 */
export class StateWriter {
  #running: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  readonly #file: string;
  readonly #snapshot: () => StoreSnapshot;
  readonly #fs: SaveFileSystem;

  /** Write snapshots taken by `snapshot` to `file`, through `fs` (node:fs/promises unless a test injects one). */
  constructor(file: string, snapshot: () => StoreSnapshot, fs: SaveFileSystem = NODE_FS) {
    this.#file = file;
    this.#snapshot = snapshot;
    this.#fs = fs;
  }

  /** Persist the current state; resolves when it is durable. */
  save(): Promise<void> {
    if (this.#queued !== undefined) return this.#queued;
    if (this.#running === undefined) return this.#start();
    const after = this.#running.catch(() => undefined);
    this.#queued = after.then(() => {
      this.#queued = undefined;
      return this.#start();
    });
    return this.#queued;
  }

  #start(): Promise<void> {
    const snap = this.#snapshot();
    const text = `${JSON.stringify({ version: STATE_FILE_VERSION, nextId: snap.nextId, shops: snap.shops }, null, 2)}\n`;
    const run = writeAtomically(this.#file, text, this.#fs).finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  /** Wait for every pending write. */
  async flush(): Promise<void> {
    await this.#queued?.catch(() => undefined);
    await this.#running?.catch(() => undefined);
  }
}
