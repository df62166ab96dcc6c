/**
 * Targeted operations (`--target`, `--target-dependents`, `--exclude`): which resource a generated step
 * names, its URN, and what the engine steps under it. The engine steps only the targeted resources (with
 * `--exclude`, all others): an untargeted resource is neither created, diffed, read nor deleted, and its
 * state record stays as it was, so after `up --target X` a resource removed from the program stays in state.
 */
import { DYNAMIC_RESOURCE_TYPE } from "../../provider/resourceTypes";
import { pickName } from "./edits";
import type { DeclName, StackName, TargetedOperation, TargetMode } from "./model";

/** The Pulumi project name of the explorer's stacks. */
export const PROJECT = "explorer";

/** What a targeted operation steps: the resource it names, and how. */
export interface Scope {
  readonly mode: TargetMode;
  readonly name: DeclName;
}

/**
 * The resources a targeted `op` may name: those the state records (not pending deletion), and for an `up`
 * those the program declares (an `up --target` of a new resource creates it). Sorted, so a name's position
 * picks the same one on every replay.
 */
export function targetCandidates(
  op: TargetedOperation,
  recorded: readonly string[],
  declared: readonly DeclName[],
): DeclName[] {
  const names = new Set<string>([...recorded, ...(op === "up" ? declared : [])]);
  return [...names].sort() as DeclName[];
}

/** The resource a generated targeted step names among `candidates` (undefined: none, the step is skipped). */
export function resolveTarget(candidates: readonly DeclName[], name: DeclName): DeclName | undefined {
  return pickName(candidates, name);
}

/** Whether the engine steps resource `name` in an operation of `scope` (every resource when there is none). */
export function stepsUnder(scope: Scope | undefined, name: string): boolean {
  if (scope === undefined) return true;
  return scope.mode === "exclude" ? name !== scope.name : name === scope.name;
}

/** The URN of resource `name` of `stack` (a top-level WebhookSubscription of the explorer's project). */
function urnOf(stack: StackName, name: DeclName): string {
  return `urn:pulumi:${stack}::${PROJECT}::${DYNAMIC_RESOURCE_TYPE}::${name}`;
}

/** The Automation API options of `scope` for `stack.up`, `refresh` and `destroy` (none without a scope). */
export function scopeOptions(
  stack: StackName,
  scope: Scope | undefined,
): { target?: string[]; targetDependents?: boolean; exclude?: string[] } {
  if (scope === undefined) return {};
  const urn = urnOf(stack, scope.name);
  if (scope.mode === "exclude") return { exclude: [urn] };
  return { target: [urn], ...(scope.mode === "targetDependents" ? { targetDependents: true } : {}) };
}

/** How a scope reads in a log line: `--target sub-alpha`. */
export function describeScope(scope: Scope | undefined): string {
  if (scope === undefined) return "";
  if (scope.mode === "exclude") return ` --exclude ${scope.name}`;
  return ` --target ${scope.name}${scope.mode === "targetDependents" ? " --target-dependents" : ""}`;
}
