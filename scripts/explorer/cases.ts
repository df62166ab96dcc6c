/**
 * Explorer sequences that broke an invariant of an earlier provider, each the shortest that did: secret and
 * re-pointed URLs, shops and keys swapped under a stack, replacements, keep-id (the targeted steps, secret
 * config URLs and failed read-backs are in casesTargetedSecretReadBack.ts). `npm run explore -- --cases`
 * replays them all (each must pass on the provider as it is); `--replay` runs any one of them.
 */
import type { Hook } from "../../contract/hooks";
import type { DeclName, ShopEntry, StackName, Step, Target } from "./model";

/** Hooks, short. */
export const ORDERS: Hook = "order_status_change";
/** Hooks, short. */
export const SHIPMENTS: Hook = "shipment_status_change";
/** Hooks, short. */
export const LABELS: Hook = "shipment_label_created";

/** An add step (default shop entry, plain URL unless told). */
export function add(
  stack: StackName,
  name: DeclName,
  hook: Hook,
  url: number,
  shop: ShopEntry = "default",
  secret = false,
): Step {
  return { kind: "add", stack, name, hook, url, secret, shop };
}

/** A full operation step. */
export function op(stack: StackName, operation: Extract<Step, { kind: "operation" }>["op"]): Step {
  return { kind: "operation", stack, op: operation };
}

/** A config step: a shop entry's service, spelling and key. */
function config(stack: StackName, entry: ShopEntry, target: Target): Step {
  return { kind: "config", stack, entry, target };
}

/** One named sequence. */
export interface NamedCase {
  readonly name: string;
  readonly steps: readonly Step[];
}

/**
 * Sequences that each once broke an invariant, numbered (2 has two faces: the silent up, and refresh adopting
 * a foreign id); `--only` picks them by name.
 */
export const REGRESSION_CASES: readonly NamedCase[] = [
  {
    name: "1 secret URL changed: the old one in plain text (state, backups, history, output previous.url)",
    steps: [
      add("one", "sub-alpha", ORDERS, 0, "default", true),
      op("one", "up"),
      { kind: "setUrl", stack: "one", name: "sub-alpha", url: 1, secret: true },
      op("one", "up"),
    ],
  },
  {
    name: "2a base URL re-pointed to another service: up reports success, the hook is not subscribed there",
    steps: [
      add("one", "sub-alpha", ORDERS, 0),
      op("one", "up"),
      config("one", "default", { service: "other", spelling: "ip", key: "acme1" }),
      op("one", "up"),
    ],
  },
  {
    name: "2b base URL re-pointed: refresh writes another service's subscription with the same id into state",
    steps: [
      add("one", "sub-alpha", ORDERS, 0),
      op("one", "up"),
      { kind: "outOfBand", service: "other", key: "acme1", action: "create", hook: SHIPMENTS, url: 0 },
      config("one", "default", { service: "other", spelling: "ip", key: "acme1" }),
      op("one", "refresh"),
    ],
  },
  {
    name: "3 resource moved to a shop entry that is the same shop (other key, localhost): the hook is deleted",
    steps: [
      config("one", "alt", { service: "main", spelling: "localhost", key: "acme2" }),
      add("one", "sub-alpha", ORDERS, 0),
      op("one", "up"),
      { kind: "setShop", stack: "one", name: "sub-alpha", shop: "alt" },
      op("one", "up"),
    ],
  },
  {
    name: "4 deleteBeforeReplace after another create of the shop: create adopts the id just deleted",
    steps: [
      config("one", "alt", { service: "main", spelling: "ip", key: "acme1" }),
      add("one", "sub-bravo", SHIPMENTS, 0),
      add("one", "sub-alpha", ORDERS, 0),
      op("one", "up"),
      { kind: "setOption", stack: "one", name: "sub-alpha", option: "deleteBeforeReplace", value: true },
      { kind: "rename", stack: "one", name: "sub-bravo", to: "sub-charlie", alias: false },
      { kind: "setShop", stack: "one", name: "sub-alpha", shop: "alt" },
      op("one", "up"),
    ],
  },
  {
    name: "5 two stacks, keep-id: destroy --refresh of the first deletes the second's subscription",
    steps: [
      { kind: "switch", service: "main", patch: { overwrite: "keep-id" } },
      add("one", "sub-alpha", ORDERS, 0),
      op("one", "up"),
      add("two", "sub-alpha", ORDERS, 1),
      op("two", "up"),
      op("one", "destroyRefresh"),
    ],
  },
  {
    name: "6 default shop and a shops entry with the same key both declare a hook: up accepts it",
    steps: [
      config("one", "alt", { service: "main", spelling: "ip", key: "acme1" }),
      add("one", "sub-alpha", ORDERS, 0),
      add("one", "sub-bravo", ORDERS, 1, "alt"),
      op("one", "up"),
    ],
  },
  {
    name: "7 partial id lists answered 404: destroy after one out-of-band delete orphans the rest",
    steps: [
      { kind: "switch", service: "main", patch: { partialIds: "404" } },
      add("one", "sub-alpha", ORDERS, 0),
      add("one", "sub-bravo", SHIPMENTS, 0),
      op("one", "up"),
      { kind: "outOfBand", service: "main", key: "acme1", action: "delete", hook: ORDERS, url: 0 },
      op("one", "destroy"),
    ],
  },
  {
    name: "8 up --refresh then destroy --refresh: destroy leaves the subscription",
    steps: [
      add("one", "sub-bravo", LABELS, 1, "default", true),
      op("one", "upRefresh"),
      op("one", "destroyRefresh"),
    ],
  },
  {
    name: "9 a shop entry's key swapped to another shop with no subscription: up succeeds, hook unsubscribed",
    steps: [
      add("one", "sub-bravo", ORDERS, 1, "alt", true),
      op("one", "up"),
      config("one", "alt", { service: "main", spelling: "localhost", key: "acme1" }),
      op("one", "up"),
    ],
  },
  {
    name: "10 a key swapped to an empty shop, then destroy --refresh: the old subscription stayed (the service is now asked: a DELETE of the unlisted id answers 403 for another shop's)",
    steps: [
      add("one", "sub-charlie", SHIPMENTS, 0, "alt"),
      op("one", "up"),
      config("one", "alt", { service: "main", spelling: "ip", key: "acme1" }),
      op("one", "preview"),
      op("one", "destroyRefresh"),
    ],
  },
  {
    name: "11 a pinned shop's key swapped to another shop's, then a rename without an alias: its create took over that shop's subscription of the hook before any step saw the swap (now refused at check, before any write)",
    steps: [
      add("one", "sub-alpha", ORDERS, 0),
      { kind: "pin", stack: "one", entry: "default", on: true },
      op("one", "up"),
      { kind: "outOfBand", service: "main", key: "globex", action: "create", hook: ORDERS, url: 0 },
      config("one", "default", { service: "main", spelling: "ip", key: "globex" }),
      { kind: "rename", stack: "one", name: "sub-alpha", to: "sub-bravo", alias: false },
      op("one", "up"),
    ],
  },
  {
    name: "12 a hook handed on by a resource moved to another shop, to a new resource the engine checks first: the new one is refused before any write, naming the order and the way out",
    steps: [
      add("one", "sub-charlie", ORDERS, 2),
      op("one", "up"),
      { kind: "setShop", stack: "one", name: "sub-charlie", shop: "alt" },
      add("one", "sub-bravo", LABELS, 1),
      { kind: "targeted", stack: "one", op: "refresh", mode: "exclude", name: "sub-charlie" },
      add("one", "sub-alpha", ORDERS, 2, "default", true),
      op("one", "up"),
    ],
  },
];
