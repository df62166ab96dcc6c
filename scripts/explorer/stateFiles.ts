/**
 * Reads a stack's state straight from the `file://` backend (no CLI start), decrypting secret values with the
 * passphrase the way the engine's passphrase secrets manager does (PBKDF2-SHA256, 1,000,000 rounds, then
 * AES-256-GCM), so that secret URLs can be compared with the live ones.
 */
import { createDecipheriv, pbkdf2Sync } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { StateResource } from "../lib/stateResource";
import type { StateRecord } from "./ledger";

/** The engine's marker key of a secret value in state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
/** PBKDF2 rounds of the passphrase secrets manager. */
const PASSPHRASE_ROUNDS = 1_000_000;
/** AES-256 key length, bytes. */
const KEY_BYTES = 32;
/** AES-GCM authentication tag length, bytes. */
const GCM_TAG_BYTES = 16;

const keyCache = new Map<string, Buffer>();

function passphraseKey(passphrase: string, saltField: string): Buffer {
  const cacheKey = `${passphrase}\u0000${saltField}`;
  let key = keyCache.get(cacheKey);
  if (key === undefined) {
    const salt = Buffer.from(saltField.split(":")[1] ?? "", "base64");
    key = pbkdf2Sync(passphrase, salt, PASSPHRASE_ROUNDS, KEY_BYTES, "sha256");
    keyCache.set(cacheKey, key);
  }
  return key;
}

function decrypt(ciphertext: string, key: Buffer): string {
  const [version, nonce, data] = ciphertext.split(":");
  if (version !== "v1" || nonce === undefined || data === undefined)
    throw new Error(`unknown ciphertext ${version}`);
  const bytes = Buffer.from(data, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
  decipher.setAuthTag(bytes.subarray(bytes.length - GCM_TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(0, bytes.length - GCM_TAG_BYTES)),
    decipher.final(),
  ]).toString("utf8");
}

function reveal(value: unknown, key: Buffer | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => reveal(v, key));
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record[SECRET_SIGNATURE] !== undefined) {
    if (typeof record.ciphertext !== "string" || key === undefined) return record.plaintext;
    return JSON.parse(decrypt(record.ciphertext, key));
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, reveal(v, key)]));
}

/** One resource of a checkpoint, secrets revealed. */
interface CheckpointResource extends StateResource {
  readonly delete?: boolean;
  readonly protect?: boolean;
  readonly retainOnDelete?: boolean;
}

/** A stack's latest checkpoint, secrets revealed. */
interface Checkpoint {
  readonly resources: readonly CheckpointResource[];
  readonly pendingOperations: number;
}

/** The checkpoint file of `stack` in a `file://` backend. */
export function checkpointFile(backendDir: string, project: string, stack: string): string {
  return join(backendDir, ".pulumi", "stacks", project, `${stack}.json`);
}

/** Reads and decrypts the latest checkpoint of a stack; empty when the stack has none yet. */
export function readCheckpoint(file: string, passphrase: string): Checkpoint {
  if (!existsSync(file)) return { resources: [], pendingOperations: 0 };
  const parsed = JSON.parse(readFileSync(file, "utf8")) as {
    checkpoint?: {
      latest?: {
        resources?: CheckpointResource[];
        pending_operations?: unknown[];
        secrets_providers?: { state?: { salt?: string } };
      };
    };
  };
  const latest = parsed.checkpoint?.latest;
  const salt = latest?.secrets_providers?.state?.salt;
  const key = salt !== undefined ? passphraseKey(passphrase, salt) : undefined;
  return {
    resources: (latest?.resources ?? []).map((r) => reveal(r, key) as CheckpointResource),
    pendingOperations: latest?.pending_operations?.length ?? 0,
  };
}

/** The name part of a URN. */
function urnName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/**
 * The WebhookSubscription records of a checkpoint that are not pending deletion, or (with `pendingDeletion`)
 * only those that are: the old resources of a replacement an interrupted `up` left, which the next `up`
 * deletes.
 */
export function subscriptionRecords(checkpoint: Checkpoint, pendingDeletion = false): StateRecord[] {
  return checkpoint.resources
    .filter(
      (r) =>
        r.type.endsWith("WebhookSubscription") &&
        (r.delete === true) === pendingDeletion &&
        r.id !== undefined,
    )
    .map((r) => ({
      name: urnName(r.urn),
      id: Number(r.id),
      hook: String(r.outputs?.hook),
      url: String(r.outputs?.url),
      retainOnDelete: r.retainOnDelete === true,
      protect: r.protect === true,
    }));
}

/**
 * Every file under `dir`, recursively, as text; with `only`, just the files of `dir` itself whose name
 * matches it.
 */
export function filesUnder(dir: string, only?: RegExp): Array<{ path: string; text: string }> {
  if (!existsSync(dir)) return [];
  const files: Array<{ path: string; text: string }> = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (only !== undefined) {
      if (only.test(entry) && statSync(path).isFile())
        files.push({ path, text: readFileSync(path, "latin1") });
    } else if (statSync(path).isDirectory()) files.push(...filesUnder(path));
    else files.push({ path, text: readFileSync(path, "latin1") });
  }
  return files;
}
