/**
 * The model's account of a failed operation (invariant 6): why it may fail, and that its error says so.
 */
import { declaredUrl, failureSaysWhy, firstError } from "./checks";
import { duplicateDeclarations } from "./edits";
import type { Snapshot, StateRecord } from "./ledger";
import {
  type FaultName,
  REFUSED_URL,
  type ResourceDecl,
  resourceShop,
  type ServiceName,
  type ShopEntry,
  type StackDecl,
} from "./model";
import { FAILING_FAULTS } from "./services";
import { type OperationFacts, what } from "./verdicts";

/** A fault armed for an operation. */
export interface ArmedFault {
  readonly service: ServiceName;
  readonly fault: FaultName;
}

/** Invariant 6 and the model's account of a failure: why it may fail, and that it says so. */
export function explainFailure(
  facts: OperationFacts,
  decl: StackDecl,
  shops: { readonly now: Record<ShopEntry, string>; readonly last: Record<ShopEntry, string> | undefined },
  faults: readonly ArmedFault[],
): string[] {
  const { recordsBefore, before, result } = facts;
  const text = result.text;
  const names = [...new Set([...decl.resources.map((r) => r.name), ...recordsBefore.map((r) => r.name)])];
  if (/did not finish within/.test(text)) return [`${what(facts)} hung: ${firstError(text)}`];
  const explanations: Array<{ why: string; reason?: RegExp }> = [];
  for (const f of faults) {
    const reason = FAILING_FAULTS.get(f.fault);
    if (reason !== undefined) explanations.push({ why: `fault ${f.fault}`, reason });
  }
  if (recordsBefore.some((r) => r.protect))
    explanations.push({ why: "a protected resource", reason: /protect/i });
  if (duplicateDeclarations(decl).length > 0) explanations.push({ why: "a duplicate declaration" });
  // A pinned entry whose key reaches another shop, or whose service sends no shop_id, is refused.
  if (decl.targets.default.pin !== undefined || decl.targets.alt.pin !== undefined)
    explanations.push({ why: "a pinned shop", reason: /pins shop/ });
  const { now, last } = shops;
  if (
    last !== undefined &&
    recordsBefore.length > 0 &&
    (last.default !== now.default || last.alt !== now.alt)
  )
    explanations.push({ why: "a change of target" });
  // A shop that lists nothing cannot say which shop its key reaches: a resource recorded there is refused
  // (deleted in the back office, or the key now reaches another, empty shop), naming both ways on.
  const usedShops = new Set(decl.resources.map((r) => resourceShop(decl, r)));
  if (recordsBefore.length > 0 && [...usedShops].some((shop) => (before.get(shop) ?? []).length === 0))
    explanations.push({ why: "a configured shop that lists nothing", reason: /lists no subscription/ });
  // The service refuses a URL with an uppercase letter; preview says so first.
  if (decl.resources.some((r) => r.url === REFUSED_URL))
    explanations.push({ why: "a refused URL", reason: /lowercase/ });
  // A create never overwrites a subscription made outside the stack without `takeOver: true`; a delete never
  // unsubscribes a hook another resource declares (docs/safety.md, "Taking over a subscription made outside").
  if (outsideTheStack(decl, recordsBefore, before))
    explanations.push({
      why: "a subscription made outside the stack",
      reason: /which no resource of this stack records|not deleting subscription/,
    });
  // Where the provider cannot see the whole deployment, it may refuse rather than lose a subscription.
  if (facts.scope !== undefined) explanations.push({ why: "a targeted operation" });
  if (explanations.length === 0)
    return [`${what(facts)} failed and the model has no reason: ${firstError(text)}`];
  const attempts = explanations.map((e) => failureSaysWhy(text, names, e.reason));
  return attempts.find((a) => a.length === 0) ?? (attempts[0] as string[]);
}

/**
 * Whether a declared hook is live at another URL than declared under an id that no record of a resource the
 * program declares for that hook and shop holds: made outside the stack, recorded by a resource the program
 * no longer declares, or by one that hands the hook on in this operation (it takes another hook or shop, and
 * the engine may check the new declaration first: docs/safety.md, "Taking over a subscription made outside").
 * Its create is refused without `takeOver`, and a removed resource's delete refuses while the hook is declared
 * again.
 */
function outsideTheStack(decl: StackDecl, records: readonly StateRecord[], before: Snapshot): boolean {
  return decl.resources.some((r) => {
    const shop = resourceShop(decl, r);
    const live = (before.get(shop) ?? []).find((s) => s.hook === r.hook);
    const keepsIt = (d: ResourceDecl) => d.hook === r.hook && resourceShop(decl, d) === shop;
    return (
      live !== undefined &&
      live.url !== declaredUrl(r) &&
      !records.some(
        (rec) => rec.id === live.id && decl.resources.some((d) => d.name === rec.name && keepsIt(d)),
      )
    );
  });
}
