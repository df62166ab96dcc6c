/**
 * One engine operation of a stack (full or targeted, or a SIGKILLed `up`) and every invariant checked after
 * it: the ledger's, the secrets', the sync's, the destroy's, and those of verdicts.ts.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { pulumiCliRoot } from "../lib/pulumiCli";
import { withDeadline } from "../lib/stacks";
import {
  declaredHooksLive,
  declaredUrl,
  firstError,
  secretsAtRest,
  secretsIn,
  secretsInOutputs,
  secretsInStackConfig,
} from "./checks";
import { duplicateDeclarations } from "./edits";
import {
  type ExplorerStack,
  killDuringUp,
  OPERATION_DEADLINE_MS,
  type OperationResult,
  plainExport,
  runOperation,
} from "./engine";
import { type ArmedFault, explainFailure } from "./failureAccount";
import { allSubs, changesBetween, type Ledger, type LiveSub, type StateRecord } from "./ledger";
import {
  declaredPairs,
  declaredShop,
  type Operation,
  realShop,
  type ShopEntry,
  type StackDecl,
  type StackName,
  type TargetedOperation,
} from "./model";
import type { Services } from "./services";
import { checkpointFile, readCheckpoint, subscriptionRecords } from "./stateFiles";
import { PROJECT, resolveTarget, type Scope, scopeOptions, stepsUnder, targetCandidates } from "./targets";
import {
  continueKeepsDeclared,
  destroyable,
  leftByKill,
  type OperationFacts,
  recordsKeptLive,
  untargetedUntouched,
  writesRecorded,
} from "./verdicts";

/** What the world knows of one stack between steps. */
export interface StackRuntime {
  decl: StackDecl;
  handle?: ExplorerStack;
  /** Someone else changed one of its declared hooks since its last refresh. */
  dirty: boolean;
  /** The real shop of each entry when its last successful full operation ran. */
  lastShops?: Record<ShopEntry, string>;
  /** Secret URLs were declared at some point (then a plain export is scanned after each `up`). */
  declaredSecrets: boolean;
  /** The stack config last set (a program that reads its hooks from config). */
  config: ConfigMap;
}

/** What an operation needs of the world. */
export interface OperationContext {
  readonly stack: Stack;
  readonly name: StackName;
  readonly runtime: StackRuntime;
  readonly services: Services;
  readonly ledger: Ledger;
  readonly runDir: string;
  /** Faults armed for this operation (cleared after it). */
  readonly faults: readonly ArmedFault[];
  readonly passphrase: string;
  /** Called when the operation is run again after a transport failure with no effect. */
  readonly onTransportRetry: () => void;
}

/** How an operation ended, as the world needs it. */
interface OperationOutcome {
  readonly violations: readonly string[];
  readonly note: string;
  /** The `<shop>#<hook>` pairs it changed. */
  readonly touched: readonly string[];
  /** The resolved scope of a targeted operation. */
  readonly scope?: Scope;
}

function checkpointHash(file: string): string {
  return existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : "none";
}

/** The declaration with only the resources `scope` steps. */
function stepped(decl: StackDecl, scope: Scope | undefined): StackDecl {
  return { ...decl, resources: decl.resources.filter((r) => stepsUnder(scope, r.name)) };
}

function shopsOf(decl: StackDecl): Record<ShopEntry, string> {
  return { default: realShop(decl.targets.default), alt: realShop(decl.targets.alt) };
}

/** A state record may adopt a live subscription where the program declares that hook and URL. */
function adoptable(decl: StackDecl, record: StateRecord, sub: LiveSub): boolean {
  const resource = decl.resources.find((r) => r.name === record.name);
  if (resource === undefined || declaredShop(decl, resource) !== sub.shop || resource.hook !== sub.hook)
    return false;
  return resource.ignoreUrl || declaredUrl(resource) === sub.url;
}

/**
 * Runs `op` (targeted at `requested`, resolved against the stack's state and program) and checks it;
 * undefined when a targeted operation has no resource to name (nothing ran, no fault was armed).
 */
export async function operate(
  ctx: OperationContext,
  op: Operation | "kill",
  requested?: Scope,
): Promise<OperationOutcome | undefined> {
  const { stack, name, runtime, services, ledger } = ctx;
  const file = checkpointFile(join(ctx.runDir, "backend"), PROJECT, name);
  const checkpointBefore = readCheckpoint(file, ctx.passphrase);
  const recordsBefore = subscriptionRecords(checkpointBefore);
  let scope: Scope | undefined;
  if (requested !== undefined) {
    const candidates = targetCandidates(
      op as TargetedOperation,
      recordsBefore.map((r) => r.name),
      runtime.decl.resources.map((r) => r.name),
    );
    const target = resolveTarget(candidates, requested.name);
    if (target === undefined) return undefined;
    scope = { mode: requested.mode, name: target };
  }
  for (const f of ctx.faults) services.armFault(f.service, f.fault);
  const before = services.snapshot();
  const writesBefore = services.writeCount();
  const hashBefore = checkpointHash(file);
  const started = Date.now();
  let result: OperationResult;
  let killed = false;
  if (op === "kill") {
    ({ killed, result } = await killDuringUp(
      stack,
      pulumiCliRoot(),
      () => services.writeCount() > writesBefore,
    ));
    // After a SIGKILL the file backend keeps the dead update's lock; `pulumi cancel` removes it (for a
    // `file://` backend it deletes the stack's lock files), as the README's troubleshooting says.
    if (killed) await withDeadline(stack.cancel(), OPERATION_DEADLINE_MS, `pulumi cancel of ${stack.name}`);
  } else {
    const targeting = scopeOptions(name, scope);
    result = await runOperation(stack, op, targeting);
    // The CLI and the inline program lost their gRPC connection before anything happened: no API write,
    // state untouched. The attempt had no effect, so it is run again once (and counted, not hidden). The
    // cause seen so far, a pooled connection to an earlier engine's port, is gone since openStack isolates
    // inline-program connections (provider/program/inlineProgramConnections.ts): the count should stay 0.
    if (
      !result.ok &&
      /14 UNAVAILABLE: No connection established/.test(result.text) &&
      services.writeCount() === writesBefore &&
      checkpointHash(file) === hashBefore
    ) {
      ctx.onTransportRetry();
      result = await runOperation(stack, op, targeting);
    }
  }
  services.clearFaults();
  await services.settleLateWrites();
  const after = services.snapshot();
  const checkpointAfter = readCheckpoint(file, ctx.passphrase);
  const records = subscriptionRecords(checkpointAfter);
  const pendingAfter = subscriptionRecords(checkpointAfter, true);
  const changes = changesBetween(before, after);
  const facts: OperationFacts = {
    stack: name,
    op,
    scope,
    killed,
    result,
    before,
    after,
    changes,
    recordsBefore,
    records,
    pendingAfter,
  };
  const decl = runtime.decl;
  const steppedDecl = stepped(decl, scope);
  const violations: string[] = [];
  const writing = op === "up" || op === "upRefresh" || op === "upContinue" || op === "kill";
  const isDestroy = op === "destroy" || op === "destroyRefresh";

  if (op === "preview") {
    if (services.writeCount() !== writesBefore || changes.length > 0)
      violations.push("preview wrote to the API");
    if (checkpointHash(file) !== hashBefore) violations.push("preview changed the state file");
  }
  const mustGo = isDestroy && result.ok ? destroyable(ledger, name, scope, before, recordsBefore) : [];
  const declared = writing ? declaredPairs(steppedDecl) : new Set<string>();
  if (killed) for (const pair of leftByKill(steppedDecl, before, changes)) declared.add(pair);
  violations.push(...ledger.recordStackChanges(name, declared, changes));
  for (const sub of mustGo) {
    if (allSubs(after).some((s) => s.shop === sub.shop && s.id === sub.id && s.url === sub.url))
      violations.push(
        `destroy of ${name} succeeded but left ${sub.shop} id ${sub.id} ${sub.hook} ${sub.url}, which it wrote`,
      );
  }
  const released = new Set(
    recordsBefore.filter((r) => r.retainOnDelete && !records.some((n) => n.name === r.name)).map((r) => r.id),
  );
  violations.push(
    ...ledger.reconcileState(
      name,
      records,
      after,
      (record, sub) => adoptable(decl, record, sub),
      released,
      pendingAfter,
    ),
  );
  const duplicates = duplicateDeclarations(steppedDecl);
  if (result.ok && writing && duplicates.length > 0) {
    violations.push(
      `up accepted two declarations of one shop's hook: ${duplicates.map((d) => `${d.name} (${d.hook})`).join(", ")}`,
    );
  }
  // Invariant 1 holds after a full sync only: a targeted `up` leaves the others as they were.
  const synced =
    scope === undefined &&
    (op === "upRefresh" || (op === "up" && !runtime.dirty && checkpointBefore.pendingOperations === 0));
  if (result.ok && synced && duplicateDeclarations(decl).length === 0) {
    violations.push(...declaredHooksLive(decl, records, after));
  }
  violations.push(
    ...recordsKeptLive(facts),
    ...untargetedUntouched(facts, decl),
    ...continueKeepsDeclared(facts, steppedDecl),
  );
  if (writing) violations.push(...writesRecorded(facts));
  violations.push(
    ...secretsAtRest(join(ctx.runDir, "backend")),
    ...secretsInStackConfig(join(ctx.runDir, "project")),
    ...secretsIn(result.text, `the output of ${op}`),
    ...secretsInOutputs(result.outputs),
  );
  if (result.ok && writing && runtime.declaredSecrets) {
    violations.push(...secretsIn(await plainExport(stack), "a plain stack export"));
  }
  if (!result.ok && !killed) {
    const shops = { now: shopsOf(decl), last: runtime.lastShops };
    violations.push(...explainFailure(facts, decl, shops, ctx.faults));
  }
  if (result.ok && op !== "preview" && scope === undefined) {
    if (op === "refresh" || op === "upRefresh" || isDestroy) runtime.dirty = false;
    runtime.lastShops = shopsOf(decl);
  } else if (result.ok && writing && scope !== undefined) {
    // A targeted up records its resources under today's shops: a later change of target concerns them too.
    runtime.lastShops ??= shopsOf(decl);
  }
  const seconds = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const outcome = killed ? "killed" : result.ok ? "ok" : `failed: ${firstError(result.text)}`;
  return {
    violations,
    note: `${outcome} (${seconds})`,
    touched: changes.map((c) => `${c.shop}#${c.hook}`),
    ...(scope !== undefined ? { scope } : {}),
  };
}
