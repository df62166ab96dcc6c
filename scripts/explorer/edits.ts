/**
 * How program and config steps change what a stack declares (model.ts holds the vocabulary): edits of a
 * program written in code, of one that reads its hooks from stack config, and the rewrite from one shape to
 * the other.
 */
import {
  DECL_NAMES,
  type DeclName,
  RESOURCE_NAMES,
  type ResourceDecl,
  resourceShop,
  SHOP_KEYS,
  type ShopEntry,
  type StackDecl,
  type Step,
  type Target,
} from "./model";

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

/** `name` if it is in `names`, else the one of `names` its position in {@link DECL_NAMES} picks. */
export function pickName(names: readonly DeclName[], name: DeclName): DeclName | undefined {
  if (names.length === 0) return undefined;
  return names.includes(name) ? name : names[DECL_NAMES.indexOf(name) % names.length];
}

/**
 * The step with its resource names resolved against what `stack` declares, so that generated edits mostly
 * apply: an edit of an undeclared name edits a declared resource instead (chosen by the name's position),
 * an add or a rename onto a used name takes the first free name; in a program that reads its hooks from
 * config, an added resource is named by its hook. The resolved step is what is reported and replayed.
 */
export function resolveNames(stack: StackDecl, step: Step): Step {
  const declared = stack.resources.map((r) => r.name);
  const free = RESOURCE_NAMES.find((n) => !declared.includes(n));
  if (step.kind === "add") {
    if (stack.shape === "config") return step.name === step.hook ? step : { ...step, name: step.hook };
    return declared.includes(step.name) && free !== undefined ? { ...step, name: free } : step;
  }
  if (step.kind === "targeted" || !("name" in step)) return step;
  const name = pickName(declared, step.name) ?? step.name;
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
 * unknown name, an add or a rename onto a name in use or kept as an alias, an edit that makes the program
 * declare one entry's hook twice, which the program refuses before any engine step and would block every
 * later step; in a program that reads config, a resource option, a rename, or removing the last hook, which
 * `hooksFromConfig` refuses as missing config): such a step is skipped, which keeps shrinking simple. Two
 * entries that reach the same shop are allowed: that is for the provider to refuse.
 */
export function applyEdit(stack: StackDecl, step: Step): StackDecl | undefined {
  const next = stack.shape === "config" ? editedConfig(stack, step) : edited(stack, step);
  return next !== undefined && !sameEntryTwice(next) ? next : undefined;
}

/** A fresh declaration of a hook, with no resource option. */
function fresh(name: DeclName, decl: Pick<ResourceDecl, "hook" | "url" | "secret" | "shop">): ResourceDecl {
  const { hook, url, secret, shop } = decl;
  return {
    name,
    hook,
    url,
    secret,
    shop,
    deleteBeforeReplace: false,
    retainOnDelete: false,
    ignoreUrl: false,
    protect: false,
    takeOver: false,
  };
}

/**
 * The program rewritten to read its hooks from config: each resource renamed to its hook, without an alias
 * (examples/from-config has none) and without options; undefined when two resources declare one hook or
 * the resources use two shop entries (config names one shop for all), or nothing is declared.
 */
function toConfigShape(stack: StackDecl): StackDecl | undefined {
  const { resources } = stack;
  const hooks = new Set(resources.map((r) => r.hook));
  const shops = new Set(resources.map((r) => r.shop));
  if (resources.length === 0 || hooks.size !== resources.length || shops.size !== 1) return undefined;
  return { ...stack, shape: "config", resources: resources.map((r) => fresh(r.hook, r)) };
}

/** The shop entry `<project>:shop` names for every hook of a program that reads config. */
function configShop(stack: StackDecl): ShopEntry {
  return stack.resources[0]?.shop ?? "default";
}

function editedConfig(stack: StackDecl, step: Step): StackDecl | undefined {
  const find = (name: DeclName) => stack.resources.find((r) => r.name === name);
  const others = (name: DeclName) => stack.resources.filter((r) => r.name !== name);
  switch (step.kind) {
    case "shape":
      return step.shape === "code" ? { ...stack, shape: "code" } : undefined;
    case "add":
      if (find(step.hook) !== undefined) return undefined;
      return {
        ...stack,
        resources: [...stack.resources, fresh(step.hook, { ...step, shop: configShop(stack) })],
      };
    case "remove":
      return find(step.name) === undefined || stack.resources.length === 1
        ? undefined
        : { ...stack, resources: others(step.name) };
    case "setHook": {
      // The config key is the hook: another hook is another resource, its old one deleted.
      const found = find(step.name);
      if (found === undefined || find(step.hook) !== undefined) return undefined;
      const moved = fresh(step.hook, { ...found, hook: step.hook });
      return { ...stack, resources: stack.resources.map((r) => (r.name === step.name ? moved : r)) };
    }
    case "setShop":
      if (find(step.name) === undefined || configShop(stack) === step.shop) return undefined;
      return { ...stack, resources: stack.resources.map((r) => ({ ...r, shop: step.shop })) };
    case "setOption":
    case "rename":
      return undefined;
    default:
      return edited(stack, step);
  }
}

function edited(stack: StackDecl, step: Step): StackDecl | undefined {
  const find = (name: DeclName) => stack.resources.find((r) => r.name === name);
  // A name another resource keeps as its alias is taken too: the engine refuses a resource whose URN is
  // another's alias ("Duplicate resource URN ... conflicting with alias"), a program error, not the provider's.
  const taken = (name: DeclName) =>
    find(name) !== undefined || stack.resources.some((r) => r.aliasOf === name);
  const replace = (name: DeclName, next: ResourceDecl): StackDecl => ({
    ...stack,
    resources: stack.resources.map((r) => (r.name === name ? next : r)),
  });
  switch (step.kind) {
    case "shape":
      return step.shape === "config" ? toConfigShape(stack) : undefined;
    case "add":
      return taken(step.name)
        ? undefined
        : { ...stack, resources: [...stack.resources, fresh(step.name, step)] };
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
