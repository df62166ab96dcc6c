/**
 * The explorer's vocabulary: the steps a team takes (program edits, config changes, back-office changes, a
 * second stack, simulator switches, faults, engine operations, targeted ones, a killed CLI) and the declared
 * world those steps build. Everything here is plain JSON so that a failing sequence prints as a replayable
 * command line. How a step changes a declaration is in edits.ts.
 */
import { HOOKS, type Hook } from "../../contract/hooks";

/** The two stacks of one exploration; both work on the same shops. */
const STACK_NAMES = ["one", "two"] as const;
/** A stack of the exploration. */
export type StackName = (typeof STACK_NAMES)[number];

/** The two services: two simulators, each with the same shops and keys (like staging and production). */
export const SERVICE_NAMES = ["main", "other"] as const;
/** A simulated Shipping service. */
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Shops and their read-write keys, identical on both services: acme has two keys, globex one. */
export const SHOP_KEYS = {
  acme1: { shop: "acme", key: "explorer-acme-key-one" },
  acme2: { shop: "acme", key: "explorer-acme-key-two" },
  globex: { shop: "globex", key: "explorer-globex-key" },
} as const;
/** A key of {@link SHOP_KEYS}. */
type KeyName = keyof typeof SHOP_KEYS;
/** Every key name. */
export const KEY_NAMES = Object.keys(SHOP_KEYS) as KeyName[];

/** How the base URL names the loopback host: the same service, spelled two ways. */
type Spelling = "ip" | "localhost";

/**
 * Resource names a program may use: a small pool, so edits often hit a declared resource; distinctive, so an
 * error message can be searched for them.
 */
export const RESOURCE_NAMES = ["sub-alpha", "sub-bravo", "sub-charlie", "sub-delta"] as const;
/** A resource name. */
type ResourceName = (typeof RESOURCE_NAMES)[number];

/**
 * The name of a declared resource: one of {@link RESOURCE_NAMES} in a program written in code, the hook
 * itself in a program that reads its hooks from stack config (as examples/from-config names them).
 */
export type DeclName = ResourceName | Hook;

/** Every name a step may carry, in a fixed order (a name's position picks a resource when it is not declared). */
export const DECL_NAMES: readonly DeclName[] = [...RESOURCE_NAMES, ...HOOKS];

/** Number of distinct valid callback URLs per kind (plain, secret). */
export const URL_CHOICES = 3;

/**
 * The callback URL number the service refuses (an uppercase letter, which the URL rule forbids): preview and
 * up must fail, naming the resource, and never print a secret one.
 */
export const REFUSED_URL = URL_CHOICES;

/** Callback URL number `n`; a secret one carries a token and is never declared in plain text. */
export function callbackUrl(n: number, secret: boolean): string {
  const kind = n === REFUSED_URL ? (secret ? "Secret" : "Plain") : secret ? "secret" : "plain";
  return secret
    ? `https://hooks.example.com/${kind}/${n}?token=tok-explorer-secret-${n}`
    : `https://hooks.example.com/${kind}/${n}`;
}

/** Every secret callback URL the explorer can declare, the refused one included (to scan for in plain text). */
export const SECRET_URLS: readonly string[] = Array.from({ length: URL_CHOICES + 1 }, (_, n) =>
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
  readonly name: DeclName;
  readonly hook: Hook;
  readonly url: number;
  readonly secret: boolean;
  readonly shop: ShopEntry;
  readonly deleteBeforeReplace: boolean;
  readonly retainOnDelete: boolean;
  /** `ignoreChanges: ["url"]`. */
  readonly ignoreUrl: boolean;
  readonly protect: boolean;
  /** The input `takeOver: true`: its create may overwrite a subscription made outside the stack. */
  readonly takeOver: boolean;
  /** The name this resource had before a rename with an alias. */
  readonly aliasOf?: DeclName;
}

/**
 * How a stack's program declares its hooks: in code (`new WebhookSubscription(name, ...)` per declaration,
 * with resource options), or from stack config as examples/from-config does (`<project>:hooks`, hook -> URL,
 * each set plain or with `pulumi config set --secret --path`; `<project>:shop` names one shop entry for all;
 * `hooksFromConfig` reads it and each resource is named by its hook, with no options).
 */
export type ProgramShape = "code" | "config";

/** A resource option the explorer toggles. */
export type ResourceOption = "deleteBeforeReplace" | "retainOnDelete" | "ignoreUrl" | "protect" | "takeOver";

/** An engine operation. */
export type Operation =
  | "preview"
  | "up"
  | "refresh"
  | "destroy"
  | "upRefresh"
  | "destroyRefresh"
  /** `up --continue-on-error`: the engine goes on past a failed step (a delete runs after a failed create). */
  | "upContinue";

/**
 * A fault armed on a service for the next engine operation only (cleared after it). The `after-post` ones
 * fall between a write and its read-back: every request passes until the first POST has arrived, then the
 * read-back of the written ids fails with 500 once, or every GET fails; `lost-post-then-500` applies every
 * POST and loses its answer, and the listing that would confirm it fails.
 */
export type FaultName =
  | "503-burst"
  | "reset-burst"
  | "drop-after-write"
  | "500-once"
  | "503-endless"
  | "500-after-post-once"
  | "500-after-post"
  | "lost-post-then-500"
  /** The first POST is held until its client gives up (2 s), then applied: a write answered late. */
  | "late-apply-post";

/** The operations that take `--target`, `--target-dependents` and `--exclude`. */
export type TargetedOperation = "up" | "refresh" | "destroy";

/**
 * How a targeted operation picks what it steps: `--target <urn>`, `--target <urn> --target-dependents`
 * (the explorer's resources depend on none of each other, so the same one), or `--exclude <urn>` (all
 * others). The engine steps only those: an untargeted resource is neither created, diffed, read nor deleted,
 * and its state record stays as it was (a resource removed from the program stays in state).
 */
export type TargetMode = "target" | "targetDependents" | "exclude";

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
      readonly name: DeclName;
      readonly hook: Hook;
      readonly url: number;
      readonly secret: boolean;
      readonly shop: ShopEntry;
    }
  | { readonly kind: "remove"; readonly stack: StackName; readonly name: DeclName }
  | { readonly kind: "setHook"; readonly stack: StackName; readonly name: DeclName; readonly hook: Hook }
  | {
      readonly kind: "setUrl";
      readonly stack: StackName;
      readonly name: DeclName;
      readonly url: number;
      readonly secret: boolean;
    }
  | {
      readonly kind: "setShop";
      readonly stack: StackName;
      readonly name: DeclName;
      readonly shop: ShopEntry;
    }
  | {
      readonly kind: "setOption";
      readonly stack: StackName;
      readonly name: DeclName;
      readonly option: ResourceOption;
      readonly value: boolean;
    }
  | {
      readonly kind: "rename";
      readonly stack: StackName;
      readonly name: DeclName;
      readonly to: DeclName;
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
  /** `name` is resolved against the stack's state and program when the step runs (see targets.ts). */
  | {
      readonly kind: "targeted";
      readonly stack: StackName;
      readonly op: TargetedOperation;
      readonly mode: TargetMode;
      readonly name: DeclName;
    }
  /** The program is rewritten in the other shape (see {@link ProgramShape}). */
  | { readonly kind: "shape"; readonly stack: StackName; readonly shape: ProgramShape }
  | { readonly kind: "kill"; readonly stack: StackName };

/** What one stack declares: its program and its shop entries. */
export interface StackDecl {
  readonly resources: readonly ResourceDecl[];
  readonly targets: Readonly<Record<ShopEntry, Target>>;
  /** Absent: `code`. */
  readonly shape?: ProgramShape;
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

/** The `<shop>#<hook>` pairs a stack declares under its current targets (a pinned entry: in the pinned shop). */
export function declaredPairs(decl: StackDecl): Set<string> {
  return new Set(decl.resources.map((r) => `${declaredShop(decl, r)}#${r.hook}`));
}
