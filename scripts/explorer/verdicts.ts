/**
 * The invariants of one engine operation that compare before and after: what a destroy must remove, what
 * an operation must not lose or leave unrecorded, what a targeted operation must not touch (the model's account
 * of a failure is in failureAccount.ts).
 */
import { errorMessages, firstError } from "./checks";
import type { OperationResult } from "./engine";
import { allSubs, type Change, type Ledger, type LiveSub, type Snapshot, type StateRecord } from "./ledger";
import {
  declaredPairs,
  declaredShop,
  type Operation,
  resourceShop,
  type StackDecl,
  type StackName,
} from "./model";
import { describeScope, type Scope, stepsUnder } from "./targets";

/** What one operation of a stack did, as the explorer saw it. */
export interface OperationFacts {
  readonly stack: StackName;
  readonly op: Operation | "kill";
  /** The targeted operation's scope; undefined for a full one. */
  readonly scope: Scope | undefined;
  /** The CLI was SIGKILLed during the operation. */
  readonly killed: boolean;
  readonly result: OperationResult;
  readonly before: Snapshot;
  readonly after: Snapshot;
  readonly changes: readonly Change[];
  readonly recordsBefore: readonly StateRecord[];
  /** Records after the operation, not pending deletion. */
  readonly records: readonly StateRecord[];
  /** Records after the operation that are pending deletion. */
  readonly pendingAfter: readonly StateRecord[];
}

function sameRecord(a: StateRecord, b: StateRecord): boolean {
  return a.name === b.name && a.id === b.id && a.hook === b.hook && a.url === b.url;
}

function liveIn(snapshot: Snapshot, record: Pick<StateRecord, "id" | "hook" | "url">): boolean {
  return allSubs(snapshot).some((s) => s.id === record.id && s.hook === record.hook && s.url === record.url);
}

/** The operation as messages name it: `up --target sub-alpha of one`. */
export function what(facts: OperationFacts): string {
  return `${facts.op}${describeScope(facts.scope)} of ${facts.stack}`;
}

/**
 * Whether a targeted operation deleted another record of the same subscription (a rename rolled out with
 * `--target` leaves two records of one id): the engine shows the provider nothing of the untargeted one, so
 * the delete cannot be refused (docs/safety.md, "Targeted operations"); the next full `up --refresh`
 * restores the hook, which the full-sync invariant checks.
 */
function sharedWithTargetedDelete(facts: OperationFacts, record: StateRecord): boolean {
  if (facts.scope === undefined) return false;
  return facts.recordsBefore.some(
    (b) => b.id === record.id && b.name !== record.name && !facts.records.some((r) => r.name === b.name),
  );
}

/**
 * Whether a failed operation refused the program for declaring the record's hook twice in one shop (two shop
 * entries whose keys reach the same shop) and the hook is still subscribed there: the engine created the
 * other declaration before it checked this one, so that create overwrote this record's subscription before
 * the refusal (docs/safety.md, "Two entries of one shop"). The hook calls a URL the program declares.
 */
function overwrittenByTwinDeclaration(facts: OperationFacts, record: StateRecord): boolean {
  if (facts.result.ok || !facts.result.text.includes(`${record.hook} is declared twice for`)) return false;
  const shop = allSubs(facts.before).find((s) => s.id === record.id && s.hook === record.hook)?.shop;
  return (facts.after.get(shop ?? "") ?? []).some((s) => s.hook === record.hook);
}

/**
 * Invariant: nothing the stack records is deleted or re-pointed by an operation that does not delete its
 * resource (a record the operation left as it was must still be live if it was before), failed or not; except
 * what a targeted operation cannot see (see {@link sharedWithTargetedDelete}) and what the engine's order lets
 * a program's twin declaration overwrite (see {@link overwrittenByTwinDeclaration}).
 */
export function recordsKeptLive(facts: OperationFacts): string[] {
  if (facts.killed) return [];
  return facts.records
    .filter((r) => facts.recordsBefore.some((b) => sameRecord(b, r)))
    .filter((r) => liveIn(facts.before, r) && !liveIn(facts.after, r))
    .filter((r) => !sharedWithTargetedDelete(facts, r) && !overwrittenByTwinDeclaration(facts, r))
    .map(
      (r) =>
        `${what(facts)} ${facts.result.ok ? "succeeded" : "failed"} and removed id ${r.id} ${r.hook} ${r.url}, which ${r.name} records and still records`,
    );
}

/** Whether an error message names `id` as an id (`id 3`, `ids 1, 2, 3`). */
function namesId(messages: readonly string[], id: number): boolean {
  const pattern = new RegExp(`\\bids?\\b[^\\n]*?(?<![\\d.])${id}(?!\\d)`);
  return messages.some((m) => pattern.test(m));
}

/**
 * Whether a failed operation's error says that `hook` may be subscribed with no record in state: a POST whose
 * answer was lost, in a shop that could not be listed right after to tell (provider/refusals/createOutcomes.ts,
 * `outcomeUnknown`). No id can be named then, as none was answered or listed; the error names the hook and says
 * that the next `up` adopts what it finds, which the explorer's later steps judge like any adoption.
 */
function toldOutcomeUnknown(messages: readonly string[], hook: string): boolean {
  return messages.some((m) =>
    [
      ...m.matchAll(
        /could not be listed to tell: ([a-z_, ]+) may be subscribed now with no record in state/g,
      ),
    ].some((told) => (told[1] ?? "").split(", ").includes(hook)),
  );
}

/**
 * Invariant: an operation leaves no subscription it wrote that its state does not record, unless it failed
 * and its error names the ids it wrote (so that whoever runs it can take them over or remove them), or, for a
 * write whose id no answer or listing told, names its hook as one that may be subscribed with no record.
 */
export function writesRecorded(facts: OperationFacts): string[] {
  if (facts.killed) return [];
  const recorded = [...facts.records, ...facts.pendingAfter];
  const messages = facts.result.ok ? [] : errorMessages(facts.result.text);
  const problems: string[] = [];
  for (const { after } of facts.changes) {
    if (
      after === undefined ||
      recorded.some((r) => r.id === after.id && r.hook === after.hook && r.url === after.url)
    )
      continue;
    if (namesId(messages, after.id) || toldOutcomeUnknown(messages, after.hook)) continue;
    problems.push(
      facts.result.ok
        ? `${what(facts)} succeeded but wrote ${describe(after)}, which its state does not record`
        : `${what(facts)} failed, leaving ${describe(after)}, which it wrote and its state does not record, and its error does not name id ${after.id}: ${firstError(facts.result.text)}`,
    );
  }
  return problems;
}

function describe(sub: LiveSub): string {
  return `${sub.shop} id ${sub.id} ${sub.hook} ${sub.url}`;
}

/**
 * The model of a targeted operation: an untargeted resource's record is as it was, and an untargeted
 * resource the state did not record is not created. A record under the old name of a targeted resource's alias
 * is that resource's (the engine renames it), not an untargeted one.
 */
export function untargetedUntouched(facts: OperationFacts, decl: StackDecl): string[] {
  if (facts.scope === undefined || facts.killed) return [];
  const scope = facts.scope;
  const aliasedInScope = (name: string) =>
    scope.mode !== "exclude" && decl.resources.some((d) => d.aliasOf === name && stepsUnder(scope, d.name));
  const problems: string[] = [];
  for (const was of facts.recordsBefore.filter(
    (r) => !stepsUnder(scope, r.name) && !aliasedInScope(r.name),
  )) {
    if (!facts.records.some((r) => sameRecord(r, was)))
      problems.push(`${what(facts)} changed the state record of ${was.name}, which it does not target`);
  }
  for (const r of decl.resources.filter((d) => !stepsUnder(scope, d.name))) {
    const known = facts.recordsBefore.some((b) => b.name === r.name);
    if (!known && facts.records.some((a) => a.name === r.name))
      problems.push(`${what(facts)} created ${r.name}, which it does not target`);
  }
  return problems;
}

/**
 * Subscriptions a successful destroy of `stack` must remove: written by it, recorded (by a record the
 * destroy steps), not retained.
 */
/**
 * `up --continue-on-error` never unsubscribes a hook the program declares in a shop (issue 34): the engine
 * goes on past a failed create to the old resource's delete, which must keep the hook subscribed. A hook
 * that a declaring resource replaces with `deleteBeforeReplace` may be left unsubscribed by a failed create:
 * the user asked for that order.
 */
export function continueKeepsDeclared(facts: OperationFacts, decl: StackDecl): string[] {
  if (facts.op !== "upContinue") return [];
  const violations: string[] = [];
  for (const pair of declaredPairs(decl)) {
    const [shop = "", hook] = pair.split("#");
    const declaring = decl.resources.filter((r) => `${declaredShop(decl, r)}#${r.hook}` === pair);
    if (declaring.some((r) => r.deleteBeforeReplace)) continue;
    const subscribed = (snapshot: Snapshot) => (snapshot.get(shop) ?? []).some((s) => s.hook === hook);
    if (subscribed(facts.before) && !subscribed(facts.after))
      violations.push(`up --continue-on-error unsubscribed ${shop} ${hook}, which the program declares`);
  }
  return violations;
}

export function destroyable(
  ledger: Ledger,
  stack: StackName,
  scope: Scope | undefined,
  before: Snapshot,
  records: readonly StateRecord[],
): LiveSub[] {
  const stepped = records.filter((r) => !r.retainOnDelete && stepsUnder(scope, r.name));
  return allSubs(before).filter(
    (sub) =>
      ledger.writerOf(sub) === stack &&
      ledger.isClaimedBy(sub, stack) &&
      stepped.some((r) => r.id === sub.id && r.hook === sub.hook && r.url === sub.url),
  );
}

/**
 * The documented limit of a pin (docs/safety.md): in a shop that listed nothing, a create writes, reads back and
 * deletes what it wrote when the key reaches another shop than the pinned one; a SIGKILL between the write and
 * its undo leaves the write there. The `<shop>#<hook>` pairs of such writes of a killed `up`.
 */
export function leftByKill(decl: StackDecl, before: Snapshot, changes: readonly Change[]): string[] {
  return changes
    .filter(
      ({ shop, hook, before: was, after }) =>
        was === undefined &&
        after !== undefined &&
        (before.get(shop) ?? []).length === 0 &&
        decl.resources.some(
          (r) => r.hook === hook && resourceShop(decl, r) === shop && declaredShop(decl, r) !== shop,
        ),
    )
    .map(({ shop, hook }) => `${shop}#${hook}`);
}
