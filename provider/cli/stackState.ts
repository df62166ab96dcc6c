/**
 * What `export` learns from a stack through the `pulumi` CLI, as pure functions of the CLI's output: the
 * stack's config (`pulumi config --json --show-secrets`), the subscriptions it records (`pulumi stack
 * export`) and the selected stack (`pulumi stack ls --json`); and which live subscriptions that leaves out.
 * No Pulumi import: the command must start fast.
 */
import type { ConfigSource } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import { DYNAMIC_RESOURCE_TYPE, PLUGIN_RESOURCE_TYPE } from "../resourceTypes";
import type { Adoptable, Inventory, LeftOut } from "./inventory";

/** The stack or its CLI could not be read; the message names the stack, the command and the fix. */
export class StackReadError extends ShippingError {
  override name = "StackReadError";
}

/** A stack's config as the provider reads it, and the secret values never to print. */
export interface StackConfig {
  readonly source: ConfigSource;
  /** Every secret value (and each string inside a secret object), for redaction. */
  readonly secrets: readonly string[];
}

/** A WebhookSubscription the stack records. */
export interface StackRecord {
  /** The resource's name (the last part of its URN). */
  readonly name: string;
  readonly id: number;
  /** The API it was written at (`outputs.api`); undefined in state written before 0.2. */
  readonly api?: string;
  /** The shop name it declares; undefined for the default shop (or when stored as a secret). */
  readonly shop?: string;
  readonly hook?: string;
}

/** Shorter secrets are not redacted: they would blank unrelated text (a `shopId` of `1`, say). */
const MIN_REDACTED_LENGTH = 4;

function parseJson(stdout: string, command: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    // Never quote the output: it may hold the stack's secrets.
    throw new StackReadError(
      `\`${command}\` printed no JSON. Run it in this folder to see what it says, then run export again`,
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (isObject(value)) return Object.values(value).flatMap(strings);
  return [];
}

/**
 * `pulumi config --json --show-secrets`: key -> `{ value, secret, objectValue? }`. The source returns `value`,
 * which is the JSON text of an object setting, as the engine gives the provider its config.
 */
export function parseConfigJson(stdout: string, command: string): StackConfig {
  const parsed = parseJson(stdout, command);
  if (!isObject(parsed)) throw new StackReadError(`\`${command}\` printed no config object`);
  const values = new Map<string, string>();
  const secrets: string[] = [];
  for (const [key, entry] of Object.entries(parsed)) {
    if (!isObject(entry) || typeof entry.value !== "string") continue;
    values.set(key, entry.value);
    if (entry.secret === true) secrets.push(entry.value, ...strings(entry.objectValue));
  }
  return {
    source: (key) => values.get(key),
    secrets: [...new Set(secrets)].filter((s) => s.length >= MIN_REDACTED_LENGTH),
  };
}

/** `text` with every secret replaced by `[secret]`. */
export function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join("[secret]"), text);
}

function plainString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The types a stack records a subscription under: the TypeScript class's, and the provider plugin's. */
const STACK_TYPES = new Set([DYNAMIC_RESOURCE_TYPE, PLUGIN_RESOURCE_TYPE]);

/** `pulumi stack export`: the stack's WebhookSubscription resources (secret outputs stay unread). */
export function parseStackExport(stdout: string, command: string): StackRecord[] {
  const parsed = parseJson(stdout, command);
  const resources = isObject(parsed) && isObject(parsed.deployment) ? parsed.deployment.resources : [];
  if (!Array.isArray(resources)) return [];
  const records: StackRecord[] = [];
  for (const resource of resources) {
    if (!isObject(resource) || !STACK_TYPES.has(String(resource.type)) || typeof resource.urn !== "string")
      continue;
    const outputs = isObject(resource.outputs) ? resource.outputs : {};
    const id =
      typeof outputs.subscriptionId === "number" ? outputs.subscriptionId : Number(resource.id ?? Number.NaN);
    if (!Number.isSafeInteger(id)) continue;
    const api = plainString(outputs.api);
    const shop = plainString(outputs.shop);
    // A shop stored as a secret is unknown here: then the record matches by its id only, never by its hook.
    const hook = outputs.shop === undefined || shop !== undefined ? plainString(outputs.hook) : undefined;
    records.push({
      name: resource.urn.slice(resource.urn.lastIndexOf("::") + 2),
      id,
      ...(api !== undefined ? { api } : {}),
      ...(shop !== undefined ? { shop } : {}),
      ...(hook !== undefined ? { hook } : {}),
    });
  }
  return records;
}

/** The stacks of a project as `pulumi stack ls --json` lists them. */
interface StackList {
  readonly names: readonly string[];
  readonly current?: string;
}

/** `pulumi stack ls --json`: the project's stacks and the selected one. */
export function parseStackList(stdout: string, command: string): StackList {
  const parsed = parseJson(stdout, command);
  const stacks = Array.isArray(parsed) ? parsed.filter(isObject) : [];
  const names = stacks.map((s) => s.name).filter((n): n is string => typeof n === "string");
  const current = stacks.find((s) => s.current === true)?.name;
  return { names, ...(typeof current === "string" ? { current } : {}) };
}

/** Where the subscriptions being exported live: the shop's API and its name (undefined: the default shop). */
interface ExportedShop {
  readonly api: string;
  readonly shop?: string;
}

/**
 * Splits the adoptable subscriptions into those to declare and those the stack has already: one it records
 * (the same id at the same API), or a hook of this shop that one of its resources declares (then a second
 * declaration would fail `up`, whatever id that resource records).
 */
export function leaveOutRecorded(
  items: Inventory,
  records: readonly StackRecord[],
  where: ExportedShop,
  stack: string,
): { readonly items: Inventory; readonly leftOut: readonly LeftOut[] } {
  const atApi = records.filter((r) => r.api === undefined || r.api === where.api);
  const adoptable: Adoptable[] = [];
  const leftOut: LeftOut[] = [];
  for (const subscription of items.adoptable) {
    const recorded = atApi.find((r) => r.id === subscription.id);
    const declaring = atApi.find((r) => r.shop === where.shop && r.hook === subscription.hook);
    if (recorded !== undefined) {
      leftOut.push({ subscription, reason: `stack ${stack} records it as ${JSON.stringify(recorded.name)}` });
    } else if (declaring !== undefined) {
      leftOut.push({
        subscription,
        reason: `stack ${stack} declares this hook of this shop as ${JSON.stringify(declaring.name)} (it records subscription ${declaring.id}); \`pulumi preview --stack ${stack}\` shows what up does with it`,
      });
    } else {
      adoptable.push(subscription);
    }
  }
  return { items: { ...items, adoptable }, leftOut };
}
