/**
 * The explorer's vocabulary: the steps a team takes (program edits, config changes, back-office changes, a
 * second stack, simulator switches, faults, engine operations, a killed CLI) and the declared world those
 * steps build. Everything here is plain JSON so that a failing sequence prints as a replayable command line.
 */

/** The two stacks of one exploration; both work on the same shops. */
export const STACK_NAMES = ["one", "two"] as const;
/** A stack of the exploration. */
export type StackName = (typeof STACK_NAMES)[number];

/** The two services: two simulators, each with the same shops and keys (like staging and production). */
export const SERVICE_NAMES = ["main", "other"] as const;
/** A simulated Shipping service. */
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** The three hooks of the API. */
export const HOOKS = ["order_status_change", "shipment_status_change", "shipment_label_created"] as const;
/** A hook of the API. */
export type Hook = (typeof HOOKS)[number];

/** Shops and their read-write keys, identical on both services: acme has two keys, globex one. */
export const SHOP_KEYS = {
  acme1: { shop: "acme", key: "explorer-acme-key-one" },
  acme2: { shop: "acme", key: "explorer-acme-key-two" },
  globex: { shop: "globex", key: "explorer-globex-key" },
} as const;
/** A key of {@link SHOP_KEYS}. */
export type KeyName = keyof typeof SHOP_KEYS;
/** Every key name. */
export const KEY_NAMES = Object.keys(SHOP_KEYS) as KeyName[];

/** How the base URL names the loopback host: the same service, spelled two ways. */
export type Spelling = "ip" | "localhost";

/**
 * Resource names a program may use: a small pool, so edits often hit a declared resource; distinctive, so an
 * error message can be searched for them.
 */
export const RESOURCE_NAMES = ["sub-alpha", "sub-bravo", "sub-charlie", "sub-delta"] as const;
/** A resource name. */
export type ResourceName = (typeof RESOURCE_NAMES)[number];

/** Number of distinct callback URLs per kind (plain, secret). */
export const URL_CHOICES = 3;

/** Callback URL number `n`; a secret one carries a token and is never declared in plain text. */
export function callbackUrl(n: number, secret: boolean): string {
  return secret
    ? `https://hooks.example.com/secret/${n}?token=tok-explorer-secret-${n}`
    : `https://hooks.example.com/plain/${n}`;
}

/** Every secret callback URL the explorer can declare (to scan for at rest). */
export const SECRET_URLS: readonly string[] = Array.from({ length: URL_CHOICES }, (_, n) =>
  callbackUrl(n, true),
);

/** URL a back-office (out-of-band) change points a hook at. */
export function backOfficeUrl(n: number): string {
  return `https://backoffice.example.com/hook/${n}`;
}

/** A shop of {@link SHOP_KEYS}. */
export type ShopName = (typeof SHOP_KEYS)[KeyName]["shop"];

/** Where a shop entry of a stack points: which service, spelled how, with which key. */
export interface Target {
  readonly service: ServiceName;
  readonly spelling: Spelling;
  readonly key: KeyName;
  /** The shop the entry is pinned to (`shipping:shopId`), kept across key and service changes. */
  readonly pin?: ShopName;
}

/** Which credentials a resource uses: the default shop (`shipping:apiKey`) or the `shipping:shops` entry. */
export type ShopEntry = "default" | "alt";

/** Name of the one `shipping:shops` entry the explorer uses. */
export const ALT_SHOP_ENTRY = "alt";

/** A resource as the program declares it. */
export interface ResourceDecl {
  readonly name: ResourceName;
  readonly hook: Hook;
  readonly url: number;
  readonly secret: boolean;
  readonly shop: ShopEntry;
  readonly deleteBeforeReplace: boolean;
  readonly retainOnDelete: boolean;
  /** `ignoreChanges: ["url"]`. */
  readonly ignoreUrl: boolean;
  readonly protect: boolean;
  /** The name this resource had before a rename with an alias. */
  readonly aliasOf?: ResourceName;
}

/** A resource option the explorer toggles. */
export type ResourceOption = "deleteBeforeReplace" | "retainOnDelete" | "ignoreUrl" | "protect";

/** An engine operation. */
export type Operation = "preview" | "up" | "refresh" | "destroy" | "upRefresh" | "destroyRefresh";

/** A fault armed on a service for the next engine operation only (cleared after it). */
export type FaultName = "503-burst" | "reset-burst" | "drop-after-write" | "500-once" | "503-endless";

/** A simulator switch change. */
export type SwitchPatch =
  | { readonly overwrite: "keep-id" | "new-id" }
  | { readonly partialIds: "subset" | "404" }
  | { readonly deleteCheckOrder: "ownership" | "existence" }
  | { readonly shopFields: "listed" | "omitted" }
  | { readonly getStatus: 200 | 201 }
  | { readonly authScheme: "basic" | "bearer" | "both" };

/** One step of an exploration. */
export type Step =
  | {
      readonly kind: "add";
      readonly stack: StackName;
      readonly name: ResourceName;
      readonly hook: Hook;
      readonly url: number;
      readonly secret: boolean;
      readonly shop: ShopEntry;
    }
  | { readonly kind: "remove"; readonly stack: StackName; readonly name: ResourceName }
  | { readonly kind: "setHook"; readonly stack: StackName; readonly name: ResourceName; readonly hook: Hook }
  | {
      readonly kind: "setUrl";
      readonly stack: StackName;
      readonly name: ResourceName;
      readonly url: number;
      readonly secret: boolean;
    }
  | {
      readonly kind: "setShop";
      readonly stack: StackName;
      readonly name: ResourceName;
      readonly shop: ShopEntry;
    }
  | {
      readonly kind: "setOption";
      readonly stack: StackName;
      readonly name: ResourceName;
      readonly option: ResourceOption;
      readonly value: boolean;
    }
  | {
      readonly kind: "rename";
      readonly stack: StackName;
      readonly name: ResourceName;
      readonly to: ResourceName;
      readonly alias: boolean;
    }
  | { readonly kind: "config"; readonly stack: StackName; readonly entry: ShopEntry; readonly target: Target }
  /** Pins an entry to the shop its key reaches now, or removes the pin. */
  | { readonly kind: "pin"; readonly stack: StackName; readonly entry: ShopEntry; readonly on: boolean }
  | {
      readonly kind: "outOfBand";
      readonly service: ServiceName;
      readonly key: KeyName;
      readonly action: "delete" | "repoint" | "create";
      readonly hook: Hook;
      readonly url: number;
    }
  | { readonly kind: "switch"; readonly service: ServiceName; readonly patch: SwitchPatch }
  | { readonly kind: "fault"; readonly service: ServiceName; readonly fault: FaultName }
  | { readonly kind: "operation"; readonly stack: StackName; readonly op: Operation }
  | { readonly kind: "kill"; readonly stack: StackName };

/** What one stack declares: its program and its shop entries. */
export interface StackDecl {
  readonly resources: readonly ResourceDecl[];
  readonly targets: Readonly<Record<ShopEntry, Target>>;
}

/** The default targets of a fresh stack: both entries on acme, main service, first key. */
export const INITIAL_TARGETS: Readonly<Record<ShopEntry, Target>> = {
  default: { service: "main", spelling: "ip", key: "acme1" },
  alt: { service: "main", spelling: "ip", key: "globex" },
};

/** A fresh stack: nothing declared. */
export function emptyStack(): StackDecl {
  return { resources: [], targets: INITIAL_TARGETS };
}

/** The real shop a target reaches, independent of spelling and key: `<service>/<shop>`. */
export function realShop(target: Target): string {
  return `${target.service}/${SHOP_KEYS[target.key].shop}`;
}

/** The real shop a resource of `stack` reaches. */
export function resourceShop(stack: StackDecl, resource: ResourceDecl): string {
  return realShop(stack.targets[resource.shop]);
}

/**
 * The real shop a resource of `stack` declares itself for: the pinned shop when its entry is pinned (a key
 * that reaches another shop must not write there), else the shop its key reaches.
 */
export function declaredShop(stack: StackDecl, resource: ResourceDecl): string {
  const target = stack.targets[resource.shop];
  return target.pin === undefined ? realShop(target) : `${target.service}/${target.pin}`;
}

/** Declarations of one stack that reach the same real shop and hook as an earlier one. */
export function duplicateDeclarations(stack: StackDecl): ResourceDecl[] {
  const seen = new Set<string>();
  const duplicates: ResourceDecl[] = [];
  for (const r of stack.resources) {
    const key = `${resourceShop(stack, r)}#${r.hook}`;
    if (seen.has(key)) duplicates.push(r);
    seen.add(key);
  }
  return duplicates;
}

/**
 * The step with its resource names resolved against what `stack` declares, so that generated edits mostly
 * apply: an edit of an undeclared name edits a declared resource instead (chosen by the name's position),
 * an add or a rename onto a used name takes the first free name. The resolved step is what is reported and
 * replayed.
 */
export function resolveNames(stack: StackDecl, step: Step): Step {
  const declared = stack.resources.map((r) => r.name);
  const free = RESOURCE_NAMES.find((n) => !declared.includes(n));
  if (step.kind === "add")
    return declared.includes(step.name) && free !== undefined ? { ...step, name: free } : step;
  if (!("name" in step)) return step;
  const name =
    declared.length === 0 || declared.includes(step.name)
      ? step.name
      : (declared[RESOURCE_NAMES.indexOf(step.name) % declared.length] as ResourceName);
  if (step.kind === "rename") {
    return { ...step, name, ...(declared.includes(step.to) && free !== undefined ? { to: free } : {}) };
  }
  return name === step.name ? step : { ...step, name };
}

/** Whether two resources of the program name the same shop entry and hook (the program itself refuses that). */
function sameEntryTwice(stack: StackDecl): boolean {
  const keys = stack.resources.map((r) => `${r.shop}#${r.hook}`);
  return new Set(keys).size !== keys.length;
}

/**
 * Applies a program or config step to a stack's declaration; undefined when the step does not apply (an
 * unknown name, an add or a rename onto a name in use or kept as an alias, an edit that makes the program declare one entry's hook twice,
 * which the program refuses before any engine step and would block every later step): such a step is
 * skipped, which keeps shrinking simple. Two entries that reach the same shop are allowed: that is for the
 * provider to refuse.
 */
export function applyEdit(stack: StackDecl, step: Step): StackDecl | undefined {
  const next = edited(stack, step);
  return next !== undefined && !sameEntryTwice(next) ? next : undefined;
}

function edited(stack: StackDecl, step: Step): StackDecl | undefined {
  const find = (name: ResourceName) => stack.resources.find((r) => r.name === name);
  // A name another resource keeps as its alias is taken too: the engine refuses a resource whose URN is
  // another's alias ("Duplicate resource URN ... conflicting with alias"), a program error, not the provider's.
  const taken = (name: ResourceName) =>
    find(name) !== undefined || stack.resources.some((r) => r.aliasOf === name);
  const replace = (name: ResourceName, next: ResourceDecl): StackDecl => ({
    ...stack,
    resources: stack.resources.map((r) => (r.name === name ? next : r)),
  });
  switch (step.kind) {
    case "add": {
      if (taken(step.name)) return undefined;
      const { name, hook, url, secret, shop } = step;
      const fresh: ResourceDecl = {
        name,
        hook,
        url,
        secret,
        shop,
        deleteBeforeReplace: false,
        retainOnDelete: false,
        ignoreUrl: false,
        protect: false,
      };
      return { ...stack, resources: [...stack.resources, fresh] };
    }
    case "remove":
      return find(step.name) === undefined
        ? undefined
        : { ...stack, resources: stack.resources.filter((r) => r.name !== step.name) };
    case "setHook":
    case "setUrl":
    case "setShop":
    case "setOption": {
      const found = find(step.name);
      if (found === undefined) return undefined;
      if (step.kind === "setHook")
        return found.hook === step.hook ? undefined : replace(step.name, { ...found, hook: step.hook });
      if (step.kind === "setShop")
        return found.shop === step.shop ? undefined : replace(step.name, { ...found, shop: step.shop });
      if (step.kind === "setUrl") {
        if (found.url === step.url && found.secret === step.secret) return undefined;
        return replace(step.name, { ...found, url: step.url, secret: step.secret });
      }
      if (found[step.option] === step.value) return undefined;
      return replace(step.name, { ...found, [step.option]: step.value });
    }
    case "rename": {
      const found = find(step.name);
      if (found === undefined || taken(step.to)) return undefined;
      const { aliasOf: _previousAlias, ...rest } = found;
      return replace(step.name, { ...rest, name: step.to, ...(step.alias ? { aliasOf: step.name } : {}) });
    }
    case "config": {
      const current = stack.targets[step.entry];
      const same =
        current.service === step.target.service &&
        current.spelling === step.target.spelling &&
        current.key === step.target.key;
      const { pin: _generated, ...target } = step.target;
      const next: Target = { ...target, ...(current.pin !== undefined ? { pin: current.pin } : {}) };
      return same ? undefined : { ...stack, targets: { ...stack.targets, [step.entry]: next } };
    }
    case "pin": {
      const { pin: _old, ...current } = stack.targets[step.entry];
      const pin = step.on ? SHOP_KEYS[current.key].shop : undefined;
      if (pin === stack.targets[step.entry].pin) return undefined;
      const next: Target = { ...current, ...(pin !== undefined ? { pin } : {}) };
      return { ...stack, targets: { ...stack.targets, [step.entry]: next } };
    }
    default:
      return undefined;
  }
}
