/**
 * The declarations of one deployment shared by its provider processes, so that one hook per shop holds across
 * them. Under the provider plugin the default provider and each explicit `pulumi:providers:shipping` run in a
 * process of their own: a hook declared for one shop through two of them was refused by neither, and the two
 * subscriptions overwrote each other.
 *
 * Each process appends a line per declaration to a file of the deployment (deploymentClaims.ts says which, and
 * where), after a newline that ends any line left cut short, before it reads the file: the first line of a
 * hook and shop is its declaration, any later line of
 * another declarer a second one. Appends land whole and in one order, so of two processes checking at the same
 * moment exactly the later one is refused. A declarer declaring again (the engine checks a replacement a second
 * time, with its URN) is no second.
 *
 * A shop is named by a digest of the deployment's key with the API and key (`shopKey`): the same credentials
 * in two processes are one shop, and the file holds no key. The deployment's key is also the file's name, so
 * the digest hides a key only as well as the key resists guessing (the folder is the user's, 0700). A random
 * salt would hide nothing more: every process of the deployment must read it, so it would be kept in the same
 * folder, readable by exactly whoever can read the file's name and lines. Creates
 * are shared too, under the shop the service reports: two keys of one shop in two processes are refused before
 * the second write, as within one process. So are the URLs each shop's hooks are declared at and the creates
 * that failed: a delete of a resource the program no longer declares, in one process, keeps a hook that a
 * resource of another process declares (ownership.ts `keepsHook`). Holds digests, hooks, resource URNs and the
 * process that wrote each line (a line of a process that has ended is an earlier deployment's: writers.ts),
 * never a credential nor a URL.
 */
import { createHash } from "node:crypto";
import { appendFileSync, closeSync, openSync, readSync } from "node:fs";
import type { ShopTarget } from "../config/settings";
import type { Declared } from "../rules/ownershipFacts";
import { type ShopIdentity, serviceShopKey } from "../rules/recorded";
import { type Deployment, deploymentOf } from "./deploymentClaims";
import { isRunning, thisWriter } from "./writers";

/**
 * The recorded subscription's API and the shops the service named for it: in state (when it did), and in the
 * shop's listing now (state written before the service named shops, or without the account it names now).
 */
export interface RecordedShop {
  readonly api: string;
  readonly identities: readonly ShopIdentity[];
}

/** One line of the file: a shop, a hook, who declares it there, and the process that wrote it (writers.ts). */
type Line = readonly [shop: string, hook: string, declarer: string, writer: string];

/** The shared declarations of a deployment; without one they share nothing (each process decides alone). */
export class SharedDeclarations {
  readonly #file: string | undefined;
  readonly #salt: string;
  /** By shop and hook: every declarer the file holds, the first one first. */
  readonly #all = new Map<string, Set<string>>();
  /** Bytes of the file read so far, and an unfinished last line. */
  #offset = 0;
  #rest = "";

  /** `file`: the deployment's file, `salt` its key; no file: no sharing. */
  constructor(file?: string, salt = "") {
    this.#file = file;
    this.#salt = salt;
  }

  /**
   * The declarations of the deployment whose engine started this process. Shared only when the deployment is
   * known by its CLI process (where /proc tells it): an engine address alone may be reused by a later
   * deployment, whose declarations would then be refused by an earlier one's.
   */
  static ofProcess(deployment: Deployment | undefined = deploymentOf()): SharedDeclarations {
    if (deployment === undefined || !deployment.cliKnown) return new SharedDeclarations();
    return new SharedDeclarations(deployment.file("declarations"), deployment.key);
  }

  /**
   * Records that resource `urn` declares `hook` for the shop of `target`'s credentials; returns the URN of
   * another resource of the deployment that declared it there first, in any process.
   */
  declare(target: ShopTarget, hook: string, urn: string): string | undefined {
    return this.#firstOther(["declare", this.#digest(target.shopKey)], hook, urn);
  }

  /** Whether this shares anything (a file of the deployment). */
  isShared(): boolean {
    return this.#file !== undefined;
  }

  /**
   * Records that `target`'s credentials declare or create `hook` in the shop the service names `shop`;
   * returns whether other credentials declared or created it there first, in any process of the deployment.
   */
  createIn(target: ShopTarget, shop: ShopIdentity, hook: string): boolean {
    const key = ["create", this.#serviceShop(target.api, shop)] as const;
    return this.#firstOther(key, hook, this.#digest(target.shopKey)) !== undefined;
  }

  /** Records, for the deployment's other processes, that `target`'s credentials declare `hook` at `url`. */
  declareUrl(target: ShopTarget, hook: string, url: string): void {
    this.#append(`url:${this.#digest(target.shopKey)}`, hook, this.#digest(url));
  }

  /**
   * Records, for the deployment's other processes, that `target`'s credentials declare `hook` at `url` in the
   * shop the service names `shop`: a process where those credentials are not configured places it so.
   */
  declareUrlInShop(target: ShopTarget, shop: ShopIdentity, hook: string, url: string): void {
    this.#append(`urlIn:${this.#serviceShop(target.api, shop)}`, hook, this.#digest(url));
  }

  /**
   * Records, for the deployment's other processes, that a resource the program keeps unchanged declares `hook` at
   * `url` through `target`'s credentials, in the shop the service named for its recorded subscription (`shop`).
   */
  declareKeptInShop(target: ShopTarget, shop: ShopIdentity, hook: string, url: string): void {
    this.#append(`keptIn:${this.#serviceShop(target.api, shop)}`, hook, this.#digest(url));
  }

  /**
   * Records, for the deployment's other processes, that a create of `hook` in `target`'s shop failed: by its
   * credentials, and by the shop the service named for them (`shop`), or else as not placed at its API. A
   * shop that listed nothing ("empty") is placed nowhere: it is not the recorded shop of any delete, which
   * lists the recorded subscription (or it is gone, and nothing is deleted).
   */
  createFailed(target: ShopTarget, hook: string, shop: ShopIdentity | "empty" | undefined): void {
    this.#append(`failed:${this.#digest(target.shopKey)}`, hook, "failed");
    if (shop === "empty") return;
    if (shop !== undefined) this.#append(`failedIn:${this.#serviceShop(target.api, shop)}`, hook, "failed");
    else this.#append(`failedUnplaced:${this.#digest(target.api)}`, hook, this.#digest(target.shopKey));
  }

  /**
   * How the deployment's processes declare `hook` (recorded at `url` in `recorded`'s shop): for each of
   * `targets` (the shops configured in this process), then for credentials configured elsewhere only, placed in
   * the recorded shop by the service, or not placed at all.
   */
  declaredIn(hook: string, url: string, targets: readonly ShopTarget[], recorded: RecordedShop): Declared[] {
    if (this.#file === undefined) return [];
    this.#readNew();
    const has = (key: string, value?: string) =>
      value === undefined
        ? this.#all.has(`${key}\u0000${hook}`)
        : this.#all.get(`${key}\u0000${hook}`)?.has(value) === true;
    const declared: Declared[] = targets.flatMap((target) => {
      const shop = this.#digest(target.shopKey);
      if (!has(`url:${shop}`)) return [];
      const atRecordedUrl = has(`url:${shop}`, this.#digest(url));
      return [{ shopKey: target.shopKey, atRecordedUrl, createFailed: has(`failed:${shop}`) }];
    });
    const shops = new Set(recorded.identities.map((identity) => this.#serviceShop(recorded.api, identity)));
    const inShop = [...shops].filter((shop) => has(`urlIn:${shop}`) || has(`failedIn:${shop}`));
    if (inShop.length > 0)
      declared.push({
        inRecordedShop: true,
        atRecordedUrl: inShop.some((shop) => has(`urlIn:${shop}`, this.#digest(url))),
        createFailed: inShop.some((shop) => has(`failedIn:${shop}`)),
      });
    const kept = [...shops].filter((shop) => has(`keptIn:${shop}`));
    if (kept.length > 0)
      declared.push({
        inRecordedShop: true,
        atRecordedUrl: kept.some((shop) => has(`keptIn:${shop}`, this.#digest(url))),
        createFailed: false,
        keptUnchanged: true,
      });
    const configured = new Set(targets.map((t) => this.#digest(t.shopKey)));
    const unplaced = this.#all.get(`failedUnplaced:${this.#digest(recorded.api)}\u0000${hook}`) ?? [];
    if ([...unplaced].some((declarer) => !configured.has(declarer)))
      declared.push({ atRecordedUrl: false, createFailed: true });
    return declared;
  }

  /** The digest of the shop the service names `shop` at `api`. */
  #serviceShop(api: string, shop: ShopIdentity): string {
    return this.#digest(`${api}\u0000${serviceShopKey(shop)}`);
  }

  /** Appends the line, reads what is new, and returns the first declarer of the hook there if not `declarer`. */
  #firstOther(shop: readonly [string, string], hook: string, declarer: string): string | undefined {
    const key = shop.join(":");
    if (!this.#append(key, hook, declarer)) return undefined; // Not shared: this process's own rule holds.
    const first = this.#all.get(`${key}\u0000${hook}`)?.values().next().value;
    return first === undefined || first === declarer ? undefined : first;
  }

  /** Appends a line and reads what is new; false when nothing is shared (no file, or it cannot be written). */
  #append(key: string, hook: string, declarer: string): boolean {
    if (this.#file === undefined) return false;
    try {
      // The leading newline ends a line an earlier append left cut short (ENOSPC, a crash): without it this
      // line would be glued onto that one and skipped with it, and a second declaration not refused. The
      // blank line it makes when the file was whole parses as nothing.
      appendFileSync(this.#file, `\n${JSON.stringify([key, hook, declarer, thisWriter()])}\n`);
    } catch {
      return false;
    }
    this.#readNew();
    return true;
  }

  /** Reads the lines appended since the last read: the declarers of each hook and shop, in order. */
  #readNew(): void {
    let fd: number;
    try {
      fd = openSync(this.#file as string, "r");
    } catch {
      return;
    }
    try {
      const chunk = Buffer.alloc(64 * 1024);
      const parts: Buffer[] = [];
      for (;;) {
        const read = readSync(fd, chunk, 0, chunk.length, this.#offset);
        if (read === 0) break;
        parts.push(Buffer.from(chunk.subarray(0, read)));
        this.#offset += read;
      }
      const lines = (this.#rest + Buffer.concat(parts).toString("utf8")).split("\n");
      this.#rest = lines.pop() ?? "";
      for (const text of lines) {
        // Undefined for a blank line or one cut short: neither declares. A line of a process that no longer runs
        // is an earlier deployment's (`pulumi watch`, its engine on the same port).
        const line = parseLine(text);
        if (line === undefined || !isRunning(line[3])) continue;
        const key = `${line[0]}\u0000${line[1]}`;
        this.#all.set(key, (this.#all.get(key) ?? new Set()).add(line[2]));
      }
    } finally {
      closeSync(fd);
    }
  }

  /** A digest of `value` that only this deployment's processes make (its key is the salt). */
  #digest(value: string): string {
    return createHash("sha256").update(`${this.#salt}\u0000${value}`).digest("hex").slice(0, 32);
  }
}

function parseLine(text: string): Line | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== 4) return undefined;
    const [shop, hook, declarer, writer] = parsed as unknown[];
    if (
      typeof shop === "string" &&
      typeof hook === "string" &&
      typeof declarer === "string" &&
      typeof writer === "string"
    )
      return [shop, hook, declarer, writer];
  } catch {
    // Not a line of this format: skipped.
  }
  return undefined;
}
