import { readFileSync } from "node:fs";
import { callbackUrlProblem, HOOKS, type Hook, isHook } from "pulumi-shipping-webhooks";
import { parse as parseYaml } from "yaml";

/** One shop of the fleet and the URL each of its hooks calls. */
interface FleetShop {
  /** The shop's name: its key in `SHIPPING_SHOPS`, and part of its resources' names. */
  readonly name: string;
  readonly hooks: ReadonlyArray<{ readonly hook: Hook; readonly url: string }>;
}

/** A group of shops deployed together: one Pulumi stack, with its own state and lock. */
export interface FleetGroup {
  /** The stack's name (the group's key in the fleet file). */
  readonly stack: string;
  readonly shops: readonly FleetShop[];
}

/** A whole fleet: the Pulumi project its stacks belong to, the API, and the groups. */
export interface Fleet {
  /** Pulumi project name shared by every stack of the fleet. */
  readonly project: string;
  /** API base URL for every shop, unless its `SHIPPING_SHOPS` entry has one; else `SHIPPING_BASE_URL`. */
  readonly baseUrl?: string;
  readonly groups: readonly FleetGroup[];
}

/** A fleet file that cannot be used; the message names the path in the file and the fix. */
export class FleetFileError extends Error {
  override readonly name = "FleetFileError";
}

/** Stack, project and shop names: what Pulumi accepts in stack names and URNs without escaping. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The hooks of one shop: its own mapping (hook -> URL), or the fleet's `hooks` when it has none, with `{shop}`
 * replaced by the shop's name.
 */
function shopHooks(
  where: string,
  shop: string,
  own: unknown,
  defaults: Record<string, unknown> | undefined,
  problems: string[],
): FleetShop["hooks"] {
  const source = own === null || own === undefined ? defaults : own;
  const origin = own === null || own === undefined ? "hooks" : where;
  if (!isObject(source) || Object.keys(source).length === 0) {
    problems.push(
      `${where}: no hooks; map hooks to URLs under the shop, or give the fleet a top-level "hooks" mapping`,
    );
    return [];
  }
  const hooks: Array<{ hook: Hook; url: string }> = [];
  for (const [hook, template] of Object.entries(source)) {
    if (!isHook(hook)) {
      problems.push(`${origin}.${hook}: not a hook; use one of ${HOOKS.join(", ")}`);
      continue;
    }
    if (typeof template !== "string") {
      problems.push(`${origin}.${hook}: must be a URL string`);
      continue;
    }
    const url = template.replaceAll("{shop}", shop);
    const problem = callbackUrlProblem(url);
    if (problem !== undefined) problems.push(`${where}.${hook}: ${problem}`);
    else hooks.push({ hook, url });
  }
  return hooks;
}

/**
 * Checks and normalizes a parsed fleet description:
 *
 * ```yaml
 * project: shipping-fleet            # the Pulumi project of every stack
 * baseUrl: https://api.shipping.example.com
 * hooks:                             # default hooks; {shop} is replaced by the shop's name
 *   order_status_change: https://hooks.example.com/{shop}/orders
 * groups:                            # one stack per group
 *   eu-1: [acme, globex]             # shops with the default hooks
 *   eu-2:
 *     initech:                       # a shop with hooks of its own
 *       shipment_status_change: https://hooks.example.com/initech/shipments
 * ```
 *
 * Every problem is reported at once with its path, for example `groups.eu-2.initech.order_status_change: ...
 * must be lowercase`. API keys are never in this file: they come from `SHIPPING_SHOPS`.
 */
export function parseFleet(raw: unknown, source = "fleet file"): Fleet {
  if (!isObject(raw)) throw new FleetFileError(`${source}: must be a mapping with "project" and "groups"`);
  const problems: string[] = [];
  const project = raw.project;
  if (typeof project !== "string" || !NAME.test(project)) {
    problems.push(
      `project: must be a Pulumi project name (letters, digits, "-", "_", "."), e.g. shipping-fleet`,
    );
  }
  const baseUrl = raw.baseUrl;
  if (baseUrl !== undefined && typeof baseUrl !== "string") problems.push("baseUrl: must be a URL string");
  const defaults = raw.hooks;
  if (defaults !== undefined && !isObject(defaults)) problems.push("hooks: must map hooks to URLs");
  for (const key of Object.keys(raw)) {
    if (!["project", "baseUrl", "hooks", "groups"].includes(key)) {
      problems.push(`${key}: unknown key; a fleet file has project, baseUrl, hooks and groups`);
    }
  }
  const groups: FleetGroup[] = [];
  const groupOf = new Map<string, string>();
  if (!isObject(raw.groups) || Object.keys(raw.groups).length === 0) {
    problems.push("groups: must map each stack name to its shops, e.g. groups: { eu-1: [acme, globex] }");
  } else {
    for (const [stack, members] of Object.entries(raw.groups)) {
      const where = `groups.${stack}`;
      if (!NAME.test(stack)) problems.push(`${where}: not a stack name (letters, digits, "-", "_", ".")`);
      const entries: Array<[string, unknown]> = Array.isArray(members)
        ? members.map((name) => [String(name), undefined])
        : isObject(members)
          ? Object.entries(members)
          : [];
      if (entries.length === 0) {
        problems.push(`${where}: must list at least one shop (a list of names, or shop -> hooks)`);
        continue;
      }
      const shops: FleetShop[] = [];
      for (const [shop, own] of entries) {
        if (!NAME.test(shop)) {
          problems.push(`${where}: "${shop}" is not a shop name (letters, digits, "-", "_", ".")`);
          continue;
        }
        const earlier = groupOf.get(shop);
        if (earlier !== undefined) {
          problems.push(
            `${where}.${shop}: already in group ${earlier}; a shop belongs to exactly one group. To move it, list it only under its new group: the next up moves its subscriptions there without unsubscribing them`,
          );
          continue;
        }
        groupOf.set(shop, stack);
        const hooks = shopHooks(
          `${where}.${shop}`,
          shop,
          own,
          isObject(defaults) ? defaults : undefined,
          problems,
        );
        shops.push({ name: shop, hooks });
      }
      groups.push({ stack, shops });
    }
  }
  if (problems.length > 0) {
    throw new FleetFileError(`${source}: invalid fleet:\n  ${[...new Set(problems)].join("\n  ")}`);
  }
  return {
    project: project as string,
    ...(typeof baseUrl === "string" ? { baseUrl } : {}),
    groups,
  };
}

/** Reads and checks a fleet file (`.json`, or YAML for any other extension). */
export function readFleetFile(path: string): Fleet {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new FleetFileError(`${path}: cannot be read (${(error as Error).message}); pass --fleet <file>`);
  }
  let raw: unknown;
  try {
    raw = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new FleetFileError(
      `${path}: not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message}`,
    );
  }
  return parseFleet(raw, path);
}

/**
 * Splits shops into `count` groups of near-equal size, in the order given (the first groups get one more
 * when it does not divide): `group-01`, `group-02`, ... A shop's group is part of its identity (its
 * resources live in that stack's state), so append new shops rather than re-splitting a deployed fleet.
 */
export function splitEvenly<T>(items: readonly T[], count: number): T[][] {
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`cannot split into ${count} groups; use 1 or more`);
  const groups: T[][] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const size = Math.floor(items.length / count) + (i < items.length % count ? 1 : 0);
    groups.push(items.slice(start, start + size));
    start += size;
  }
  return groups.filter((group) => group.length > 0);
}

/** The name of the `index`th (0-based) group of {@link splitEvenly}: `group-01`, `group-02`, ... */
export function groupName(index: number, total: number): string {
  return `group-${String(index + 1).padStart(Math.max(2, String(total).length), "0")}`;
}
